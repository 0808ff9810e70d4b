# bench.mk — `make bench`: frame-time table over the scenes, then the early-draw comparison.
# Fed by the top Makefile ($(MAKE) -f bench/bench.mk BUILD=build); drives bench/frametime.sh.
BUILD       ?= build
MOSAIC      := $(BUILD)/mosaic
SCENES      ?= $(wildcard scenes/*.scene)
EARLY_SCENE ?= scenes/default.scene
THREADS     ?= 1 2
FRAMES      ?= 7
SIZE        ?= 1920x1080
FRAMETIME   := sh bench/frametime.sh --mosaic $(MOSAIC) --threads "$(THREADS)" \
               --frames $(FRAMES) --size $(SIZE)

.PHONY: bench frametime early
bench: frametime early

frametime:
	@$(FRAMETIME) $(SCENES)

early:
	@$(FRAMETIME) --early-compare $(EARLY_SCENE)

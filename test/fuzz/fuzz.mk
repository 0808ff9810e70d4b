# fuzz.mk — libFuzzer targets for every parser (test/fuzz/fuzz_*.c) and replay binaries for their
# regression inputs.  Included by the Makefile; uses its BUILD, CFLAGS, LDFLAGS, LDLIBS, TOOL_CFLAGS, TOOL_LIBS, TOOLS_A.
#   make fuzz-build          build/fuzz/fuzzers/fuzz_NAME: clang, SAN=fuzz (ASan+UBSan), -O1
#   make fuzz                runs each target FUZZ_SECONDS (default 300) on build/fuzz/corpus/NAME, seeded
#                            from test/fuzz/corpus/NAME, test/fuzz/regress/NAME and FUZZ_SEEDS_NAME;
#                            FUZZ_TARGETS='scene bsp' picks some, make -jN runs them side by side;
#                            a crash, hang (> 10 s), leak or huge allocation stops a target and leaves
#                            its input in build/fuzz/artifacts/NAME/
#   make fuzz-replay-build   $(BUILD)/fuzzers/replay_NAME with this BUILD, SAN and CC (gcc will do):
#                            the target with replay_main.c instead of libFuzzer (test/test_fuzz.sh)
# A kept input reruns with build/fuzz/fuzzers/fuzz_NAME FILE, or in any build with
# MOSAIC_FUZZ_VERBOSE=1 $(BUILD)/fuzzers/replay_NAME FILE (prints what the parser said).  Every
# reproducer goes to test/fuzz/regress/NAME/ under a name that says what it was, and test_fuzz.sh
# replays it from then on.

FUZZ_TARGETS ?= scene pattern bsp pk3 image shader mesh q3shader
FUZZ_SECONDS ?= 300
FUZZ_CC      ?= clang
FUZZ_BUILD   := build/fuzz
# Per input: 10 s, 2 GiB resident, 1 GiB in one allocation.
FUZZ_LIMITS  := -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024
FUZZ_FLAGS_scene := -dict=test/fuzz/scene.dict
# Mesh import: a file that makes assimp allocate for counts it does not hold stops at 1 GiB (the last
# -rss_limit_mb given wins).
FUZZ_FLAGS_mesh  := -rss_limit_mb=1024
# ... and assimp's leaks on its own failure paths are not findings (test/fuzz/mesh.lsan.supp).
FUZZ_ENV_mesh    := ASAN_OPTIONS=fast_unwind_on_malloc=0:$$ASAN_OPTIONS LSAN_OPTIONS=suppressions=test/fuzz/mesh.lsan.supp:$$LSAN_OPTIONS
# Seeds besides test/fuzz/corpus/NAME: the project's scenes and textures, and (bsp) the smallest map
# of OpenArena's pak1-maps.pk3, extracted when the corpus is seeded, never committed.
FUZZ_SEEDS_scene := $(wildcard scenes/*.scene scenes/oa/*.scene test/scenes/*.scene)
FUZZ_SEEDS_image := $(wildcard scenes/textures/*.png)
FUZZ_SEEDS_shader := $(wildcard shaders/*.frag shaders/*.vert)
FUZZ_SEEDS_mesh  := $(wildcard /usr/share/assimp/models/PLY/cube*.ply /usr/share/assimp/models/OFF/Cube.off \
                      /usr/share/assimp/models/STL/triangle.stl /usr/share/assimp/models/OBJ/box.obj)
FUZZ_PK3     := /usr/share/games/openarena/baseoa/pak1-maps.pk3
FUZZ_PK3_MAP := maps/oa_ctf2.bsp

# The parsers need src/scene and src/image (TOOLS_A; the objects that render are not pulled in) and
# of libmosaic only the pattern tables and the shader stage: the rest is neither linked nor built here.
# stb_image (its TGA decoder) is compiled in (stb_image_impl.c), not taken from libstb; zlib for the
# fixtures' CRCs.
FUZZ_LIBS    := $(filter-out -lstb,$(TOOL_LIBS)) -lz
FUZZ_OBJ     := $(BUILD)/obj/test/fuzz
FUZZ_CORE    := $(addprefix $(BUILD)/obj/src/,pattern/pattern.o pattern/generators.o pattern/pattern_file.o util/alloc.o)
# The scene module compiles GLSL shaders: the shader stage (DAG, partitioner, VM, sampler) is linked too.
FUZZ_SHADER  := $(patsubst src/%.c,$(BUILD)/obj/src/%.o,$(wildcard src/shader/*.c))
FUZZ_COMMON  := $(FUZZ_OBJ)/fuzz_util.o $(FUZZ_OBJ)/stb_image_impl.o $(FUZZ_CORE) $(FUZZ_SHADER)
FUZZ_HDRS    := test/fuzz/fuzz_util.h test/fuzz/fuzz_bsp.h

.PHONY: fuzz fuzz-build fuzz-bins fuzz-replay-build
.PRECIOUS: $(FUZZ_OBJ)/%.o

$(FUZZ_OBJ)/%.o: test/fuzz/%.c $(FUZZ_HDRS) $(HEADERS) test/fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TOOL_CFLAGS) -c $< -o $@
# stb_image is third-party code: not held to the project's -Wsign-conversion.
$(FUZZ_OBJ)/stb_image_impl.o: CFLAGS += -Wno-sign-conversion

# The same target object, linked with libFuzzer's main or with replay_main.o.
$(BUILD)/fuzzers/fuzz_%: $(FUZZ_OBJ)/fuzz_%.o $(FUZZ_COMMON) $(TOOLS_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_COMMON) $(TOOLS_A) $(FUZZ_LIBS) $(LDLIBS)
$(BUILD)/fuzzers/replay_%: $(FUZZ_OBJ)/fuzz_%.o $(FUZZ_OBJ)/replay_main.o $(FUZZ_COMMON) $(TOOLS_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(FUZZ_OBJ)/replay_main.o $(FUZZ_COMMON) $(TOOLS_A) $(FUZZ_LIBS) $(LDLIBS)

fuzz-bins: $(FUZZ_TARGETS:%=$(BUILD)/fuzzers/fuzz_%)
fuzz-replay-build: $(FUZZ_TARGETS:%=$(BUILD)/fuzzers/replay_%)

fuzz-build: test-deps
	@command -v $(FUZZ_CC) > /dev/null 2>&1 || { echo "fuzz-build: $(FUZZ_CC) not found"; exit 1; }
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) SAN=fuzz CC=$(FUZZ_CC) OPT=-O1 fuzz-bins

# fuzz-corpus-NAME: fills build/fuzz/corpus/NAME with the seeds it lacks.
fuzz-corpus-%:
	@d=$(FUZZ_BUILD)/corpus/$*; mkdir -p $$d; \
	for f in test/fuzz/corpus/$*/* test/fuzz/regress/$*/* $(FUZZ_SEEDS_$*); do \
	  [ -f "$$f" ] && [ ! -e "$$d/$${f##*/}" ] && cp "$$f" "$$d/"; \
	done; \
	if [ "$*" = bsp ] && [ -r $(FUZZ_PK3) ] && [ ! -s "$$d/$(notdir $(FUZZ_PK3_MAP))" ]; then \
	  unzip -p $(FUZZ_PK3) $(FUZZ_PK3_MAP) > "$$d/$(notdir $(FUZZ_PK3_MAP))"; \
	fi; true

fuzz-run-%: fuzz-corpus-%
	@mkdir -p $(FUZZ_BUILD)/artifacts/$*
	$(FUZZ_ENV_$*) $(FUZZ_BUILD)/fuzzers/fuzz_$* $(FUZZ_LIMITS) $(FUZZ_FLAGS_$*) -max_total_time=$(FUZZ_SECONDS) \
	  -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/artifacts/$*/ $(FUZZ_BUILD)/corpus/$*

fuzz: fuzz-build
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=fuzz-run-%)

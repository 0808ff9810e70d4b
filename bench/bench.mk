# bench.mk — `make bench`: builds the llvmpipe reference (build/mosaic-llvmpipe) and runs the
# standard suite A/B against it.  Fed by the top Makefile ($(MAKE) -f bench/bench.mk BUILD=build).
#   make -f bench/bench.mk llvmpipe      only the reference renderer
#   make -f bench/bench.mk frametime     Mosaic-only frame-time table (bench/frametime.sh)
#   make -f bench/bench.mk early         early-draw on/off comparison
#   make -f bench/bench.mk micro         the microbenchmarks against llvmpipe (bench/micro.sh)
#   make -f bench/bench.mk blur          decoupled blur against llvmpipe's accumulation (bench/blur.suite,
#                                        out/bench-blur, its images kept; BLUR_SUITE, BLUR_OUT override)
#   make -f bench/bench.mk crops         after `blur`: truth | decoupled | Mosaic accumulation at equal time,
#                                        cut out side by side (bench/crops.sh; CROPS_ARGS, CROPS_OUT)
#   make -f bench/bench.mk shader        the shader VM against native C (bench/shader_vm.c)
#   SUITE=bench/quick.suite FRAMES=3 ... override the suite or its frame count
BUILD       ?= build
CC          ?= cc
MOSAIC      := $(BUILD)/mosaic
LLVMPIPE    := $(BUILD)/mosaic-llvmpipe
SUITE       ?= bench/standard.suite
BLUR_SUITE  ?= bench/blur.suite
BLUR_OUT    ?= out/bench-blur
CROPS_OUT   ?= bench/view/blur_crops.png
CROPS_ARGS  ?=
OUTDIR      ?= out/bench
BENCH_ARGS  ?=
SCENES      ?= $(wildcard scenes/*.scene)
EARLY_SCENE ?= scenes/default.scene
THREADS     ?= 1 2
FRAMES      ?= 7
SIZE        ?= 1920x1080

WARN        := -Wall -Wextra -Werror -Wstrict-prototypes -Wshadow -Wsign-conversion -Wno-unused-parameter
# The scene module compiles GLSL shaders (src/glsl: glslang's static libraries, C++); as GLSL_LIBS
# in the top Makefile.
GLSL_LIBS   ?= -lglslang -lMachineIndependent -lOSDependent -lGenericCodeGen -lOGLCompiler -lSPIRV \
               -lSPIRV-Tools-opt -lSPIRV-Tools -lglslang-default-resource-limits -lstdc++
LP_CFLAGS   := -std=c11 -D_GNU_SOURCE -g -O2 $(WARN) -pthread -Iinclude -Isrc \
               $(shell pkg-config --cflags osmesa stb 2>/dev/null)
LP_LIBS     := $(shell pkg-config --libs osmesa 2>/dev/null || echo -lOSMesa) \
               $(shell pkg-config --libs stb assimp minizip libpng libjpeg 2>/dev/null || echo -lstb -lassimp -lminizip -lpng16 -ljpeg) \
               $(GLSL_LIBS) -lm
LP_SRC      := $(wildcard bench/llvmpipe/*.c)
LP_HDRS     := $(wildcard bench/llvmpipe/*.h) include/mosaic.h $(wildcard src/*/*.h)
FRAMETIME   := sh bench/frametime.sh --mosaic $(MOSAIC) --threads "$(THREADS)" \
               --frames $(FRAMES) --size $(SIZE)

.PHONY: bench llvmpipe frametime early micro shader blur crops
# `make bench` calls this file without a goal: the standard suite, whatever rule comes first.
.DEFAULT_GOAL := bench
# The shader VM against native C, and batch size x passes (bench/shader_vm.c).
SHADER_BENCH := $(BUILD)/bench-shader-vm
shader: $(SHADER_BENCH)
	$(SHADER_BENCH)
SHADER_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O3 -fno-math-errno -fno-trapping-math -ffp-contract=off $(WARN) -pthread \
                 -Iinclude -Isrc
# The native twin of wood.frag, one object per ISA from one file (bench/wood_native.c).
WOOD_OBJS := $(foreach i,0 1 2,$(BUILD)/bench/wood_native_$(i).o)
$(BUILD)/bench/wood_native_%.o: bench/wood_native.c bench/wood_native_tmp.h bench/wood_native.h $(LP_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(SHADER_CFLAGS) -DWOOD_ISA=$* -c -o $@ $<
$(SHADER_BENCH): bench/shader_vm.c bench/wood_native.h $(WOOD_OBJS) $(LP_HDRS) $(BUILD)/libmosaic_tools.a $(BUILD)/libmosaic.a
	$(CC) $(SHADER_CFLAGS) -o $@ $< $(WOOD_OBJS) $(BUILD)/libmosaic_tools.a $(BUILD)/libmosaic.a $(GLSL_LIBS) -lm
bench: llvmpipe
	@mkdir -p $(OUTDIR)
	$(MOSAIC) bench --vs llvmpipe --llvmpipe $(LLVMPIPE) --suite $(SUITE) --out $(OUTDIR) \
	  --csv $(OUTDIR)/bench.csv $(BENCH_ARGS)
	sh bench/micro.sh --mosaic $(MOSAIC) --llvmpipe $(LLVMPIPE) --out $(OUTDIR)/micro

blur: llvmpipe
	@mkdir -p $(BLUR_OUT)
	$(MOSAIC) bench --vs llvmpipe --llvmpipe $(LLVMPIPE) --suite $(BLUR_SUITE) --out $(BLUR_OUT) \
	  --keep-images $(BENCH_ARGS)

# The crop tool reads and writes PNGs through the image module of libmosaic_tools.a.
CROPS       := $(BUILD)/bench-crops
CROPS_LIBS  := $(shell pkg-config --libs stb libpng libjpeg 2>/dev/null || echo -lstb -lpng16 -ljpeg) -lm
crops: $(CROPS)
	sh bench/crops.sh --mosaic $(MOSAIC) --crops $(CROPS) -o $(CROPS_OUT) $(CROPS_ARGS) $(BLUR_OUT)
$(CROPS): bench/crops.c $(LP_HDRS) $(BUILD)/libmosaic_tools.a $(BUILD)/libmosaic.a
	@mkdir -p $(dir $@)
	$(CC) $(SHADER_CFLAGS) -o $@ $< $(BUILD)/libmosaic_tools.a $(BUILD)/libmosaic.a $(CROPS_LIBS)

micro: llvmpipe
	sh bench/micro.sh --mosaic $(MOSAIC) --llvmpipe $(LLVMPIPE) --out $(OUTDIR)/micro

llvmpipe: $(LLVMPIPE)

# Links the scene module (libmosaic_tools.a) and libmosaic (the built-in uniforms)
# built by the top Makefile.
# --agree uses mosaic bench's own agreement rule (bench/agree.o, built with the CLI).
$(LLVMPIPE): $(LP_SRC) $(LP_HDRS) $(BUILD)/obj/src/tools/bench/agree.o $(BUILD)/libmosaic_tools.a $(BUILD)/libmosaic.a
	@mkdir -p $(dir $@)
	$(CC) $(LP_CFLAGS) -o $@ $(LP_SRC) $(BUILD)/obj/src/tools/bench/agree.o $(BUILD)/libmosaic_tools.a \
	  $(BUILD)/libmosaic.a $(LP_LIBS)

frametime:
	@$(FRAMETIME) $(SCENES)

early:
	@$(FRAMETIME) --early-compare $(EARLY_SCENE)

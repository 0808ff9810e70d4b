# Mosaic — builds everything into build/.
#   make            libmosaic.a, libmosaic.so.*, mosaic (CLI), mosaic-view (SDL2 viewer),
#                   mosaic-demo (SDL2 demo embedding the library)
#   make run        renders scenes/default.scene to out/default.png
#   make test       unit/image/stress tests, then again under ASan+UBSan and TSan
#   make bench      frame benchmarks (bench/)
#   make install PREFIX=/usr/local [DESTDIR=stage]   (mosaic.pc written for PREFIX)
#   make uninstall PREFIX=/usr/local [DESTDIR=stage]
#   make fuzz       each parser's libFuzzer target for FUZZ_SECONDS (test/fuzz/fuzz.mk)
# Variants: BUILD=build/asan SAN=asan, BUILD=build/tsan SAN=tsan, and
# BUILD=build/fuzz SAN=fuzz CC=clang (libFuzzer instrumentation; make fuzz-build).

CC      ?= cc
BUILD   ?= build
SAN     ?=
PREFIX  ?= /usr/local
OPT     ?= -O3

# Debian packages the build, the scenes and the benchmarks need; `make deps`
# installs the missing ones (zlib1g-dev: minizip's unzip.h includes zlib.h, and
# libminizip-dev does not depend on it).  TEST_DEB_PKGS (test/tests.mk) adds
# what only the tests need.  ../shared/tools/deps-check.sh checks this list.
# The viewer (mosaic-view): SDL2, SDL2_ttf and the DejaVu font of its HUD.
# Image input: libpng and libjpeg-turbo (stb_image only for TGA).
# Shaders: glslang-dev (GLSL -> SPIR-V, with spirv-tools' static libraries)
# for the tools; spirv-headers (spirv.h, GLSL.std.450.h) for the library's
# SPIR-V reader.
# OpenArena maps: openarena-081-maps, openarena-081-textures for their images and openarena-data for the
# shader scripts (pak0.pk3; test_bsp.sh builds a .pk3 with zip).
# mosaic-mpi (one frame over MPI ranks): libopenmpi-dev (mpi.h, libmpi and
# ompi-c.pc, read through pkg-config) and openmpi-bin (mpirun, to run it and
# test/test_mpi.sh).
DEB_PKGS := glslang-dev spirv-headers libassimp-dev libstb-dev glmark2-data assimp-testmodels pkg-config libosmesa6-dev gnuplot-nox libminizip-dev zlib1g-dev openarena-081-maps openarena-081-textures openarena-data unzip zip \
            libpng-dev libjpeg62-turbo-dev \
            libsdl2-dev libsdl2-ttf-dev fonts-dejavu-core \
            openmpi-bin libopenmpi-dev

WARN    := -Wall -Wextra -Werror -Wstrict-prototypes -Wshadow -Wsign-conversion -Wno-unused-parameter
# -ffp-contract=off: the per-ISA variants (AVX2, AVX-512 have FMA) must compute
# the same bits as the portable build, so the image never depends on the CPU.
# -fvisibility=hidden: the library exports only what include/mosaic.h marks
# MOS_API (see "The library" below).
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -g $(OPT) -fno-math-errno -fno-trapping-math -ffp-contract=off $(WARN) -pthread -fPIC -fvisibility=hidden -Iinclude -Isrc
ifeq ($(SAN),asan)
  SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else ifeq ($(SAN),tsan)
  SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
else ifeq ($(SAN),fuzz)
  SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
CFLAGS  := $(CFLAGS_BASE) $(SANFLAGS) $(EXTRA_CFLAGS)
LDFLAGS += $(SANFLAGS) -pthread
LDLIBS  += -lm

# Read when make parses this file: the targets that build (all, run, test,
# bench) first run `deps`, then a second make that parses it again, so these
# see the packages deps has just installed.
TOOL_CFLAGS := $(shell pkg-config --cflags stb assimp minizip libpng libjpeg 2>/dev/null || echo -I/usr/include/stb -I/usr/include/minizip)
TOOL_LIBS   := $(shell pkg-config --libs stb assimp minizip libpng libjpeg 2>/dev/null || echo -lstb -lassimp -lminizip -lpng16 -ljpeg)
# glslang's static libraries (C++: libstdc++ last).
GLSL_LIBS   := -lglslang -lMachineIndependent -lOSDependent -lGenericCodeGen -lOGLCompiler -lSPIRV \
               -lSPIRV-Tools-opt -lSPIRV-Tools -lglslang-default-resource-limits -lstdc++
TOOL_LIBS   += $(GLSL_LIBS)
VIEW_CFLAGS := $(shell pkg-config --cflags sdl2 SDL2_ttf 2>/dev/null || echo -I/usr/include/SDL2 -D_REENTRANT)
VIEW_LIBS   := $(shell pkg-config --libs sdl2 SDL2_ttf 2>/dev/null || echo -lSDL2_ttf -lSDL2)

# libmosaic: the pipeline stages (no third-party dependency).
CORE_DIRS := api util frontend binning pattern sched raster backend shader
CORE_SRC  := $(foreach d,$(CORE_DIRS),$(wildcard src/$(d)/*.c))
# Tool support: scene files, mesh/texture import, PNG and image diff.
TOOLS_SRC := $(wildcard src/scene/*.c) $(wildcard src/image/*.c) $(wildcard src/glsl/*.c)
CLI_SRC   := $(wildcard src/tools/*.c) $(wildcard src/tools/bench/*.c)

CORE_OBJ  := $(CORE_SRC:%.c=$(BUILD)/obj/%.o)
TOOLS_OBJ := $(TOOLS_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
HEADERS   := include/mosaic.h $(wildcard src/*/*.h) Makefile
# The viewer: its own files plus the CLI's option parser, arguments and stats JSON.
VIEW_SRC  := $(wildcard src/tools/view/*.c)
# What the viewer and mosaic-mpi take of the CLI: its option parser (with
# sequences' output names), arguments, file checks and stats JSON.
RENDER_OPTS_OBJ := $(addprefix $(BUILD)/obj/src/tools/,render_opts.o sequence.o cli_args.o cli_file.o stats_json.o)
VIEW_OBJ  := $(VIEW_SRC:%.c=$(BUILD)/obj/%.o) $(RENDER_OPTS_OBJ)

# The library.  Every object is compiled with -fvisibility=hidden and
# include/mosaic.h marks the public functions MOS_API (visibility default):
#   LIB_SO      libmosaic.so.MAJOR.MINOR.PATCH with soname libmosaic.so.SOVERSION
#               and the links libmosaic.so.SOVERSION and libmosaic.so beside
#               it; exports the mos_ functions only.
#   LIB_DIST_A  dist/libmosaic.a, the static library `make install` installs:
#               one relocatable object (ld -r of the core objects) in which
#               objcopy --localize-hidden has made the hidden symbols local,
#               so a program linking it sees only mos_ names and may define
#               its own arena_alloc, fifo_push...  (The price: a static link
#               takes the whole library, not only the objects it references.)
#   LIB_A       libmosaic.a, the core objects as compiled (internals hidden
#               but global): the in-tree archive.  The CLI, the viewer, the
#               tests and bench/bench.mk link it, and libmosaic_tools.a with
#               them, because they call internal functions (shader_builtin_*,
#               program_build, arena_*...).  Never installed.
# The version is written once, in include/mosaic.h, and read here for the file
# names and mosaic.pc.  Before 1.0 a minor version may break the ABI (the
# header says so), so the soname then carries it: libmosaic.so.0.MINOR.
MOS_HEADER_VERSION = $(shell sed -n 's/^\#define MOS_VERSION_$(1) *\([0-9][0-9]*\).*/\1/p' include/mosaic.h)
MOS_MAJOR   := $(call MOS_HEADER_VERSION,MAJOR)
MOS_MINOR   := $(call MOS_HEADER_VERSION,MINOR)
MOS_PATCH   := $(call MOS_HEADER_VERSION,PATCH)
MOS_VERSION := $(MOS_MAJOR).$(MOS_MINOR).$(MOS_PATCH)
MOS_SOVERSION := $(if $(filter 0,$(MOS_MAJOR)),0.$(MOS_MINOR),$(MOS_MAJOR))
LIB_A       := $(BUILD)/libmosaic.a
LIB_DIST_A  := $(BUILD)/dist/libmosaic.a
LIB_SO      := $(BUILD)/libmosaic.so
LIB_SO_SONAME := libmosaic.so.$(MOS_SOVERSION)
LIB_SO_REAL   := libmosaic.so.$(MOS_VERSION)
TOOLS_A   := $(BUILD)/libmosaic_tools.a
CLI       := $(BUILD)/mosaic
VIEW      := $(BUILD)/mosaic-view
DEMO      := $(BUILD)/mosaic-demo

.PHONY: all build deps install-pkgs test-deps run test test-one bench install uninstall clean
all: deps
	@$(MAKE) --no-print-directory build
build: $(LIB_A) $(LIB_DIST_A) $(LIB_SO) $(CLI) $(VIEW) $(DEMO)

# Installs the missing packages of PKGS (as root), else prints the apt-get
# line and fails.
deps:
	@$(MAKE) --no-print-directory install-pkgs PKGS="$(DEB_PKGS)"
install-pkgs:
	@missing=""; for p in $(PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "deps: installing$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "deps: missing Debian packages; run:"; echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

$(BUILD)/obj/src/scene/%.o: src/scene/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TOOL_CFLAGS) -c $< -o $@
$(BUILD)/obj/src/image/%.o: src/image/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TOOL_CFLAGS) -c $< -o $@
$(BUILD)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB_A): $(CORE_OBJ)
	@rm -f $@; ar rcs $@ $^
$(LIB_DIST_A): $(CORE_OBJ)
	@mkdir -p $(dir $@); rm -f $@ $(BUILD)/dist/libmosaic.o
	ld -r -o $(BUILD)/dist/libmosaic.o $^
	objcopy --localize-hidden $(BUILD)/dist/libmosaic.o
	ar rcs $@ $(BUILD)/dist/libmosaic.o
$(BUILD)/$(LIB_SO_REAL): $(CORE_OBJ)
	$(CC) -shared -Wl,-soname,$(LIB_SO_SONAME) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(LIB_SO): $(BUILD)/$(LIB_SO_REAL)
	ln -sf $(LIB_SO_REAL) $(BUILD)/$(LIB_SO_SONAME)
	ln -sf $(LIB_SO_REAL) $@
$(TOOLS_A): $(TOOLS_OBJ)
	@rm -f $@; ar rcs $@ $^
$(CLI): $(CLI_OBJ) $(TOOLS_A) $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(TOOLS_A) $(LIB_A) $(TOOL_LIBS) $(LDLIBS)
$(BUILD)/obj/src/tools/bench/%.o: src/tools/bench/%.c src/tools/bench/bench.h $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/obj/src/tools/view/%.o: src/tools/view/%.c src/tools/view/view.h $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(VIEW_CFLAGS) -c $< -o $@
$(VIEW): $(VIEW_OBJ) $(TOOLS_A) $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $(VIEW_OBJ) $(TOOLS_A) $(LIB_A) $(TOOL_LIBS) $(VIEW_LIBS) $(LDLIBS)

# The demo (src/tools/demo/): include/mosaic.h and the installed-style
# dist/libmosaic.a only, plus SDL2 and libpng.  Its GLSL shaders are compiled
# to SPIR-V at build time by this tree's CLI (`mosaic shader --spirv`, the
# glslang the scenes use) and embedded as a C header.
DEMO_GLSL := shaders/builtin.vert shaders/lambert.frag
DEMO_LIBS := $(shell pkg-config --libs sdl2 libpng 2>/dev/null || echo -lSDL2 -lpng16)
$(BUILD)/gen/demo_spv.h: $(DEMO_GLSL) $(CLI)
	@mkdir -p $(dir $@)
	$(CLI) shader shaders/builtin.vert --spirv $(BUILD)/gen/demo.vert.spv > /dev/null
	$(CLI) shader shaders/lambert.frag --spirv $(BUILD)/gen/demo.frag.spv > /dev/null
	@{ echo '/* Generated by the Makefile from $(DEMO_GLSL): SPIR-V words. */'; \
	  for s in vert frag; do \
	    echo "static const uint32_t demo_$${s}_spv[] = {"; \
	    od -An -v -tx4 $(BUILD)/gen/demo.$$s.spv | sed 's/ *\([0-9a-f]\{8\}\)/0x\1u,/g; s/^/    /'; \
	    echo '};'; \
	  done; } > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/src/tools/demo/%.o: src/tools/demo/%.c $(BUILD)/gen/demo_spv.h include/mosaic.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Isrc,$(CFLAGS)) -I$(BUILD)/gen $(VIEW_CFLAGS) $(TOOL_CFLAGS) -c $< -o $@
$(DEMO): $(BUILD)/obj/src/tools/demo/demo.o $(LIB_DIST_A)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB_DIST_A) $(DEMO_LIBS) $(LDLIBS)

# mosaic-mpi (src/tools/mpi/): one frame over MPI ranks, a binary of
# its own so that libmosaic and mosaic never link MPI.  Open MPI's flags come
# from pkg-config's ompi-c (libopenmpi-dev), its headers as system headers
# (-isystem) so that -Werror judges our code only; it links like mosaic plus
# the CLI's option parser, arguments, file checks and stats JSON.
MPI_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags ompi-c 2>/dev/null || echo -I/usr/lib/x86_64-linux-gnu/openmpi/include))
MPI_LIBS   := $(shell pkg-config --libs ompi-c 2>/dev/null || echo -lmpi)
MPI_SRC    := $(wildcard src/tools/mpi/*.c)
MPI_OBJ    := $(MPI_SRC:%.c=$(BUILD)/obj/%.o) $(RENDER_OPTS_OBJ)
MPI_BIN    := $(BUILD)/mosaic-mpi
build: $(MPI_BIN)
$(BUILD)/obj/src/tools/mpi/%.o: src/tools/mpi/%.c $(wildcard src/tools/mpi/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(MPI_CFLAGS) -c $< -o $@
$(MPI_BIN): $(MPI_OBJ) $(TOOLS_A) $(LIB_A)
	$(CC) $(LDFLAGS) -o $@ $(MPI_OBJ) $(TOOLS_A) $(LIB_A) $(TOOL_LIBS) $(MPI_LIBS) $(LDLIBS)

run: all
	@mkdir -p out
	@$(CLI) render scenes/default.scene -o out/default.png

bench: all
	@$(MAKE) --no-print-directory -f bench/bench.mk BUILD=$(BUILD)

# mosaic.pc is written here, for the PREFIX installed to (DESTDIR only
# stages the files); the shared library goes in with its two links.
INST_LIB := $(DESTDIR)$(PREFIX)/lib
install: all
	install -d $(DESTDIR)$(PREFIX)/include $(INST_LIB)/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 include/mosaic.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(LIB_DIST_A) $(INST_LIB)/
	install -m 755 $(BUILD)/$(LIB_SO_REAL) $(INST_LIB)/
	ln -sf $(LIB_SO_REAL) $(INST_LIB)/$(LIB_SO_SONAME)
	ln -sf $(LIB_SO_REAL) $(INST_LIB)/libmosaic.so
	printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: mosaic\nDescription: multithreaded sort-middle software rasterizer\nVersion: %s\nLibs: -L$${libdir} -lmosaic\nLibs.private: -pthread -lm\nCflags: -I$${includedir}\n' \
	  "$(PREFIX)" "$(MOS_VERSION)" > $(INST_LIB)/pkgconfig/mosaic.pc
	chmod 644 $(INST_LIB)/pkgconfig/mosaic.pc
	install -m 755 $(CLI) $(VIEW) $(MPI_BIN) $(DESTDIR)$(PREFIX)/bin/
# Removes the files install put there (folders stay).
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/include/mosaic.h $(INST_LIB)/libmosaic.a $(INST_LIB)/$(LIB_SO_REAL) \
	  $(INST_LIB)/$(LIB_SO_SONAME) $(INST_LIB)/libmosaic.so $(INST_LIB)/pkgconfig/mosaic.pc \
	  $(DESTDIR)$(PREFIX)/bin/mosaic $(DESTDIR)$(PREFIX)/bin/mosaic-view $(DESTDIR)$(PREFIX)/bin/mosaic-mpi

clean:
	rm -rf build out

# Tests: test/tests.mk defines test-one (one build variant) and test;
# test/fuzz/fuzz.mk the fuzz targets (fuzz-build, fuzz, fuzz-replay-build).
include test/tests.mk
include test/fuzz/fuzz.mk
test: test-deps

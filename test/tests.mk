# tests.mk — test-one (build and run the suite in one variant) and test (all
# variants plus a summary).  Included by the Makefile; uses its LIB_A, LIB_DIST_A, TOOLS_A,
# CLI, CFLAGS, LDFLAGS, LDLIBS, TOOL_CFLAGS, TOOL_LIBS and BUILD.

# Debian packages only the tests need (make test installs them through deps):
# clang and its libFuzzer runtime for the fuzz targets (test/fuzz/); Xvfb and
# xauth (xvfb-run) for the viewer's window (test_view.sh); time (/usr/bin/time)
# for the peak memory of the hostile-input tests.
TEST_DEB_PKGS := clang libclang-rt-14-dev xvfb xauth time

TEST_DIR     := $(BUILD)/test
TEST_C       := test_watertight test_raster_rules test_clip test_input test_determinism test_stress test_patterns test_blur test_misuse test_inspect test_sandbox test_materials test_sampling test_partition test_shader test_stoch_bounds test_two_sided test_shader_oom test_tile_mask \
                test_scene_time
TEST_SH      := test_includes test_cli test_hostile test_readme test_llvmpipe_agreement test_llvmpipe_accum test_glsl_llvmpipe test_bsp test_blur_quality test_view \
                test_install test_demo test_hostile_shader test_hostile_scene test_mpi test_sequence
TEST_HDRS    := test/check.h test/testutil.h
TEST_BINS    := $(TEST_C:%=$(TEST_DIR)/%) $(TEST_DIR)/embed_example
# What each variant runs (run.sh looks for $(TEST_DIR)/NAME or test/NAME.sh).
TEST_SET_normal := $(TEST_C) embed_example $(TEST_SH)
# test_fuzz (the parsers' fuzz targets, test/fuzz/) runs here only: the replay
# of the committed crash inputs finds what it should under ASan+UBSan, and the
# libFuzzer runs (clang, build/fuzz) need not repeat in the other variants.
TEST_SET_asan   := $(TEST_C) embed_example test_cli test_hostile test_hostile_shader test_hostile_scene test_fuzz
TEST_SET_tsan   := test_watertight test_determinism test_stress test_blur test_misuse test_inspect test_tile_mask
TEST_VARIANT    := $(if $(SAN),$(SAN),normal)
TEST_JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# Parallel builds inside test-one unless the caller already runs a jobserver.
TEST_J          := $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(TEST_JOBS))

.PHONY: test-build check-includes check-sizes
# The include rules between stage folders, and the sizes of functions and
# files in src/ (both also tests of `make test`, in test_includes.sh).
check-includes:
	@sh test/check_includes.sh
check-sizes:
	@sh test/check_sizes.sh
test-deps: deps
	@$(MAKE) --no-print-directory install-pkgs PKGS="$(TEST_DEB_PKGS)"
# The viewer and the demo (test_view.sh, test_demo.sh) are tested in the
# normal variant only.
test-build: $(LIB_A) $(LIB_DIST_A) $(LIB_SO) $(TOOLS_A) $(CLI) $(TEST_BINS) $(if $(SAN),,$(VIEW) $(DEMO) $(MPI_BIN))

# The tests that load scenes, compile GLSL or read images link the tools library too.
TEST_WITH_TOOLS := test_determinism test_patterns test_shader test_shader_oom test_materials test_sandbox \
                   test_scene_time
$(TEST_WITH_TOOLS:%=$(TEST_DIR)/%): $(TEST_DIR)/%: test/%.c $(TEST_HDRS) $(LIB_A) $(TOOLS_A)
	@mkdir -p $(dir $@); rm -f $@
	$(CC) $(CFLAGS) $(TOOL_CFLAGS) $< -o $@ $(LDFLAGS) $(TOOLS_A) $(LIB_A) $(TOOL_LIBS) $(LDLIBS)
# The embedding example sees the installed header only and links the static
# library as installed (LIB_DIST_A: only the mos_ names global).
$(TEST_DIR)/embed_example: test/embed_example.c include/mosaic.h $(LIB_DIST_A)
	@mkdir -p $(dir $@); rm -f $@
	$(CC) $(filter-out -Isrc,$(CFLAGS)) $< -o $@ $(LDFLAGS) $(LIB_DIST_A) $(LDLIBS)
$(TEST_DIR)/%: test/%.c $(TEST_HDRS) $(LIB_A)
	@mkdir -p $(dir $@); rm -f $@
	$(CC) $(CFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A) $(LDLIBS)

# One variant: build what builds (-k), then run; a test that did not build
# is reported as FAIL by run.sh (old test binaries are removed first, so a
# broken build never runs stale tests).
test-one:
	@mkdir -p $(TEST_DIR); rm -f $(TEST_DIR)/results.txt $(TEST_BINS)
	@$(MAKE) --no-print-directory -k $(TEST_J) BUILD=$(BUILD) SAN=$(SAN) test-build \
	  || echo "test-one: some targets of $(BUILD) failed to build"
	@sh test/run.sh "$(BUILD)" "$(TEST_VARIANT)" "$(CLI)" $(TEST_SET_$(TEST_VARIANT))

# All variants; the last line is the summary over every test case.
test:
	-@$(MAKE) --no-print-directory BUILD=build SAN= test-one
	-@$(MAKE) --no-print-directory BUILD=build/asan SAN=asan test-one
	-@$(MAKE) --no-print-directory BUILD=build/tsan SAN=tsan test-one
	@sh test/run.sh --summary build/test/results.txt build/asan/test/results.txt \
	  build/tsan/test/results.txt

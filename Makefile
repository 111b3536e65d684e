# sectorccd — one build for the core, adapters, tests, demos and benchmarks.
#
#   make                 build/lib/libsectorccd.a and .so (+ adapter libraries)
#   make test            install missing packages, build and run every tests/test_*.c
#   make demo            run the demos (headless; pictures in build/demo/; --window: SDL2)
#   make bench           full benchmarks, CSV + plots, regenerate docs/RESULTS.md
#   make coverage        line coverage of core/src (gcov/lcov)
#   make fuzz            run each loader fuzzer briefly (clang libFuzzer)
#   make install PREFIX=/usr/local
#   make clean
# Switches: SANITIZE=1 (ASan + UBSan), DEBUG=1 (-O0 -g, failed checks abort).
# Sources are found by wildcard: a new file in core/src, adapters/*, tests/,
# bench/ or tools/ needs no edit here.

BUILD    ?= build
PREFIX   ?= /usr/local
CC       ?= cc
CXX      ?= c++

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L
OPT      := -O2 -g
ifeq ($(DEBUG),1)
OPT      := -O0 -g -DSCCD_DEBUG
endif
ifeq ($(SANITIZE),1)
OPT      += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDSAN    := -fsanitize=address,undefined
endif
ifeq ($(COVERAGE),1)
OPT      := -O0 -g --coverage
LDSAN    += --coverage
endif

PKGS_ENGINES := chipmunk ode
CFLAGS_ALL   := $(CSTD) $(WARN) $(OPT) -fPIC -Icore/include -Iadapters/chipmunk -Iadapters/ode -Itests/support \
                $(shell pkg-config --cflags ode cairo 2>/dev/null) -I/usr/include/chipmunk
LDLIBS_ENG   := -lchipmunk $(shell pkg-config --libs ode 2>/dev/null || echo -lode)
LDLIBS_CAIRO := $(shell pkg-config --libs cairo 2>/dev/null || echo -lcairo)

CORE_SRC := $(wildcard core/src/*.c)
CP_SRC   := $(wildcard adapters/chipmunk/*.c)
ODE_SRC  := $(wildcard adapters/ode/*.c)
SUP_SRC  := $(wildcard tests/support/*.c)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_CXX := $(wildcard tests/test_*.cpp)
BENCH_C  := $(wildcard bench/*.c)
BENCH_CXX:= $(wildcard bench/*.cpp)
TOOL_SRC := $(wildcard tools/*.c)
CPDEMO   := $(wildcard chipmunk_demo/*.c) $(wildcard demo_window/*.c)
ODEDEMO  := $(wildcard ode_demo/*.c) $(wildcard demo_window/*.c)
# The demos' optional live window: SDL2 when pkg-config finds it, for the
# demos only (core, adapters, tests and support never link it); 2.0.18 is
# the first with SDL_RenderGeometry.
HAVE_SDL2  := $(shell pkg-config --atleast-version=2.0.18 sdl2 2>/dev/null && echo 1)
SDL_CFLAGS := $(if $(HAVE_SDL2),-DSCCD_HAVE_SDL2 $(shell pkg-config --cflags sdl2))
SDL_LIBS   := $(if $(HAVE_SDL2),$(shell pkg-config --libs sdl2))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
CORE_OBJ := $(call obj,$(CORE_SRC))
CP_OBJ   := $(call obj,$(CP_SRC))
ODE_OBJ  := $(call obj,$(ODE_SRC))
SUP_OBJ  := $(call obj,$(SUP_SRC))

LIB_A    := $(BUILD)/lib/libsectorccd.a
LIB_SO   := $(BUILD)/lib/libsectorccd.so
CP_A     := $(BUILD)/lib/libsectorccd_chipmunk.a
ODE_A    := $(BUILD)/lib/libsectorccd_ode.a
SUP_A    := $(BUILD)/lib/libsccd_support.a
TESTS_CXX:= $(patsubst tests/%.cpp,$(BUILD)/bin/%,$(TEST_CXX))
TESTS    := $(patsubst tests/%.c,$(BUILD)/bin/%,$(TEST_SRC)) $(TESTS_CXX)
BENCHES  := $(patsubst bench/%.c,$(BUILD)/bin/%,$(BENCH_C)) $(patsubst bench/%.cpp,$(BUILD)/bin/%,$(BENCH_CXX))
TOOLS    := $(patsubst tools/%.c,$(BUILD)/bin/%,$(TOOL_SRC))
DEMOS    := $(if $(CPDEMO),$(BUILD)/bin/chipmunk_demo) $(if $(ODEDEMO),$(BUILD)/bin/ode_demo)

# Everything a program may link: test support (which may call the adapters),
# adapters, the core, engines.
LINK_ALL = $(if $(SUP_OBJ),$(SUP_A)) $(if $(CP_OBJ),$(CP_A)) $(if $(ODE_OBJ),$(ODE_A)) $(LIB_A) \
           $(LDLIBS_ENG) $(LDLIBS_CAIRO) -lm
LINK_DEPS = $(if $(CP_OBJ),$(CP_A)) $(if $(ODE_OBJ),$(ODE_A)) $(if $(SUP_OBJ),$(SUP_A)) $(LIB_A)

.PHONY: all lib test test-build demo bench compare coverage fuzz install clean deps
.DEFAULT_GOAL := all

all: lib $(if $(CP_OBJ),$(CP_A)) $(if $(ODE_OBJ),$(ODE_A)) $(TOOLS)
lib: $(LIB_A) $(LIB_SO)

# Objects rebuild when the flags change (SANITIZE=1 after a plain build).
FLAGS_STAMP := $(BUILD)/.flags
$(shell mkdir -p $(BUILD); echo '$(CC) $(CFLAGS_ALL) $(LDSAN) $(SDL_CFLAGS)' | cmp -s - $(FLAGS_STAMP) || echo '$(CC) $(CFLAGS_ALL) $(LDSAN) $(SDL_CFLAGS)' > $(FLAGS_STAMP))
$(call obj,$(CPDEMO) $(ODEDEMO)): CFLAGS_ALL += $(SDL_CFLAGS) -Idemo_window
# tests/test_demo_window runs the demo programs: it knows whether they have SDL2.
$(BUILD)/obj/tests/test_demo_window.o: CFLAGS_ALL += $(if $(HAVE_SDL2),-DSCCD_HAVE_SDL2)
$(BUILD)/bin/test_demo_window: $(DEMOS)

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@
# C++ tests (tests/test_*.cpp) prove the public headers are C++: the oldest
# standard they promise (C++11) and -pedantic-errors, which rejects what g++
# would otherwise accept as extensions (compound literals, designators).
CXXFLAGS_TEST := -std=c++11 -pedantic-errors $(filter-out $(CSTD) -Wstrict-prototypes,$(CFLAGS_ALL))
$(BUILD)/obj/tests/%.o: tests/%.cpp $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CXX     $<"
	@$(CXX) $(CXXFLAGS_TEST) -MMD -MP -c $< -o $@

$(LIB_A): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(LIB_SO): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDSAN) -o $@ $^ -lm
$(CP_A): $(CP_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(ODE_A): $(ODE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(SUP_A): $(SUP_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/test_%: $(BUILD)/obj/tests/test_%.o $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $< $(LINK_ALL) -lcmocka
$(TESTS_CXX): $(BUILD)/bin/%: $(BUILD)/obj/tests/%.o $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDSAN) -o $@ $< $(LINK_ALL) -lcmocka
# C++ benchmarks (engine comparisons): bench/NAME.cpp -> NAME, with that
# engine's flags and libraries from CXXFLAGS_NAME and LIBS_NAME.
CXXFLAGS_ALL := -std=c++17 $(filter-out $(CSTD) -Wstrict-prototypes,$(CFLAGS_ALL)) -D_POSIX_C_SOURCE=200809L
LIBS_compare_box2d       := -lbox2d
LIBS_fidelity            := -lbox2d
CXXFLAGS_compare_bullet  := $(shell pkg-config --cflags bullet 2>/dev/null || echo -I/usr/include/bullet)
LIBS_compare_bullet      := $(shell pkg-config --libs bullet 2>/dev/null || echo -lBulletDynamics -lBulletCollision -lLinearMath)
$(BUILD)/bin/%: bench/%.cpp $(LINK_DEPS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(CXXFLAGS_$*) $(LDSAN) -o $@ $< $(LINK_ALL) $(LIBS_$*)
$(BUILD)/bin/%: $(BUILD)/obj/bench/%.o $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $< $(LINK_ALL)
$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $< $(LINK_ALL)
$(BUILD)/bin/chipmunk_demo: $(call obj,$(CPDEMO)) $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $(call obj,$(CPDEMO)) $(LINK_ALL) $(SDL_LIBS)
$(BUILD)/bin/ode_demo: $(call obj,$(ODEDEMO)) $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $(call obj,$(ODEDEMO)) $(LINK_ALL) $(SDL_LIBS)

deps:
	@scripts/deps.sh

test-build: all $(TESTS)

# Runs every test program even when one fails; the summary lists failures.
test: deps
	@$(MAKE) --no-print-directory test-build
	@scripts/run_tests.sh $(TESTS)

demo: deps
	@$(MAKE) --no-print-directory all $(DEMOS)
	@BUILD=$(BUILD) scripts/demo.sh

bench: deps
	@scripts/deps.sh --bench
	@$(MAKE) --no-print-directory all $(BENCHES)
	@BUILD=$(BUILD) scripts/fetch_meshes.sh
	@BUILD=$(BUILD) scripts/bench.sh

coverage: deps
	@$(MAKE) --no-print-directory BUILD=build/cov COVERAGE=1 test-build
	@BUILD=build/cov scripts/coverage.sh

install: lib
	install -d $(DESTDIR)$(PREFIX)/include/sectorccd $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 core/include/sectorccd/*.h $(DESTDIR)$(PREFIX)/include/sectorccd/
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|' scripts/sectorccd.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/sectorccd.pc

clean:
	rm -rf build

# Keep intermediate objects (pattern rules would otherwise delete them).
.SECONDARY:

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

.PHONY: bench-quick
bench-quick: deps
	@scripts/deps.sh --bench
	@$(MAKE) --no-print-directory all $(BENCHES)
	@BUILD=$(BUILD) scripts/bench.sh --quick

# Loader fuzzers (tests/fuzz/fuzz_*.c, clang libFuzzer + ASan/UBSan): each runs
# FUZZ_SECONDS (default 20) from the seeds in tests/fuzz/corpus; new inputs go
# to $(BUILD)/fuzz/corpus_NAME.
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
fuzz:
	@mkdir -p $(BUILD)/fuzz
	@for f in $(FUZZ_SRC); do n=$$(basename $$f .c); mkdir -p $(BUILD)/fuzz/corpus_$$n; \
	  clang $(CSTD) -g -O1 -fsanitize=fuzzer,address,undefined -Icore/include $$f $(CORE_SRC) -lm \
	    -o $(BUILD)/fuzz/$$n || exit 1; \
	  $(BUILD)/fuzz/$$n -max_total_time=$${FUZZ_SECONDS:-20} -max_len=8192 \
	    $(BUILD)/fuzz/corpus_$$n tests/fuzz/corpus || exit 1; done

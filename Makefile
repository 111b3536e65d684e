# sectorccd — one build for the core, adapters, tests, demos and benchmarks.
#
#   make                 build/lib/libsectorccd.a and .so (+ adapter libraries)
#   make test            install missing packages, check references (scripts/check_refs.sh),
#                        build and run every tests/test_*.c
#   make demo            run the demos (headless; pictures in build/demo/; --window: SDL2)
#   make bench           full benchmarks, CSV + plots, regenerate docs/RESULTS.md
#   make coverage        line coverage of core/src (gcov/lcov)
#   make fuzz            run each loader fuzzer briefly (clang libFuzzer)
#   make install PREFIX=/usr/local [DESTDIR=...]   (make uninstall: the same variables)
#   make check-install   install into $(BUILD)/check-install, build and run examples/ against it
#   make clean
#   make test-tsan       tests/test_threads (worlds stepped in parallel threads) under ThreadSanitizer
# Switches: SANITIZE=1 (ASan + UBSan), TSAN=1 (ThreadSanitizer; build/tsan unless
# BUILD is given), DEBUG=1 (-O0 -g, failed checks abort).
# Sources are found by wildcard: a new file in core/src, adapters/*, tests/,
# tests/oracles, common/*, bench/, tools/ or a demo directory needs no edit here.

# ThreadSanitizer builds (TSAN=1, make test-tsan) get a build directory of
# their own unless BUILD is given.
ifeq ($(TSAN),1)
BUILD    ?= build/tsan
endif
BUILD    ?= build
PREFIX   ?= /usr/local
LIBDIR   ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include

# The package version, set here only: the shared libraries' file names and
# sonames, the pkg-config files and the CMake package all take it from here.
# The soname carries the major version (libsectorccd.so.0).
VERSION   := 0.1.0
SOVERSION := $(firstword $(subst ., ,$(VERSION)))
CC       ?= cc
CXX      ?= c++

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L
# -fno-math-errno: no code here reads errno after a math function, and
# without it every sqrt is a branch to the library's for a negative
# argument (a sqrt is most of a distance, and distances are most of the CCD).
# -O3, not -O2: the same results bit for bit (no fast-math, and ISO C keeps
# floating-point contraction off; ccd_scale's rains end in the same poses,
# after the same TOIs), and 5-7 % fewer CCD instructions
# (callgrind, rain 0: ccd_scale's 1,000 + 100 in Chipmunk -6.7 % and ODE
# -6.7 %, cp_overhead's buried swords -6.4 %, ode_overhead's pile -5.3 %),
# spread over the solver (ODE's TOIs -12 %, its searches -9 %); building the
# tests takes half again as long (16 s -> 24 s with 2 jobs).
OPT      := -O3 -g -fno-math-errno
ifeq ($(DEBUG),1)
OPT      := -O0 -g -DSCCD_DEBUG
endif
ifeq ($(SANITIZE),1)
OPT      += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDSAN    := -fsanitize=address,undefined
endif
ifeq ($(TSAN),1)
OPT      += -fsanitize=thread -fno-omit-frame-pointer
LDSAN    += -fsanitize=thread
endif
ifeq ($(COVERAGE),1)
OPT      := -O0 -g --coverage
LDSAN    += --coverage
endif

PKGS_ENGINES := chipmunk ode
# The installed libraries (core/src, adapters/*) compile with CFLAGS_LIB: the
# directories of the code the tree's programs share are not on their include
# path, so no test, scene or utility header can reach them. Everything else
# (tests, benchmarks, demos, tools, the shared code itself) gets CFLAGS_ALL.
# -fno-semantic-interposition: the library's calls to its own exported
# functions may be inlined (position-independent code otherwise assumes a
# preloaded library could replace them, and copies their arguments through
# each call); nothing of the library is meant to be interposed. The same
# results bit for bit; the buried swords' CCD -1.0 % (callgrind, rain 0).
CFLAGS_LIB   := $(CSTD) $(WARN) $(OPT) -fPIC -fno-semantic-interposition -Icore/include -Iadapters/chipmunk -Iadapters/ode \
                $(shell pkg-config --cflags ode cairo 2>/dev/null) -I/usr/include/chipmunk
CFLAGS_ALL   := $(CFLAGS_LIB) -Itests/oracles -Icommon/scenes -Icommon/util
LDLIBS_ENG   := -lchipmunk $(shell pkg-config --libs ode 2>/dev/null || echo -lode)
LDLIBS_CAIRO := $(shell pkg-config --libs cairo 2>/dev/null || echo -lcairo)

CORE_SRC := $(wildcard core/src/*.c)
CP_SRC   := $(wildcard adapters/chipmunk/*.c)
ODE_SRC  := $(wildcard adapters/ode/*.c)
# The code the tree's programs share, one static archive per directory:
# oracles (tests and benchmarks), scenes (also the demos), utilities (also
# the demos and tools). Never part of the installed libraries.
ORC_SRC  := $(wildcard tests/oracles/*.c)
SCN_SRC  := $(wildcard common/scenes/*.c)
UTL_SRC  := $(wildcard common/util/*.c)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_CXX := $(wildcard tests/test_*.cpp)
BENCH_C  := $(wildcard bench/*.c)
BENCH_CXX:= $(wildcard bench/*.cpp)
TOOL_SRC := $(wildcard tools/*.c)
# Each demo is its own directory plus demo_common/ (their command line and
# live window), compiled into the demo, not archived.
CPDEMO   := $(wildcard chipmunk_demo/*.c) $(wildcard demo_common/*.c)
ODEDEMO  := $(wildcard ode_demo/*.c) $(wildcard demo_common/*.c)
# The demos' optional live window: SDL2 when pkg-config finds it, for the
# demos only (core, adapters, tests and the shared code never link it);
# 2.0.18 is the first with SDL_RenderGeometry.
HAVE_SDL2  := $(shell pkg-config --atleast-version=2.0.18 sdl2 2>/dev/null && echo 1)
SDL_CFLAGS := $(if $(HAVE_SDL2),-DSCCD_HAVE_SDL2 $(shell pkg-config --cflags sdl2))
SDL_LIBS   := $(if $(HAVE_SDL2),$(shell pkg-config --libs sdl2))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
CORE_OBJ := $(call obj,$(CORE_SRC))
CP_OBJ   := $(call obj,$(CP_SRC))
ODE_OBJ  := $(call obj,$(ODE_SRC))
ORC_OBJ  := $(call obj,$(ORC_SRC))
SCN_OBJ  := $(call obj,$(SCN_SRC))
UTL_OBJ  := $(call obj,$(UTL_SRC))

LIB_A    := $(BUILD)/lib/libsectorccd.a
CP_A     := $(BUILD)/lib/libsectorccd_chipmunk.a
ODE_A    := $(BUILD)/lib/libsectorccd_ode.a
# Shared libraries: the real file libNAME.so.$(VERSION), with the soname link
# libNAME.so.$(SOVERSION) and the link-time libNAME.so made beside it.
so = $(BUILD)/lib/$(1).so.$(VERSION)
LIB_SO   := $(call so,libsectorccd)
CP_SO    := $(call so,libsectorccd_chipmunk)
ODE_SO   := $(call so,libsectorccd_ode)
ORC_A    := $(BUILD)/lib/libsccd_oracles.a
SCN_A    := $(BUILD)/lib/libsccd_scenes.a
UTL_A    := $(BUILD)/lib/libsccd_util.a
TESTS_CXX:= $(patsubst tests/%.cpp,$(BUILD)/bin/%,$(TEST_CXX))
TESTS    := $(patsubst tests/%.c,$(BUILD)/bin/%,$(TEST_SRC)) $(TESTS_CXX)
BENCHES  := $(patsubst bench/%.c,$(BUILD)/bin/%,$(BENCH_C)) $(patsubst bench/%.cpp,$(BUILD)/bin/%,$(BENCH_CXX))
TOOLS    := $(patsubst tools/%.c,$(BUILD)/bin/%,$(TOOL_SRC))
DEMOS    := $(if $(CPDEMO),$(BUILD)/bin/chipmunk_demo) $(if $(ODEDEMO),$(BUILD)/bin/ode_demo)

# What a program links, users before what they use: the shared archives it
# may use (tests and benchmarks: all three; demos: scenes and utilities;
# tools: utilities), then the adapters, the core and the engines. A demo or a
# tool that called an oracle would not link. *_DEPS: the archives to build.
ORC_L    := $(if $(ORC_OBJ),$(ORC_A))
SCN_L    := $(if $(SCN_OBJ),$(SCN_A))
UTL_L    := $(if $(UTL_OBJ),$(UTL_A))
LIBS_DEPS = $(if $(CP_OBJ),$(CP_A)) $(if $(ODE_OBJ),$(ODE_A)) $(LIB_A)
LINK_LIBS = $(LIBS_DEPS) $(LDLIBS_ENG) $(LDLIBS_CAIRO) -lm
LINK_ALL  = $(ORC_L) $(SCN_L) $(UTL_L) $(LINK_LIBS)
LINK_DEPS = $(ORC_L) $(SCN_L) $(UTL_L) $(LIBS_DEPS)
LINK_DEMO = $(SCN_L) $(UTL_L) $(LINK_LIBS)
DEMO_DEPS = $(SCN_L) $(UTL_L) $(LIBS_DEPS)
LINK_TOOL = $(UTL_L) $(LINK_LIBS)
TOOL_DEPS = $(UTL_L) $(LIBS_DEPS)

.PHONY: all lib libs test test-build test-tsan tsan-run demo bench compare coverage fuzz install uninstall check-install clean deps
.DEFAULT_GOAL := all

all: libs $(TOOLS)
lib: $(LIB_A) $(LIB_SO)
# Everything make install puts in LIBDIR.
libs: lib $(if $(CP_OBJ),$(CP_A) $(CP_SO)) $(if $(ODE_OBJ),$(ODE_A) $(ODE_SO))

# Objects rebuild when the flags change (SANITIZE=1 after a plain build).
FLAGS_STAMP := $(BUILD)/.flags
$(shell mkdir -p $(BUILD); echo '$(CC) $(CFLAGS_ALL) $(LDSAN) $(SDL_CFLAGS)' | cmp -s - $(FLAGS_STAMP) || echo '$(CC) $(CFLAGS_ALL) $(LDSAN) $(SDL_CFLAGS)' > $(FLAGS_STAMP))
$(CORE_OBJ) $(CP_OBJ) $(ODE_OBJ): CFLAGS_ALL := $(CFLAGS_LIB)
$(call obj,$(CPDEMO) $(ODEDEMO)): CFLAGS_ALL += $(SDL_CFLAGS) -Idemo_common
# tests/test_demo_window runs the demo programs: it knows whether they have SDL2.
# It also checks their command line, so it links demo_common/demo_args.o.
$(BUILD)/obj/tests/test_demo_window.o: CFLAGS_ALL += $(if $(HAVE_SDL2),-DSCCD_HAVE_SDL2)
$(BUILD)/bin/test_demo_window: $(DEMOS) $(call obj,demo_common/demo_args.c)

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
# Shared libraries record what they need (-Wl,--no-undefined checks it; not
# under the sanitizers, whose runtime the executable brings). The adapters
# link the core's shared library and their engine, and look for the core
# beside themselves ($ORIGIN): a program's own run path does not reach the
# libraries its libraries need, so an install outside the loader's paths
# would otherwise need LD_LIBRARY_PATH.
SO_CHECK := $(if $(LDSAN),,-Wl,--no-undefined)
SO_ORIGIN := -Wl,-rpath,'$$ORIGIN'
SOLIBS_libsectorccd          := -lm
SOLIBS_libsectorccd_chipmunk := -L$(BUILD)/lib -lsectorccd -lchipmunk -lm $(SO_ORIGIN)
SOLIBS_libsectorccd_ode      := -L$(BUILD)/lib -lsectorccd $(shell pkg-config --libs ode 2>/dev/null || echo -lode) -lm $(SO_ORIGIN)
$(LIB_SO): $(CORE_OBJ)
$(CP_SO): $(CP_OBJ) $(LIB_SO)
$(ODE_SO): $(ODE_OBJ) $(LIB_SO)
$(BUILD)/lib/%.so.$(VERSION):
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDSAN) $(SO_CHECK) -Wl,-soname,$*.so.$(SOVERSION) -o $@ $(filter %.o,$^) $(SOLIBS_$*)
	ln -sf $*.so.$(VERSION) $(BUILD)/lib/$*.so.$(SOVERSION)
	ln -sf $*.so.$(SOVERSION) $(BUILD)/lib/$*.so
$(CP_A): $(CP_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(ODE_A): $(ODE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
$(ORC_A): $(ORC_OBJ)
$(SCN_A): $(SCN_OBJ)
$(UTL_A): $(UTL_OBJ)
$(ORC_A) $(SCN_A) $(UTL_A):
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The last stops of the impact solver's event loop (impact_events.c), which
# no scene of the solver's tests reaches: test_impact2 and test_impact3 built again
# with the loop's guard at two events a step and only their tests that
# judge passes and energy (the others unused), in test_impact2_last and
# test_impact3_last; their moved lists, with room for one entry a body,
# are made anew (relist_moved, which no scene reaches either) again and
# again. The guarded object comes first, so the archive's impact_events.o
# is not taken.
LAST_TESTS := $(BUILD)/bin/test_impact2_last $(BUILD)/bin/test_impact3_last
TESTS    += $(LAST_TESTS)
$(BUILD)/obj/last/%.o: tests/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (last stops)"
	@$(CC) $(CFLAGS_ALL) -DSCCD_TEST_LAST_STOPS -Wno-unused-function -MMD -MP -c $< -o $@
$(BUILD)/obj/last/impact_events.o: core/src/impact_events.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $< (guard at two events)"
	@$(CC) $(CFLAGS_LIB) '-DSCCD_EVENTS_GUARD(bodies,impacts)=2' '-DSCCD_MOVED_ROOM(n)=(n)' -MMD -MP -c $< -o $@
$(LAST_TESTS): $(BUILD)/bin/%_last: $(BUILD)/obj/last/%.o $(BUILD)/obj/last/impact_events.o $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $(filter %.o,$^) $(LINK_ALL) -lcmocka

$(BUILD)/bin/test_threads: LDSAN += -pthread
$(BUILD)/bin/test_%: $(BUILD)/obj/tests/test_%.o $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $(filter %.o,$^) $(LINK_ALL) -lcmocka
$(TESTS_CXX): $(BUILD)/bin/%: $(BUILD)/obj/tests/%.o $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDSAN) -o $@ $< $(LINK_ALL) -lcmocka
# C++ benchmarks (engine comparisons): bench/NAME.cpp -> NAME, with that
# engine's flags and libraries from CXXFLAGS_NAME and LIBS_NAME.
CXXFLAGS_ALL := -std=c++17 $(filter-out $(CSTD) -Wstrict-prototypes,$(CFLAGS_ALL)) -D_POSIX_C_SOURCE=200809L
LIBS_compare_box2d       := -lbox2d
LIBS_fidelity            := -lbox2d
LIBS_toi_box2d           := -lbox2d
CXXFLAGS_compare_bullet  := $(shell pkg-config --cflags bullet 2>/dev/null || echo -I/usr/include/bullet)
LIBS_compare_bullet      := $(shell pkg-config --libs bullet 2>/dev/null || echo -lBulletDynamics -lBulletCollision -lLinearMath)
$(BUILD)/bin/%: bench/%.cpp $(LINK_DEPS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_ALL) $(CXXFLAGS_$*) $(LDSAN) -o $@ $< $(LINK_ALL) $(LIBS_$*)
$(BUILD)/bin/%: $(BUILD)/obj/bench/%.o $(LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $< $(LINK_ALL)
$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $(TOOL_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $< $(LINK_TOOL)
$(BUILD)/bin/chipmunk_demo: $(call obj,$(CPDEMO)) $(DEMO_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $(call obj,$(CPDEMO)) $(LINK_DEMO) $(SDL_LIBS)
$(BUILD)/bin/ode_demo: $(call obj,$(ODEDEMO)) $(DEMO_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDSAN) -o $@ $(call obj,$(ODEDEMO)) $(LINK_DEMO) $(SDL_LIBS)

deps:
	@scripts/deps.sh

test-build: all $(TESTS)

# Runs every test program even when one fails; the summary lists failures.
# First (about a second): no file points outside the repository or cites a
# source document docs/REFERENCES.md does not define (scripts/check_refs.sh).
test: deps
	@scripts/check_refs.sh
	@$(MAKE) --no-print-directory test-build
	@scripts/run_tests.sh $(TESTS)

# ThreadSanitizer: test_threads steps Chipmunk spaces and ODE worlds with
# CCD in parallel threads; any report fails it (halt_on_error). The engines
# are Debian's uninstrumented builds: TSan sees our code and the allocator,
# not accesses inside Chipmunk or ODE (test_threads checks their results,
# and says how it keeps ODE's invisible atomics from looking like races).
test-tsan: deps
	@$(MAKE) --no-print-directory TSAN=1 tsan-run
tsan-run: $(BUILD)/bin/test_threads
	@echo "== test_threads (ThreadSanitizer)"
	@TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 $$TSAN_OPTIONS" $(BUILD)/bin/test_threads

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

# ---- install, uninstall ----
# What a program needs: the core's headers in INCLUDEDIR/sectorccd/, each
# adapter's one header in INCLUDEDIR (included as <sectorccd_chipmunk.h>, as
# in this tree), static and shared libraries, pkg-config files and a CMake
# package (scripts/*.in, filled in here). One list serves install and
# uninstall, so uninstall removes exactly what install put there.
PUB_H      := $(wildcard core/include/sectorccd/*.h)
ADAPTER_H  := adapters/chipmunk/sectorccd_chipmunk.h adapters/ode/sectorccd_ode.h
LIB_NAMES  := libsectorccd libsectorccd_chipmunk libsectorccd_ode
PC_NAMES   := sectorccd sectorccd-chipmunk sectorccd-ode
CMAKE_DIR  := $(LIBDIR)/cmake/sectorccd
CMAKE_FILES:= sectorccdConfig.cmake sectorccdConfigVersion.cmake
INSTALLED  := $(addprefix $(INCLUDEDIR)/sectorccd/,$(notdir $(PUB_H))) \
              $(addprefix $(INCLUDEDIR)/,$(notdir $(ADAPTER_H))) \
              $(foreach n,$(LIB_NAMES),$(addprefix $(LIBDIR)/$(n),.a .so .so.$(SOVERSION) .so.$(VERSION))) \
              $(foreach n,$(PC_NAMES),$(LIBDIR)/pkgconfig/$(n).pc) \
              $(addprefix $(CMAKE_DIR)/,$(CMAKE_FILES))
# The CMake package finds the prefix from its own place (relocatable: a
# DESTDIR image moved elsewhere still works), so it holds paths relative to
# its directory.
REL_PREFIX := $(shell realpath -m --relative-to=$(CMAKE_DIR) $(PREFIX))
SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
            -e 's|@VERSION@|$(VERSION)|g' -e 's|@SOVERSION@|$(SOVERSION)|g' -e 's|@REL_PREFIX@|$(REL_PREFIX)|g' \
            -e 's|@REL_LIBDIR@|$(shell realpath -m --relative-to=$(PREFIX) $(LIBDIR))|g' \
            -e 's|@REL_INCLUDEDIR@|$(shell realpath -m --relative-to=$(PREFIX) $(INCLUDEDIR))|g'
D := $(DESTDIR)

install: libs
	install -d $(D)$(INCLUDEDIR)/sectorccd $(D)$(LIBDIR)/pkgconfig $(D)$(CMAKE_DIR)
	install -m 644 $(PUB_H) $(D)$(INCLUDEDIR)/sectorccd/
	install -m 644 $(ADAPTER_H) $(D)$(INCLUDEDIR)/
	for n in $(LIB_NAMES); do \
	  install -m 644 $(BUILD)/lib/$$n.a $(D)$(LIBDIR)/ && \
	  install -m 755 $(BUILD)/lib/$$n.so.$(VERSION) $(D)$(LIBDIR)/ && \
	  ln -sf $$n.so.$(VERSION) $(D)$(LIBDIR)/$$n.so.$(SOVERSION) && \
	  ln -sf $$n.so.$(SOVERSION) $(D)$(LIBDIR)/$$n.so || exit 1; done
	for n in $(PC_NAMES); do $(SUBST) scripts/$$n.pc.in > $(D)$(LIBDIR)/pkgconfig/$$n.pc || exit 1; done
	for f in $(CMAKE_FILES); do $(SUBST) scripts/$$f.in > $(D)$(CMAKE_DIR)/$$f || exit 1; done

# Removes the files install lists, then our own two directories when empty
# (include/sectorccd, lib/cmake/sectorccd); shared directories stay.
uninstall:
	rm -f $(addprefix $(D),$(INSTALLED))
	for d in $(D)$(INCLUDEDIR)/sectorccd $(D)$(CMAKE_DIR); do [ ! -d $$d ] || rmdir $$d 2>/dev/null || true; done

# Installs into a scratch prefix and builds examples/ against it, out of
# tree, with pkg-config and with CMake, as C and as C++, and runs them
# (scripts/check_install.sh).
check-install: deps
	@$(MAKE) --no-print-directory libs
	@BUILD=$(BUILD) MAKE=$(MAKE) scripts/check_install.sh

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

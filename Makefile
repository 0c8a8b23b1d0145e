# SPDX-License-Identifier: MIT
# Convenience wrapper around CMake. `make demo` runs the main job, `make test`
# builds and runs every test in four phases: plain (gcc, every test), no
# compression (gcc, FXT_WITH_COMPRESSION=OFF: the unit tests and the CLI areas
# that touch compression, whose cases skip or check the refusal), TSan
# (clang, no compression: the `threads` tests) and ASan+UBSan (clang, the
# suite minus `slow`). Together they are the build matrix: gcc and clang, with
# and without zlib/libzstd, all under -Werror.
# On a fresh Debian machine scripts/setup-and-demo and scripts/setup-and-test
# install the packages first (scripts/deps.sh), then run `make demo` / `make test`.
# The configure summary (cmake/summary.cmake) goes to stderr: visible here.
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CC      ?= cc
SANCC   ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo gcc)
SANCXX  ?= $(shell command -v clang++ >/dev/null 2>&1 && echo clang++ || echo g++)
# The sanitizer phases link with lld, else gold, when installed: a sanitizer runtime is linked
# into every test program, and lld links the ASan build at half the CPU of the default ld.bfd.
# The plain phase keeps the default linker (what users get).
SANLD   ?= $(if $(shell command -v ld.lld 2>/dev/null),lld,$(if $(shell command -v ld.gold 2>/dev/null),gold))
san_ld   = $(if $(SANLD),$(foreach k,EXE SHARED MODULE,-DCMAKE_$(k)_LINKER_FLAGS=-fuse-ld=$(SANLD)))
# Ninja when installed, for a build dir made fresh (an existing one keeps its generator):
# about 15 % less CPU than Make's recursion on the same build.
gen      = $(if $(wildcard $(1)/CMakeCache.txt),,$(if $(shell command -v ninja 2>/dev/null),-G Ninja))
CTEST   := ctest --output-on-failure -j $(JOBS)

.PHONY: all build demo test test-plain test-nocomp test-asan test-tsan bench install clean

all: build

# CI (a fresh clone nobody debugs in: CI=true, .ci/run) builds the plain phase without debug
# info (gcc's code is the same with or without -g, at some 15 % less compile CPU), and its unit
# test programs at -O1 (a third less compile time; the library, fxt, record_prog, the examples
# and benches they run or build stay -O2).
ci_flags = $(if $(filter true,$(CI)),-DCMAKE_C_FLAGS_RELWITHDEBINFO='-O2 -DNDEBUG' -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -DNDEBUG' -DFXT_TEST_COMPILE_OPTIONS=-O1)

build:
	cmake $(call gen,build) -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo $(ci_flags) >/dev/null
	env -u MAKELEVEL cmake --build build -j $(JOBS)

demo: build
	@bash scripts/demo.sh

test-plain: build
	cd build && $(CTEST)

# -Og: the gcc cell without compression, with gcc's flow warnings (-Werror) still on, at a
# fraction of the plain phase's -O2 compile (no -g either: its failures are read, not debugged).
# It builds only what its tests run: the library, fxt and the unit tests below, which is all
# the code compression changes (tools/cli/cli_io.c, src/sqlite/sq_build.c); every other
# target compiles the same source with gcc in the plain phase.
NOCOMP_UNITS := hostile cli_io cli_options cli_parallel sched
empty :=
space := $(empty) $(empty)
test-nocomp:
	CC=$(CC) cmake $(call gen,build-nocomp) -S . -B build-nocomp -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG='-Og' -DCMAKE_CXX_FLAGS_DEBUG='-Og' -DFXT_WITH_COMPRESSION=OFF -DFXT_BUILD_BENCH=OFF -DFXT_BUILD_EXAMPLES=OFF >/dev/null
	env -u MAKELEVEL cmake --build build-nocomp -j $(JOBS) --target fxt_cli fxt_xthread_trace $(addprefix unit.,$(NOCOMP_UNITS))
	cd build-nocomp && $(CTEST) -LE slow -R '^(unit[.]($(subst $(space),|,$(NOCOMP_UNITS)))/|cli[.]archive|cli[.]cut)' -E 'cli[.]cut[.]jobs'

test-tsan:
	CC=$(SANCC) CXX=$(SANCXX) cmake $(call gen,build-tsan) -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DFXT_SANITIZE=thread -DFXT_WITH_COMPRESSION=OFF -DFXT_BUILD_BENCH=OFF -DFXT_BUILD_EXAMPLES=OFF $(san_ld) >/dev/null
	env -u MAKELEVEL cmake --build build-tsan -j $(JOBS)
	cd build-tsan && TSAN_OPTIONS=halt_on_error=1 $(CTEST) -L threads

test-asan:
	CC=$(SANCC) CXX=$(SANCXX) cmake $(call gen,build-asan) -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFXT_SANITIZE=address,undefined -DFXT_BUILD_BENCH=OFF -DFXT_BUILD_EXAMPLES=OFF $(san_ld) >/dev/null
	env -u MAKELEVEL cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 $(CTEST) -LE slow

# Every phase, even after a failure; the sanitizer run goes last so CTest's
# summary of the full suite ends the output (scripts/test.sh).
test:
	@MAKE="$(MAKE)" bash scripts/test.sh

bench: build
	@bash scripts/bench.sh

install: build
	cmake --install build $(if $(PREFIX),--prefix $(PREFIX),)

clean:
	rm -rf build build-nocomp build-asan build-tsan

# Convenience wrapper around CMake. `make demo` runs the main job, `make test`
# builds and runs every test (plain build with gcc, then ASan+UBSan with clang,
# then the threaded tests under TSan).
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CC      ?= cc
SANCC   ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo gcc)
SANCXX  ?= $(shell command -v clang++ >/dev/null 2>&1 && echo clang++ || echo g++)
CTEST   := ctest --output-on-failure -j $(JOBS)

.PHONY: all build demo test test-plain test-asan test-tsan bench install clean

all: build

build:
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build build -j $(JOBS)

demo: build
	@bash scripts/demo.sh

test-plain: build
	cd build && $(CTEST)

test-tsan:
	CC=$(SANCC) CXX=$(SANCXX) cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DFXT_SANITIZE=thread -DFXT_BUILD_BENCH=OFF >/dev/null
	cmake --build build-tsan -j $(JOBS)
	cd build-tsan && TSAN_OPTIONS=halt_on_error=1 $(CTEST) -L threads

test-asan:
	CC=$(SANCC) CXX=$(SANCXX) cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFXT_SANITIZE=address,undefined -DFXT_BUILD_BENCH=OFF >/dev/null
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 $(CTEST)

# The sanitizer run goes last so CTest's summary of the full suite ends the output.
test: test-plain test-tsan test-asan

bench: build
	@bash scripts/bench.sh

install: build
	cmake --install build $(if $(PREFIX),--prefix $(PREFIX),)

clean:
	rm -rf build build-asan build-tsan

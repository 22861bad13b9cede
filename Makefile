# Thin wrapper over CMake.  `make demo` runs the CLI on the bundled sample;
# `make check` builds everything and runs the test suite through ctest.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build demo check sanitize install clean

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	bash tools/demo.sh $(BUILD)

check: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# ASan + UBSan build of the whole suite (CI's second stage).  protect_shadow_gap=0
# lets the CUDA runtime map its memory under ASan.
sanitize:
	ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) check BUILD=build-asan CMAKE_FLAGS="-DLW_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) build-asan

# Thin wrapper over CMake.  `make demo` builds the CLI alone (no tests, no
# papers' GPU schemes) in its own build directory and runs it on the bundled
# sample; `make check` builds everything and runs the test suite through
# ctest, then lists the skipped tests with their reasons.
BUILD ?= build
DEMO_BUILD ?= build-demo
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
DEMO_FLAGS = -DLW_BUILD_TESTS=OFF -DLW_CUDA_SCHEMES=OFF

.PHONY: all configure build demo check sanitize install clean

all: build

# Configure $(1) with flags $(2) when it has no cache yet or was configured
# with other flags (a fresh cache then, so that a flag left out is really gone).
define configure
	@mkdir -p $(1)
	@if [ ! -f $(1)/CMakeCache.txt ] || [ "$$(cat $(1)/.lw-cmake-flags 2>/dev/null)" != "$(strip $(2))" ]; then \
	    rm -f $(1)/CMakeCache.txt; \
	    echo "cmake -S . -B $(1) -DCMAKE_BUILD_TYPE=Release $(strip $(2))"; \
	    cmake -S . -B $(1) -DCMAKE_BUILD_TYPE=Release $(2) && printf '%s' "$(strip $(2))" > $(1)/.lw-cmake-flags; \
	fi
endef

configure:
	$(call configure,$(BUILD),$(CMAKE_FLAGS))

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo:
	$(call configure,$(DEMO_BUILD),$(DEMO_FLAGS) $(CMAKE_FLAGS))
	cmake --build $(DEMO_BUILD) -j $(JOBS) --target liftwave
	bash tools/demo.sh $(DEMO_BUILD)

check: build
	@cd $(BUILD) && { ctest --output-on-failure -j $(JOBS); echo $$? > .lw-ctest-rc; } | tee .lw-ctest-out; \
	    sh $(CURDIR)/tests/skip_report.sh .lw-ctest-out .; exit $$(cat .lw-ctest-rc)

# ASan + UBSan build of the whole suite (CI's second stage).  protect_shadow_gap=0
# lets the CUDA runtime map its memory under ASan.  SANITIZE_FLAGS adds CMake flags
# (CI passes -DLW_WITH_CUDA=OFF where no GPU could run the CUDA build).
SANITIZE_FLAGS ?=
sanitize:
	ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(MAKE) check BUILD=build-asan CMAKE_FLAGS="-DLW_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug $(SANITIZE_FLAGS)"

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(DEMO_BUILD) build-asan

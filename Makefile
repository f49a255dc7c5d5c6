# Thin wrapper over CMake + CTest. `make play` and `make check` install what is
# missing on a fresh Debian machine (apt-get, as root), then build.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
PREFIX     ?= /usr/local

.PHONY: all deps configure build check check-fast check-asan play bench clean format install

all: build

deps:
	@./scripts/install-deps

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Every test: the optimised build (all labels), then ASan+UBSan (fast label).
# Configured again with DM_TESTS=ON: a build folder made by `make` before the test
# packages were installed has no tests, and must not be trusted as it is.
check: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DDM_TESTS=ON $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	$(MAKE) check-asan

check-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DDM_SANITIZE=ON -DDM_TESTS=ON $(CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) -L fast

# Only the damier binary (not the tests): half the build time before the first move.
play: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS) --target damier
	./$(BUILD)/damier play $(ARGS)

# The binary, libdamier.so and the headers under PREFIX (DESTDIR for staging).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

bench: build
	./$(BUILD)/damier bench

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

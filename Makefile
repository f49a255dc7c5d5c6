# Thin wrapper over CMake + CTest. `make play` and `make check` install what is
# missing on a fresh Debian machine (apt-get, as root), then build.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
PREFIX     ?= /usr/local
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 1800
FUZZ_CI_SECONDS ?= 90
# The bounded run in make check: NAME:RUNS inputs each from a fixed seed (about 20-30 s
# each here, pdn 200000 inputs in 17 s of CPU; FUZZ_CI_SECONDS caps each).
FUZZ_CI_NAMES ?= fen:3000000 move:300000 pdn:200000 hub:250000 timecontrol:5000000 dxp:80000 jump:300000 jpdn:100000 serve:600 tourney:200000 book:200000

.PHONY: all deps configure build check check-fast check-asan play serve bench clean format format-check install fuzz fuzz-ci fuzz-build pot

all: build

deps:
	@./scripts/install-deps

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Every test: the code style (format-check), the optimised build (all labels), then
# ASan+UBSan (labels fast and corpus: tests/CMakeLists.txt gives the policy), then the
# bounded libFuzzer run.
# Configured again with DM_TESTS=ON: a build folder made by `make` before the test
# packages were installed has no tests, and must not be trusted as it is.
check: deps
	$(MAKE) format-check
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DDM_TESTS=ON $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)
	$(MAKE) check-asan

check-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DDM_SANITIZE=ON -DDM_TESTS=ON $(CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) -L '^(fast|corpus)$$'
	$(MAKE) fuzz-ci

# libFuzzer targets (clang, ASan+UBSan): tests/fuzz/. `make fuzz` runs each for
# FUZZ_SECONDS; `make fuzz-ci` (part of make check) for FUZZ_CI_SECONDS each.
fuzz-build:
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DDM_SANITIZE=ON -DDM_FUZZ=ON -DDM_TESTS=OFF -DDM_SHARED=OFF $(CMAKE_ARGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_fen fuzz_move fuzz_pdn fuzz_hub fuzz_timecontrol fuzz_dxp fuzz_jump fuzz_jpdn fuzz_tourney fuzz_book \
	    fuzz_serve

fuzz: fuzz-build
	./scripts/fuzz-run $(FUZZ_BUILD) $(FUZZ_SECONDS)

fuzz-ci: fuzz-build
	./scripts/fuzz-run $(FUZZ_BUILD) $(FUZZ_CI_SECONDS) $(FUZZ_CI_NAMES)

# Only the damier binary (not the tests): half the build time before the first move.
play: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS) --target damier
	./$(BUILD)/damier play $(ARGS)

# The web board (damier serve): http://127.0.0.1:8080/ by default; ARGS="--port N --db FILE".
# Configured again: a build folder made before the web packages were installed lacks it.
serve: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS) --target damier
	./$(BUILD)/damier serve $(if $(wildcard ../shared/data/pdn),--library ../shared/data/pdn) $(ARGS)

# The binary, libdamier.so and the headers under PREFIX (DESTDIR for staging).
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

bench: build
	./$(BUILD)/damier bench

# The code style (.clang-format, clang-format 14 from Debian): `make format` applies it
# to every tracked C file, `make format-check` (the first step of make check) lists the
# files that differ and fails when any does.
CLANG_FORMAT ?= $(shell command -v clang-format-14 || command -v clang-format)
format:
	@[ -n "$(CLANG_FORMAT)" ] || { echo "format: clang-format not installed"; exit 2; }
	git ls-files '*.c' '*.h' | xargs $(CLANG_FORMAT) -i --style=file

format-check:
	@[ -n "$(CLANG_FORMAT)" ] || { echo "format-check: clang-format not installed (scripts/install-deps)"; exit 2; }
	@n=0; t=0; for f in $$(git ls-files '*.c' '*.h'); do t=$$((t + 1)); \
	    $(CLANG_FORMAT) --style=file "$$f" | cmp -s - "$$f" || { echo "not formatted: $$f"; n=$$((n + 1)); }; \
	done; echo "format-check: $$n of $$t files differ from .clang-format (make format fixes them)"; \
	[ $$n -eq 0 ]

# The terminal game's message catalogs (po/, docs/WEB.md "Languages"): po/damier.pot from
# the marked strings (_ and N_) of the files that say them, each po/LANG.po brought up to
# it (new strings untranslated, for the translator); Debian's gettext package.
POT_SOURCES = apps/cli/cmd_play.c apps/cli/play_render.c apps/cli/play_input.c \
              apps/cli/play_engine.c apps/cli/play_jump.c \
              apps/cli/cli_i18n.c
pot:
	xgettext --language=C --keyword=_ --keyword=N_ --keyword=ngettext:1,2 --from-code=UTF-8 \
	    --package-name=damier --msgid-bugs-address=none -o po/damier.pot $(POT_SOURCES)
	for po in po/*.po; do msgmerge --quiet --update --backup=none --no-fuzzy-matching "$$po" po/damier.pot; done

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)

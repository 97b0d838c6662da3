# SPDX-License-Identifier: Apache-2.0
# The README's two quick-start commands:
#   make demo   build, then run the CLI on the spec examples built into it
#   make test   install what the tests need, then run every test
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build demo test bench install clean

all: build

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

demo:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) --target maxpool_cli -j$(JOBS)
	./$(BUILD)/maxpool demo

test:
	bash scripts/test.sh

bench:
	bash bench/run.sh

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) build-asan build-x86-32 build-x86-32-include build-test build-fuzz build-tsan build-avx512emu build-aarch64 build-wheel .venv

# The two quick-start commands:  `make run` (build Release, launch the app) and `make check`
# (build, run every test). Both first install whatever Debian packages are missing.
BUILD_DIR ?= build
PACKAGES := cmake ninja-build g++ make pkg-config qt6-base-dev qt6-svg-dev libgl-dev libeigen3-dev \
            nlohmann-json3-dev libopenblas-dev fonts-dejavu-core xvfb xauth desktop-file-utils
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# `make robustness` (CI runs it after `make check`): the libFuzzer harnesses for a bounded time and the
# AddressSanitizer + UndefinedBehaviorSanitizer build of the whole test suite. It needs clang and libFuzzer.
ROBUSTNESS_PACKAGES := clang libclang-rt-14-dev
# `make check` also runs the script "Copy as PyTorch" writes, in Debian's PyTorch, against the engine.
TEST_PACKAGES := python3-torch
FUZZ_SECONDS ?= 30

.PHONY: deps test-deps robustness-deps build run check robustness fuzz sanitizers

# Installs the Debian packages of $(1) that are missing.
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(PACKAGES))

test-deps: deps
	$(call install_missing,$(TEST_PACKAGES))

robustness-deps: deps
	$(call install_missing,$(ROBUSTNESS_PACKAGES))

build: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD_DIR)

run: build
	$(BUILD_DIR)/app/attention-lab

check: test-deps build
	QT_QPA_PLATFORM=offscreen ctest --test-dir $(BUILD_DIR) --output-on-failure

fuzz: robustness-deps
	tests/fuzz/run_fuzzers.sh $(FUZZ_SECONDS)

sanitizers: robustness-deps
	tests/robustness/run_sanitizers.sh

robustness: fuzz sanitizers

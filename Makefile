# The two quick-start commands:  `make run` (build the app in Release, launch it) and `make check`
# (build everything, run every test). Both first install whatever Debian packages are missing, and say
# how long each phase took ([time] lines): packages, configure, build (with its number of build steps).
BUILD_DIR ?= build
PACKAGES := cmake ninja-build g++ make pkg-config qt6-base-dev qt6-svg-dev libgl-dev libeigen3-dev \
            nlohmann-json3-dev libopenblas-dev libpcre2-dev fonts-dejavu-core xvfb xauth desktop-file-utils ccache \
            qt6-httpserver-dev qt6-websockets-dev libqrencode-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TIMED := cmake/timed.sh
# `make run RUN_ARGS="--preset gpt2-small"` passes options to the app.
RUN_ARGS ?=

# `make robustness` (CI runs it after `make check`): the libFuzzer harnesses for a bounded time and the
# AddressSanitizer + UndefinedBehaviorSanitizer build of the whole test suite. It needs clang and libFuzzer.
ROBUSTNESS_PACKAGES := clang libclang-rt-14-dev
# `make check` also runs the script "Copy as PyTorch" writes, in Debian's PyTorch, against the engine, and
# validates the AppStream metainfo (appstream) and the man pages (groff-base); `make format-check` (CI) asks
# clang-format whether every C++ file is laid out as .clang-format says. python3-regex runs OpenAI's GPT-2 encoder
# (tests/reference/gpt2_bpe_reference.py), the reference the C++ tokenizer's test data comes from.
# chromium and chromium-driver: Ask the Class's student page is answered in a real headless browser.
TEST_PACKAGES := python3-torch python3-regex appstream groff-base clang-format chromium chromium-driver
# `make package`: CPack's DEB generator works the dependencies out with dpkg-shlibdeps (dpkg-dev), which
# needs file(1) to find the binaries. The package is built in its own tree, for any x86-64 (no -march=native)
# and without the tests.
PACKAGE_PACKAGES := dpkg-dev file appstream groff-base
PACKAGE_BUILD_DIR ?= build-package
FUZZ_SECONDS ?= 30

.PHONY: format-check deps test-deps robustness-deps package-deps configure configure-app build build-app run check robustness fuzz \
        sanitizers package package-check

# Installs the Debian packages of $(1) that are missing, and says how long looking (and installing) took.
define install_missing
	@start=$$(date +%s.%N); \
	installed=" $$(dpkg-query -W -f='$${Package}:$${db:Status-Abbrev} ' $(1) 2>/dev/null) "; \
	missing=$$(for p in $(1); do case "$$installed" in *" $$p:ii "*) ;; *) echo $$p ;; esac; done | xargs); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing || exit 1; \
	fi; \
	echo "[time] $(2): $$(awk -v s=$$start -v e=$$(date +%s.%N) 'BEGIN { printf "%.1f", e - s }') s ($(words $(1)) checked, $${missing:-none} installed)"
endef

deps:
	$(call install_missing,$(PACKAGES),packages)

test-deps: deps
	$(call install_missing,$(TEST_PACKAGES),test packages)

robustness-deps: deps
	$(call install_missing,$(ROBUSTNESS_PACKAGES),robustness packages)

package-deps: deps
	$(call install_missing,$(PACKAGE_PACKAGES),package packages)

CONFIGURE := cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release

# `make check` configures every time (so it sees packages installed since) with the tests on.
configure: deps
	@$(TIMED) configure $(CONFIGURE) -DATTNLAB_BUILD_TESTS=ON

# `make run` configures a new tree only, and without the tests: no Qt Test and no probing for PyTorch,
# about half the time of a configure with them. Once configured, Ninja re-runs CMake itself when a
# CMakeLists.txt changes, and `make check` turns the tests on in the same tree.
configure-app: deps
	@if [ -f $(BUILD_DIR)/build.ninja ]; then echo "[time] configure: skipped, $(BUILD_DIR) is configured"; \
	else $(TIMED) configure $(CONFIGURE) -DATTNLAB_BUILD_TESTS=OFF; fi

# Everything: the app, the CLI, the test programs (a few, each holding the test units of one label and need) and
# the benchmarks.
build: configure
	@$(TIMED) --build $(BUILD_DIR)

# Only what `make run` launches.
build-app: configure-app
	@$(TIMED) --build $(BUILD_DIR) attention-lab

run: build-app
	$(BUILD_DIR)/app/attention-lab $(RUN_ARGS)

check: test-deps build
	@QT_QPA_PLATFORM=offscreen $(TIMED) tests ctest --test-dir $(BUILD_DIR) --output-on-failure

format-check: test-deps
	@$(TIMED) "format check" cmake/check_format.sh

fuzz: robustness-deps
	tests/fuzz/run_fuzzers.sh $(FUZZ_SECONDS)

sanitizers: robustness-deps
	tests/robustness/run_sanitizers.sh

robustness: fuzz sanitizers

# attention-lab_<version>-1_<arch>.deb in $(PACKAGE_BUILD_DIR); `sudo apt-get install ./<that file>` installs it.
package: package-deps
	@$(TIMED) "configure (package)" cmake -S . -B $(PACKAGE_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_INSTALL_PREFIX=/usr -DATTNLAB_NATIVE=OFF -DATTNLAB_BUILD_TESTS=OFF
	@$(TIMED) --build $(PACKAGE_BUILD_DIR)
	@$(TIMED) cpack cpack -G DEB --config $(PACKAGE_BUILD_DIR)/CPackConfig.cmake -B $(PACKAGE_BUILD_DIR)
	@deb=$$(ls -t $(PACKAGE_BUILD_DIR)/attention-lab_*.deb | head -n1); case $$deb in /*) ;; *) deb=./$$deb ;; esac; \
	echo "Built $$deb; install it with: sudo apt-get install $$deb"

# CI (after `make check`): the package's files, its programs run from a temporary root, and its
# dependencies resolved by apt on this system (simulated).
package-check: package
	@$(TIMED) "package check" tests/package/check_package.sh "$$(ls -t $(PACKAGE_BUILD_DIR)/attention-lab_*.deb | head -n1)"

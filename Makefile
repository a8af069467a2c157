# The two quick-start commands:  `make run` (build Release, launch the app) and `make check`
# (build, run every test). Both first install whatever Debian packages are missing.
BUILD_DIR ?= build
PACKAGES := cmake ninja-build g++ make pkg-config qt6-base-dev qt6-svg-dev libgl-dev libeigen3-dev \
            nlohmann-json3-dev fonts-dejavu-core xvfb xauth
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run check

deps:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi

build: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD_DIR)

run: build
	$(BUILD_DIR)/app/attention-lab

check: build
	QT_QPA_PLATFORM=offscreen ctest --test-dir $(BUILD_DIR) --output-on-failure

#!/usr/bin/env bash
# Builds the whole test suite (GUI included) with AddressSanitizer + UndefinedBehaviorSanitizer from the
# `asan` CMake preset (clang, -O1, OpenMP off) and runs it with ctest under the offscreen platform. Any
# sanitizer report fails the test it happens in.
# Usage: tests/robustness/run_sanitizers.sh [extra ctest arguments, e.g. -L core]
# Environment: ASAN_BUILD_DIR (default build-asan), JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${ASAN_BUILD_DIR:-build-asan}"
jobs="${JOBS:-2}"
start=$(date +%s)
cmake --preset asan -B "$build" >/dev/null
cmake --build "$build" -j "$jobs"
built=$(date +%s)
echo "sanitizer build: $((built - start)) s"

export QT_QPA_PLATFORM=offscreen
# Leaks in our code fail the run; the one-time allocations of fontconfig, Qt's plugins and friends are
# listed in lsan.supp. UBSan stops at the first report (the code is built with -fno-sanitize-recover).
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:check_initialization_order=1:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$(pwd)/tests/robustness/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
status=0
ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 900 "$@" || status=$?
echo "sanitizer tests: $(($(date +%s) - built)) s (exit $status)"
exit $status

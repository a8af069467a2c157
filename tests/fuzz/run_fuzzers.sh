#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (-fsanitize=fuzzer,address,undefined) in their own build
# directory and runs each for a bounded time from its seed corpus, printing the executions count.
# Usage: tests/fuzz/run_fuzzers.sh [seconds per fuzzer, default 20]
# Environment: FUZZ_BUILD_DIR (default build-fuzz), JOBS (default 2).
# A crash leaves its input as crash-* in the build directory; add it to tests/fuzz/corpus/ (and a
# case to tests/robustness/cases.tsv) once fixed, so it stays a regression test.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-20}"
root="$(pwd)"
build="$(realpath -m "${FUZZ_BUILD_DIR:-build-fuzz}")"
jobs="${JOBS:-2}"

start=$(date +%s)
# OpenMP is off: the harnesses are single-threaded, and clang's libomp adds nothing but noise to ASan.
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DATTNLAB_FUZZ=ON \
    -DATTNLAB_BUILD_GUI=ON -DATTNLAB_BUILD_TESTS=OFF -DATTNLAB_NATIVE=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_OpenMP=ON -DCMAKE_CXX_FLAGS_DEBUG="-O1" >/dev/null
# The GUI is configured for the session reader, whose harness links the UI library; only the harnesses are built.
cmake --build "$build" -j "$jobs" --target fuzz_call_parser fuzz_safetensors fuzz_recording fuzz_text_input fuzz_session fuzz_poll_answer
echo "fuzz build: $(($(date +%s) - start)) s"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
for target in call_parser:call:512 safetensors:safetensors:4096 recording:recording:16384 text_input:text:2048 \
    session:session:8192 poll_answer:poll:9000; do
    IFS=: read -r name corpus max_len <<<"$target"
    work="$build/corpus-$corpus" # new inputs go here; the committed seeds stay as they are
    mkdir -p "$work"
    log="$build/fuzz_$name.log"
    echo "== fuzz_$name: $seconds s from tests/fuzz/corpus/$corpus"
    if ! "$build/tests/fuzz/fuzz_$name" -max_total_time="$seconds" -max_len="$max_len" -timeout=5 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/" "$work" "$root/tests/fuzz/corpus/$corpus" \
        >"$log" 2>&1; then
        status=1
        echo "fuzz_$name FAILED; the last lines of $log:"
        tail -n 40 "$log"
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 || true)
    echo "fuzz_$name: $runs executions in $seconds s ($cov)"
done
echo "fuzzing: $(($(date +%s) - start)) s in all"
exit $status

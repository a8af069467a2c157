#!/usr/bin/env bash
# The overview tab at GPT-2 small's size beside PyTorch: a random-weight checkpoint with GPT-2 small's
# shapes (tests/reference/make_gpt2_checkpoints.py --bench, about 500 MB, removed afterwards), 64 tokens.
# The app's figure is edit to painted: a text edit, the forward through all 12 layers, every head's
# thumbnail and measures, the grid rebuilt and the tab painted (bench_overview). PyTorch's is the book's
# GPTModel's forward alone on the same weights (torch_gpt2_forward.py). Rounds alternate the two so a burst
# of load hits both; prints each round, then the medians and the ratio (app / PyTorch).
#
#   tests/bench/overview_speed.sh [--rounds N] [--tokens T] [--threads N] [--keep DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=3 tokens=64 threads=2 keep=
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift ;;
        --tokens) tokens=$2; shift ;;
        --threads) threads=$2; shift ;;
        --keep) keep=$2; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
bench=build/tests/bench/bench_overview
[ -x "$bench" ] || cmake --build build --target bench_overview
dir=${keep:-$(mktemp -d)}
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT
[ -f "$dir/model.safetensors" ] || /usr/bin/python3 tests/reference/make_gpt2_checkpoints.py --bench "$dir" >/dev/null
app=() torch=()
echo "| round | app: edit to overview painted, ms (CPU ms) | PyTorch forward, ms |"
echo "|---|---|---|"
for ((r = 1; r <= rounds; r++)); do
    a=$(QT_QPA_PLATFORM=offscreen "$bench" "$dir" --tokens "$tokens" --repeat 5 --threads "$threads" 2>/dev/null | grep '^app ')
    t=$(/usr/bin/python3 tests/bench/torch_gpt2_forward.py "$dir" --tokens "$tokens" --repeat 5 --threads "$threads")
    app+=("$(echo "$a" | cut -d' ' -f2)") torch+=("$(echo "$t" | cut -d' ' -f2)")
    echo "| $r | $(echo "$a" | cut -d' ' -f2) ($(echo "$a" | cut -d' ' -f5)) | $(echo "$t" | cut -d' ' -f2) |"
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
ma=$(median "${app[@]}") mt=$(median "${torch[@]}")
echo
echo "GPT-2 small shapes, $tokens tokens, $threads threads, load $(cut -d' ' -f1 /proc/loadavg): app ${ma} ms, PyTorch ${mt} ms," \
     "ratio $(awk -v a="$ma" -v t="$mt" 'BEGIN {printf "%.2f", a / t}')"

#!/usr/bin/env bash
# The whole GPT-2 forward at GPT-2 small's size (12 layers, 12 heads, n_embd 768, vocab 50257, random F32
# weights made here by tests/reference/make_gpt2_checkpoints.py --bench, about 500 MB, removed afterwards),
# 64 tokens, every layer, at 1 and 2 threads: median milliseconds as a Markdown table.
#
#   tests/bench/gpt2_forward.sh [--tokens T] [--repeat R] [--keep DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
tokens=64 repeat=7 keep=
while [ $# -gt 0 ]; do
    case "$1" in
        --tokens) tokens=$2; shift ;;
        --repeat) repeat=$2; shift ;;
        --keep) keep=$2; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
bench=build/tests/bench/bench_gpt2_forward
[ -x "$bench" ] || cmake --build build --target bench_gpt2_forward
dir=${keep:-$(mktemp -d)}
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT
[ -f "$dir/model.safetensors" ] || /usr/bin/python3 tests/reference/make_gpt2_checkpoints.py --bench "$dir" >/dev/null
"$bench" "$dir" --tokens "$tokens" --repeat "$repeat" --threads 1 --threads 2

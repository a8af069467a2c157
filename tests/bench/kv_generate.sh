#!/usr/bin/env bash
# Greedy generation per token with and without the KV cache (attention-lab-cli generate --compare, one run each,
# one engine thread): on the shipped Verdict GPT h4 (2 layers, n_embd 128, to its context of 64) and at GPT-2
# small's size (12 layers, 12 heads, n_embd 768, vocab 50257, random F32 weights made by
# tests/reference/make_gpt2_checkpoints.py --bench, about 500 MB, removed afterwards), and, when Debian's
# python3-torch is there, the same generation in PyTorch with a KV cache written in the book's style
# (tests/bench/torch_kv_generate.py). Prints a Markdown table; the ratios are what a one-off run shows, not a
# median.
#
#   tests/bench/kv_generate.sh [--prompt P] [--tokens N] [--keep DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
prompt=8 tokens=128 keep=
while [ $# -gt 0 ]; do
    case "$1" in
        --prompt) prompt=$2; shift ;;
        --tokens) tokens=$2; shift ;;
        --keep) keep=$2; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
cli=build/app/attention-lab-cli
[ -x "$cli" ] || cmake --build build --target attention-lab-cli
dir=${keep:-$(mktemp -d)}
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT
[ -f "$dir/model.safetensors" ] || /usr/bin/python3 tests/reference/make_gpt2_checkpoints.py --bench "$dir" >/dev/null
# The ids the other GPT-2 benches feed: position t holds (t * 7919 + 464) % 50257.
ids=$(/usr/bin/python3 -c "print(','.join(str((t * 7919 + 464) % 50257) for t in range($prompt)))")

row() { # NAME, then the generate options; keeps the generated ids in $dir/ids.txt
    local name=$1
    shift
    "$cli" generate "$@" --compare --json | /usr/bin/python3 -c '
import json, sys
j = json.load(sys.stdin)
cached, full = j["mean_ms_with_cache"], j["mean_ms_without_cache"]
diff, scale = j["max_logit_difference"], j["max_abs_logit"]
tokens = "%d + %d" % (len(j["prompt_ids"]), len(j["generated_ids"]))
print(f"| {sys.argv[1]} | {tokens} | {cached:.2f} | {full:.2f} | {full / cached:.1f}x | {diff:.2g} of {scale:.3g} |")
print(",".join(map(str, j["generated_ids"])), file=open(sys.argv[2], "w"))' "$name" "$dir/ids.txt"
}

echo "| model | prompt + generated | ms/token, cache | ms/token, no cache | ratio | max logit diff of max logit |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
# h4 to its whole context: the prompt and the new tokens but the last fill its 64 positions.
row "verdict-gpt-h4 (engine)" --model h4 --ids "$(seq -s, 1 "$prompt")" --tokens $((65 - prompt))
row "GPT-2 small shapes (engine)" --model "$dir" --ids "$ids" --tokens "$tokens"
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
    read -r _ cached full diff scale torch_ids < <(/usr/bin/python3 tests/bench/torch_kv_generate.py "$dir" \
        --prompt "$prompt" --tokens "$tokens" --threads 1)
    /usr/bin/python3 -c "c, f = $cached, $full; print(f'| GPT-2 small shapes (PyTorch $(/usr/bin/python3 -c 'import torch; print(torch.__version__)')) | $prompt + $tokens | {c:.2f} | {f:.2f} | {f / c:.1f}x | $diff of $scale |')"
    if [ "$torch_ids" = "$(cat "$dir/ids.txt")" ]; then
        echo "PyTorch generated the same $tokens ids as the engine."
    else
        echo "PyTorch generated other ids than the engine: $torch_ids"
    fi
fi

#!/usr/bin/env bash
# How the engine's traced forward (GPT-2 small attention) scales with sequence length and batch, one
# thread, as Markdown tables: median ms, GFLOP/s against one core's peak, peak RSS, and the share of
# time in the quadratic phases (scores, softmax with the mask, context, from bench's phases_ms), which
# grows with tokens while the projections grow only linearly. Then 1 vs 2 threads, and the bare
# engine on the small cases in microseconds.
#
#   tests/bench/scaling.sh [--torch] [--quick] [--rounds N] [--repeat R]
#
# --torch   also time tests/bench/torch_mha.py (PyTorch, one thread), alternated with the engine
#           round by round so drift hits both alike; ratio = engine / PyTorch, below 1 is faster.
# --quick   a smoke run on tiny sizes (16 and 32 tokens, batch 1 and 2, one round): checks the
#           script, says nothing about performance.
# Take real numbers on a quiet machine: each row is the median over the rounds of bench's median.
set -euo pipefail
cd "$(dirname "$0")/../.."
torch=0 quick=0 rounds=3 repeat=5
while [ $# -gt 0 ]; do
    case "$1" in
        --torch) torch=1 ;;
        --quick) quick=1 ;;
        --rounds) rounds=$2; shift ;;
        --repeat) repeat=$2; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
py=/usr/bin/python3
cli=build/app/attention-lab-cli
[ -x "$cli" ] || { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build --target attention-lab-cli; }
call="MultiHeadAttention(768, 768, 1024, 0.0, 12)"
tokens_list="64 128 256 512 1024" batch_list="1 2 4 8" long=1024 small_repeat=1000
if [ "$quick" = 1 ]; then
    tokens_list="16 32" batch_list="1 2" long=32 small_repeat=50 rounds=1 repeat=2
fi
peak=$(tests/bench/cpu_peak.sh --gflops)
# PyTorch runs the OpenBLAS kernel the engine runs, so a ratio compares the same products.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
    kernel=$("$cli" bench --call "MultiHeadAttention(3, 2, 6, 0.0, 2)" --batch 1 --tokens 6 --repeat 1 --json |
        $py -c 'import json,sys; print(json.load(sys.stdin)["blas"]["kernel"])')
    [ -n "$kernel" ] && export OPENBLAS_CORETYPE=${kernel^^}
fi

# bench THREADS BATCH TOKENS -> "median_ms gflops peak_rss_mb quadratic_share"
bench() {
    "$cli" bench --call "$call" --threads "$1" --batch "$2" --tokens "$3" --repeat "$repeat" --json |
        $py -c 'import json, sys
d = json.load(sys.stdin); p = d["phases_ms"]
quad = sum(p[k] for k in ("scores", "softmax", "context")) / max(sum(p.values()), 1e-12)
print(d["median_ms"], d["gflops"], d["peak_rss_mb"], quad)'
}
# torch BATCH TOKENS -> median_ms (one thread, like the engine)
torch_ms() {
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 $py tests/bench/torch_mha.py 768 768 1024 12 "$1" "$2" \
        --threads 1 --repeat "$repeat" --json | $py -c 'import json, sys; print(json.load(sys.stdin)["median_ms"])'
}
# The median of each column over the rounds; stdin holds one line per round.
medians() {
    $py -c 'import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
print(*(statistics.median(c) for c in zip(*rows)))'
}

echo "# Attention Lab scaling: $call, traced forward"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
     "$rounds round(s) × bench --repeat $repeat$([ "$quick" = 1 ] && echo ', QUICK smoke sizes')"
echo "$(tests/bench/cpu_peak.sh); OpenBLAS kernel ${OPENBLAS_CORETYPE:-none} for the engine and PyTorch alike"
echo
echo "| tokens | batch | engine ms | GFLOP/s | % of core peak | peak RSS MB | PyTorch ms | ratio | quadratic share |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
row() { # BATCH TOKENS
    local lines="" r e t
    for r in $(seq "$rounds"); do
        e=$(bench 1 "$1" "$2")
        t=nan
        [ "$torch" = 1 ] && t=$(torch_ms "$1" "$2")
        read -r ems _ _ _ <<<"$e"
        lines+="$e $t $($py -c "print($ems / $t if '$t' != 'nan' else 'nan')")"$'\n'
    done
    read -r ms gf rss quad tms ratio <<<"$(medians <<<"$lines")"
    $py -c "
t, ratio = float('$tms'), float('$ratio')
torch = f'{t:.1f} | {ratio:.2f}' if t == t else '– | –'
print(f'| $2 | $1 | {$ms:.1f} | {$gf:.1f} | {100 * $gf / $peak:.0f} % | {$rss:.0f} | {torch} | {100 * $quad:.0f} % |')"
}
for t in $tokens_list; do row 1 "$t"; done
for b in $batch_list; do [ "$b" = 1 ] || row "$b" "$long"; done

echo
echo "Threads (engine only; $(nproc) cores here, shared with whatever else runs):"
echo
echo "| tokens | batch | 1 thread ms | 2 threads ms | speed-up |"
echo "|---:|---:|---:|---:|---:|"
for b in 1 "${batch_list##* }"; do
    lines=""
    for r in $(seq "$rounds"); do # alternated, like the PyTorch comparison
        read -r one _ <<<"$(bench 1 "$b" "$long")"
        read -r two _ <<<"$(bench 2 "$b" "$long")"
        lines+="$one $two"$'\n'
    done
    read -r one two <<<"$(medians <<<"$lines")"
    $py -c "print(f'| $long | $b | {$one:.1f} | {$two:.1f} | {$one / $two:.2f}× |')"
done

echo
echo "Bare engine on the small cases (one thread, bench --repeat $small_repeat):"
echo
echo "| case | median µs | min µs | GFLOP/s |"
echo "|---|---:|---:|---:|"
small() { # TITLE then bench arguments
    local title=$1
    shift
    "$cli" bench --threads 1 --repeat "$small_repeat" --json "$@" | $py -c "import json, sys
d = json.load(sys.stdin)
print(f'| $title | {d[\"median_us\"]:.1f} | {1000 * d[\"min_ms\"]:.1f} | {d[\"gflops\"]:.2f} |')"
}
small "book preset: MultiHeadAttention(3, 2, 6, 0.0, 2), 2 × 6 book tokens" \
    --call "MultiHeadAttention(3, 2, 6, 0.0, 2)" --batch 2 --tokens 6 --input book
small "book: SelfAttention_v2(3, 2), 6 book tokens" --call "SelfAttention_v2(3, 2)" --batch 1 --tokens 6 --input book
small "GPT-2 small, 16 tokens" --call "$call" --batch 1 --tokens 16

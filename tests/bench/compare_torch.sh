#!/usr/bin/env bash
# The engine next to PyTorch on this machine, in one run: the book's MultiHeadAttention forward in
# PyTorch (Debian's python3-torch with OpenBLAS, one thread) and `attention-lab-cli bench` (full
# stage trace recorded, one thread), alternated round by round so drift hits both alike.
#
#   tests/bench/compare_torch.sh [--install] [--rounds N] [--batch B] [--tokens T] [--threads N]
#
# --install  apt-get installs python3-torch and libopenblas0-pthread first (sudo when not root).
# Prints each round's medians and ratio, then the median ratio (engine / PyTorch): below 1 is faster.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=5 batch=1 tokens=1024 threads=1 install=0
while [ $# -gt 0 ]; do
    case "$1" in
        --install) install=1 ;;
        --rounds) rounds=$2; shift ;;
        --batch) batch=$2; shift ;;
        --tokens) tokens=$2; shift ;;
        --threads) threads=$2; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
if [ "$install" = 1 ]; then
    sudo=$([ "$(id -u)" = 0 ] || echo sudo)
    $sudo apt-get install -y --no-install-recommends python3-torch libopenblas0-pthread
fi
cli=build/app/attention-lab-cli
[ -x "$cli" ] || { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build --target attention-lab-cli; }
call="MultiHeadAttention(768, 768, 1024, 0.0, 12)"
export OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads
ratios=()
for r in $(seq "$rounds"); do
    ours=$("$cli" bench --call "$call" --batch "$batch" --tokens "$tokens" --threads "$threads" --repeat 5 --json |
           /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["median_ms"], d["peak_rss_mb"])')
    theirs=$(/usr/bin/python3 tests/bench/torch_mha.py 768 768 1024 12 "$batch" "$tokens" --threads "$threads" --repeat 5 --json |
             /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["median_ms"])')
    read -r ours_ms rss <<<"$ours"
    ratio=$(/usr/bin/python3 -c "print(f'{$ours_ms / $theirs:.3f}')")
    ratios+=("$ratio")
    printf 'round %d: engine %.1f ms (peak RSS %.0f MB), PyTorch %.1f ms, ratio %s\n' "$r" "$ours_ms" "$rss" "$theirs" "$ratio"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "batch $batch, $tokens tokens, $threads thread(s): median ratio engine/PyTorch = $median"

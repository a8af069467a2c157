#!/usr/bin/env bash
# The engine next to PyTorch on this machine, in one run: the book's MultiHeadAttention forward in
# PyTorch (Debian's python3-torch with OpenBLAS, one thread) and `attention-lab-cli bench` (full
# stage trace recorded, one thread), alternated round by round so drift hits both alike.
#
#   tests/bench/compare_torch.sh [--install] [--rounds N] [--batch B] [--tokens T] [--threads N]
#
# --install  apt-get installs python3-torch, libopenblas0-pthread and libjemalloc2 first (sudo when not root).
#
# PyTorch is timed twice per round: as installed (glibc malloc) and with jemalloc preloaded. glibc
# hands each large tensor back to the kernel and maps it afresh, so on a VM every pass pays a page
# fault per new 4 KiB page; jemalloc keeps its pages, which is what PyTorch's own builds and any
# long-running PyTorch process see. Without libjemalloc2 the jemalloc column says so and is skipped.
# Last, the floor: the engine's FLOPs at the best sgemm rate PyTorch's BLAS reaches on this machine
# (sgemm_rate.py), i.e. how close the engine's time is to "nothing but matrix products at full speed".
# Both sides run the same OpenBLAS kernel: the one the engine runs (its own pick or the app's choice,
# tensor/blas_kernel.h), passed to PyTorch's OpenBLAS as OPENBLAS_CORETYPE; a kernel set by the caller
# is used by both. Prints each round, then the median ratios (engine / PyTorch): below 1 is faster.
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
    $sudo apt-get install -y --no-install-recommends python3-torch libopenblas0-pthread libjemalloc2
fi
py=/usr/bin/python3
cli=${ATTNLAB_CLI:-build/app/attention-lab-cli}
[ -x "$cli" ] || { cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build --target attention-lab-cli; }
jemalloc=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
if [ ! -e "$jemalloc" ]; then
    echo "no $jemalloc (Debian package libjemalloc2; --install brings it): timing PyTorch with glibc malloc only" >&2
    jemalloc=
fi
call="MultiHeadAttention(768, 768, 1024, 0.0, 12)"
export OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
    kernel=$("$cli" bench --call "MultiHeadAttention(3, 2, 6, 0.0, 2)" --batch 1 --tokens 6 --repeat 1 --json |
        $py -c 'import json,sys; print(json.load(sys.stdin)["blas"]["kernel"])')
    [ -n "$kernel" ] && export OPENBLAS_CORETYPE=${kernel^^}
fi
echo "OpenBLAS kernel for the engine and PyTorch alike: ${OPENBLAS_CORETYPE:-none (no OpenBLAS in this build)}"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { $py -c "print(f'{$1 / $2:.3f}')"; }
torch_ms() {
    env ${1:+LD_PRELOAD=$1} $py tests/bench/torch_mha.py 768 768 1024 12 "$batch" "$tokens" --threads "$threads" \
        --repeat 5 --json | $py -c 'import json,sys; print(json.load(sys.stdin)["median_ms"])'
}
glibc_ratios=() jemalloc_ratios=() ours_all=() gflops_all=()
for r in $(seq "$rounds"); do
    read -r ours_ms rss gflops < <("$cli" bench --call "$call" --batch "$batch" --tokens "$tokens" --threads "$threads" \
        --repeat 5 --json |
        $py -c 'import json,sys; d=json.load(sys.stdin); print(d["median_ms"], d["peak_rss_mb"], d["gflops"])')
    glibc=$(torch_ms "")
    ours_all+=("$ours_ms") gflops_all+=("$gflops")
    glibc_ratios+=("$(ratio "$ours_ms" "$glibc")")
    line=$(printf 'round %d: engine %.1f ms (peak RSS %.0f MB), PyTorch glibc %.1f ms (ratio %s)' \
        "$r" "$ours_ms" "$rss" "$glibc" "${glibc_ratios[-1]}")
    if [ -n "$jemalloc" ]; then
        je=$(torch_ms "$jemalloc")
        jemalloc_ratios+=("$(ratio "$ours_ms" "$je")")
        line+=$(printf ', PyTorch jemalloc %.1f ms (ratio %s)' "$je" "${jemalloc_ratios[-1]}")
    fi
    echo "$line"
done
echo "kernel ${OPENBLAS_CORETYPE:-none}, batch $batch, $tokens tokens, $threads thread(s), load $(cut -d' ' -f1-3 /proc/loadavg):"
echo "  median ratio engine/PyTorch (glibc malloc, as installed) = $(printf '%s\n' "${glibc_ratios[@]}" | median)"
if [ -n "$jemalloc" ]; then
    echo "  median ratio engine/PyTorch (jemalloc preloaded)        = $(printf '%s\n' "${jemalloc_ratios[@]}" | median)"
fi
# The floor: FLOPs = the engine's rate × its time (both from the same bench run), at the best sgemm rate,
# plus what is not a product: the softmax's exponentials and one write of the stages no product writes.
sgemm=$($py tests/bench/sgemm_rate.py --threads "$threads" --tokens "$((batch * tokens))")
read -r exp_ms pass_ms pass_mb < <($py tests/bench/floor_parts.py --batch "$batch" --tokens "$tokens" --threads "$threads")
ours_med=$(printf '%s\n' "${ours_all[@]}" | median)
gflops_med=$(printf '%s\n' "${gflops_all[@]}" | median)
$py - "$ours_med" "$gflops_med" "$sgemm" "$(tests/bench/cpu_peak.sh --gflops)" "$exp_ms" "$pass_ms" "$pass_mb" <<'PY'
import sys
ms, gflops, sgemm, peak, exp_ms, pass_ms, pass_mb = map(float, sys.argv[1:])
flops = gflops * 1e9 * ms / 1e3
gemm_ms = flops / (sgemm * 1e9) * 1e3
floor_ms = gemm_ms + exp_ms + pass_ms
print(f"  floor: {flops / 1e9:.2f} GFLOP at the best sgemm rate measured here, {sgemm:.1f} GFLOP/s "
      f"(nominal peak {peak:.1f}), {gemm_ms:.1f} ms; + the softmax's exponentials {exp_ms:.1f} ms + one write "
      f"of the {pass_mb:.0f} MB of stages no product writes {pass_ms:.1f} ms = {floor_ms:.1f} ms")
print(f"  the engine's {ms:.1f} ms is {ms / floor_ms - 1:+.0%} against that floor "
      f"(and {gemm_ms / ms:.0%} of the speed of the products alone at that rate)")
PY

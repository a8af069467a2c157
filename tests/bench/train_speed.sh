#!/usr/bin/env bash
# The trainer (core/train) beside PyTorch, in one run on this machine:
#  1. one training step at emb 32, 2 layers, context 32, batch 64 (4 heads unless --heads): the book's
#     GPTModel in PyTorch eager on one thread (torch_train_step.py) and bench_train_step on one engine
#     thread, alternated round by round; medians of wall and CPU time and their ratio (goal: <= 0.2);
#  2. with --sweep, the sweep num_heads 1, 2, 4, 8, 16, 32 x 3 seeds x 2,000 steps of the induction task on
#     every core (`attention-lab-cli train`): its wall time (goal: <= 60 s on two cores) and its table.
#
#   tests/bench/train_speed.sh [--build DIR] [--rounds N] [--heads H] [--sweep]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build rounds=5 heads=4 sweep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --heads) heads=$2; shift ;;
        --sweep) sweep=1 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
bench=$build/tests/bench/bench_train_step
cli=$build/app/attention-lab-cli
[ -x "$bench" ] || { echo "build $bench first (ninja -C $build bench_train_step)" >&2; exit 1; }
echo "one training step, emb 32, 2 layers, $heads heads, context 32, batch 64 (median ms: wall cpu)"
ours=() theirs=()
for r in $(seq "$rounds"); do
    t=$(OMP_NUM_THREADS=1 /usr/bin/python3 tests/bench/torch_train_step.py --heads "$heads" --repeat 50)
    o=$("$bench" --heads "$heads" --repeat 100)
    echo "  round $r: PyTorch $t   core/train $o"
    theirs+=("$t") ours+=("$o")
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for col in 1 2; do
    name=$([ $col = 1 ] && echo wall || echo cpu)
    t=$(printf '%s\n' "${theirs[@]}" | cut -d' ' -f$col | median)
    o=$(printf '%s\n' "${ours[@]}" | cut -d' ' -f$col | median)
    echo "median $name: PyTorch $t ms, core/train $o ms, ratio $(awk -v o="$o" -v t="$t" 'BEGIN {printf "%.3f", o / t}')"
done
if [ "$sweep" = 1 ]; then
    echo "sweep: induction, num_heads 1,2,4,8,16,32 x 3 seeds x 2000 steps on $(nproc) cores"
    start=$(date +%s.%N)
    "$cli" train --task induction --heads 1,2,4,8,16,32 --seeds 3 --steps 2000
    echo "sweep wall time: $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}') s"
fi

#!/usr/bin/env bash
# One core's fp32 peak, the yardstick for bench's GFLOP/s: clock × fp32 flops per cycle.
#
#   tests/bench/cpu_peak.sh            one sentence: "peak X GFLOP/s per core (from lscpu: ...)"
#   tests/bench/cpu_peak.sh --gflops   just X, for scripts
#
# Flops per cycle = FMA units × fp32 lanes per vector × 2 (an FMA is a multiply and an add):
#   AVX2 + FMA, 2 × 256-bit FMA units (Intel Haswell and later, AMD Zen 2, 3, 4): 2 × 8 × 2 = 32;
#   AMD Zen 1 / Zen+ (family 23 below model 0x30) split 256-bit work into two 128-bit halves: 16;
#   AVX-512 on Intel server cores and AMD Zen 5 (family 26), 2 × 512-bit units: 2 × 16 × 2 = 64
#   (Zen 4 runs AVX-512 on 256-bit units, so it stays at 32; some Intel parts have one 512-bit unit);
#   SSE only: 2 × 4 × 2 = 16.
# The clock is lscpu's "CPU max MHz" (the boost clock); virtual machines often hide it, and then the
# nominal "cpu MHz" of /proc/cpuinfo is used and the sentence says so, since boost may be higher.
# PEAK_FLOPS_PER_CYCLE=N or PEAK_MHZ=N override either guess.
set -euo pipefail
export LC_ALL=C
info=$(lscpu)
field() { sed -n "s/^$1:[[:space:]]*//p" <<<"$info" | head -n1; }
model=$(field "Model name")
vendor=$(field "Vendor ID")
family=$(field "CPU family")
modelnum=$(field "Model")
flags=" $(field "Flags") "
has() { [[ "$flags" == *" $1 "* ]]; }

mhz=$(field "CPU max MHz")
clock_note="max MHz ${mhz%.*}"
if [ -z "$mhz" ]; then
    mhz=$(sed -n 's/^cpu MHz[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n1)
    clock_note="no max MHz in lscpu, so the nominal ${mhz%.*} MHz of /proc/cpuinfo (boost may be higher)"
fi
[ -n "${PEAK_MHZ:-}" ] && mhz=$PEAK_MHZ clock_note="PEAK_MHZ=$PEAK_MHZ"

if has avx512f && { [ "$vendor" = GenuineIntel ] || [ "${family:-0}" -ge 26 ]; }; then
    fpc=64 why="AVX-512: 2 FMA units × 16 fp32 lanes × 2 flops"
elif has avx2 && has fma; then
    if [ "$vendor" = AuthenticAMD ] && [ "${family:-0}" = 23 ] && [ "${modelnum:-0}" -lt 48 ]; then
        fpc=16 why="Zen 1: AVX2+FMA on 2 × 128-bit units, 2 × 4 fp32 lanes × 2 flops"
    else
        fpc=32 why="AVX2+FMA: 2 FMA units × 8 fp32 lanes × 2 flops"
    fi
elif has avx; then
    fpc=16 why="AVX without FMA: 1 add + 1 multiply unit × 8 fp32 lanes"
else
    fpc=16 why="SSE: 2 units × 4 fp32 lanes × 2 flops"
fi
[ -n "${PEAK_FLOPS_PER_CYCLE:-}" ] && fpc=$PEAK_FLOPS_PER_CYCLE why="PEAK_FLOPS_PER_CYCLE=$fpc"

peak=$(awk -v m="$mhz" -v f="$fpc" 'BEGIN { printf "%.1f", m * f / 1000 }')
if [ "${1:-}" = --gflops ]; then
    echo "$peak"
else
    echo "peak $peak GFLOP/s per core (from lscpu: $model, family $family model $modelnum, $clock_note; $why = $fpc flop/cycle)"
fi

#!/bin/sh
# under_every_kernel.sh PROGRAM UNIT...: runs the given test units of PROGRAM (tests_core) once under each
# OpenBLAS kernel this CPU supports besides the one OpenBLAS picks itself (which the rest of the suite runs
# under): the products must equal PyTorch's to the same tolerance whichever kernel computes them, since the
# app may choose another one (tensor/blas_kernel.h).
set -eu
program=$1
shift
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
kernels=PRESCOTT
if has avx2 && has fma; then kernels="$kernels HASWELL"; fi
if has avx512f && has avx512bw && has avx512dq && has avx512vl; then kernels="$kernels SKYLAKEX"; fi
for kernel in $kernels; do
    for test in "$@"; do
        if ! OPENBLAS_CORETYPE=$kernel "$program" "$test" -silent >/tmp/under_kernel.$$ 2>&1; then
            cat /tmp/under_kernel.$$
            rm -f /tmp/under_kernel.$$
            echo "$test failed under OPENBLAS_CORETYPE=$kernel"
            exit 1
        fi
        echo "$test: passed under OPENBLAS_CORETYPE=$kernel"
    done
done
rm -f /tmp/under_kernel.$$

#!/usr/bin/python3
"""The machine's floor for compare_torch.sh: the best single-precision matrix-multiply rate that
PyTorch's BLAS (Debian's OpenBLAS) reaches here, on the shapes of the engine's projections and on a
large square one, as GFLOP/s. The best of several runs, since a shared machine only ever slows it.

Usage: sgemm_rate.py [--threads N] [--tokens T] [--repeat R]   prints one number (GFLOP/s)
"""
import argparse
import time

import torch


def best_rate(m, k, n, repeat):
    a, b = torch.rand(m, k), torch.rand(k, n)
    out = torch.empty(m, n)  # reused: the page faults of a fresh result are not the BLAS's
    torch.mm(a, b, out=out)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        torch.mm(a, b, out=out)
        best = min(best, time.perf_counter() - t0)
    return 2.0 * m * k * n / best / 1e9


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--tokens", type=int, default=1024)
    p.add_argument("--repeat", type=int, default=20)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    shapes = [(a.tokens, 768, 768), (a.tokens, 768, 2304), (1024, 1024, 1024)]
    print(f"{max(best_rate(m, k, n, a.repeat) for m, k, n in shapes):.1f}")


if __name__ == "__main__":
    main()

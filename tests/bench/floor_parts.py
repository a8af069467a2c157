#!/usr/bin/python3
"""The non-GEMM parts of the traced forward's floor, for compare_torch.sh, measured with PyTorch here:
the softmax's exponentials over the visible (causal) half of every score row, and one write pass over
every stage the trace keeps that no matrix product writes (the masked scores and the weights, b·H·T²
each, and context.merged, the copy contiguous() makes; queries, keys, values, the scores, the context
and the output are the products' own results, whose writes the sgemm rate already includes). Each is the
best of several runs on warm memory, since a shared machine only ever slows them: what the engine cannot
go below besides its matrix products.

Usage: floor_parts.py --batch B --tokens T --d-out D --heads H [--threads N]   prints "exp_ms pass_ms stage_mb"
"""
import argparse
import time

import torch


def best_ms(fn, repeat=15):
    fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--tokens", type=int, default=1024)
    p.add_argument("--d-out", type=int, default=768)
    p.add_argument("--heads", type=int, default=12)
    p.add_argument("--threads", type=int, default=1)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    b, t, d, h = a.batch, a.tokens, a.d_out, a.heads
    visible = b * h * t * (t + 1) // 2
    x, y = torch.rand(visible) - 0.5, torch.empty(visible)
    exp_ms = best_ms(lambda: torch.exp(x, out=y))
    stage_floats = 2 * b * h * t * t + b * t * d
    buf = torch.empty(stage_floats)
    pass_ms = best_ms(lambda: buf.fill_(1.0))
    print(f"{exp_ms:.2f} {pass_ms:.2f} {stage_floats * 4 / 1e6:.0f}")


if __name__ == "__main__":
    main()

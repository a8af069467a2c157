#!/usr/bin/python3
"""The reference side of the benchmark: the book's MultiHeadAttention (resources/pytorch) in PyTorch on CPU.

Usage: torch_mha.py D_IN D_OUT CONTEXT HEADS BATCH TOKENS [--threads N] [--repeat R] [--json]
Prints the median forward time in milliseconds (after one warm-up), like `attention-lab-cli bench`.
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch

# The book's class from resources/pytorch (the project's only copy), as the reference generators use it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
from book_modules import BOOK  # noqa: E402

MultiHeadAttention = BOOK["MultiHeadAttention"]


def main():
    p = argparse.ArgumentParser()
    for name in ("d_in", "d_out", "context", "heads", "batch", "tokens"):
        p.add_argument(name, type=int)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(123)
    mha = MultiHeadAttention(a.d_in, a.d_out, a.context, 0.0, a.heads).eval()
    x = torch.rand(a.batch, a.tokens, a.d_in)
    times = []
    with torch.no_grad():
        mha(x)
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            mha(x)
            times.append((time.perf_counter() - t0) * 1e3)
    median = statistics.median(times)
    if a.json:
        print(json.dumps({"median_ms": median, "min_ms": min(times), "max_ms": max(times), "threads": a.threads}))
    else:
        print(f"median {median:.3f} ms (min {min(times):.3f}, max {max(times):.3f}) over {a.repeat} runs")


if __name__ == "__main__":
    main()

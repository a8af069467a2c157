#!/usr/bin/python3
"""The reference side of the benchmark: the book's MultiHeadAttention forward in PyTorch on CPU.

Usage: torch_mha.py D_IN D_OUT CONTEXT HEADS BATCH TOKENS [--threads N] [--repeat R] [--json]
Prints the median forward time in milliseconds (after one warm-up), like `attention-lab-cli bench`.
"""
import argparse
import json
import statistics
import time

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)


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

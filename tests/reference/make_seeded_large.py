#!/usr/bin/python3
"""Writes tests/data/seeded_large.json: fingerprints of the parameters PyTorch draws for GPT-2-sized
modules (up to 768 x 2304) after torch.manual_seed(seed), too large to commit as tensors. For each
parameter: shape, the first and last values, and the 64-bit FNV-1a hash of its float32 bytes
(little-endian, row-major), which test_seeded_reference recomputes from init_weights: equal hashes
mean equal bits. Run with Debian's python3-torch:  /usr/bin/python3 tests/reference/make_seeded_large.py
"""
import json
import os

import torch
from book_modules import BOOK

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "seeded_large.json")
CASES = [  # (class, seed, keyword arguments)
    ("MultiHeadAttention", 123, dict(d_in=768, d_out=768, context_length=1024, dropout=0.0, num_heads=12,
                                     qkv_bias=True)),
    ("MultiHeadAttentionWrapper", 7, dict(d_in=768, d_out=64, context_length=1024, dropout=0.0, num_heads=12,
                                          qkv_bias=False)),
    ("SelfAttention_v1", 42, dict(d_in=768, d_out=2304)),
    ("SelfAttention_v2", 2**40 + 3, dict(d_in=2304, d_out=768, qkv_bias=True)),
    ("CausalAttention", 0, dict(d_in=1, d_out=768, context_length=4, dropout=0.1, qkv_bias=True)),
]


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h




def fmt(v):
    return ("True" if v else "False") if isinstance(v, bool) else repr(v)


if __name__ == "__main__":
    cases = []
    for cls, seed, kw in CASES:
        torch.manual_seed(seed)
        module = BOOK[cls](**kw)
        params = []
        for name, p in module.state_dict().items():
            if name.endswith("mask"):
                continue
            data = p.detach().contiguous().numpy().astype("<f4").tobytes()
            params.append({"name": name, "shape": list(p.shape), "fnv1a64": f"{fnv1a64(data):016x}",
                           "first": float(p.flatten()[0]), "last": float(p.flatten()[-1])})
        call = f"{cls}(" + ", ".join(f"{k}={fmt(v)}" for k, v in kw.items()) + ")"
        cases.append({"call": call, "seed": seed, "parameters": params})
        print(call, seed, len(params))
    with open(OUT, "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases}, f, indent=1)
        f.write("\n")

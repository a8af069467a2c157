#!/usr/bin/python3
"""Writes the project's own PyTorch reference cases (tests/data/reference/*.safetensors).

The chapter-3 modules are the book's, imported unchanged from resources/pytorch (book_modules.py)
and run in eval mode; every stage is recorded under the canonical names of the golden README, so
test_golden checks these files exactly like the shared golden ones. Run with Debian's python3-torch:  /usr/bin/python3 tests/reference/make_reference_cases.py
"""
import os
import sys

import torch
from book_modules import BOOK, StageRecorder
from safetensors_writer import save_file

OUT = os.path.join(os.path.dirname(__file__), "..", "data", "reference")
SelfAttention_v2, CausalAttention = BOOK["SelfAttention_v2"], BOOK["CausalAttention"]
MultiHeadAttentionWrapper, MultiHeadAttention = BOOK["MultiHeadAttentionWrapper"], BOOK["MultiHeadAttention"]
GroupedQueryAttention = BOOK["GroupedQueryAttention"]


def fmt(v):
    return repr(v) if not isinstance(v, bool) else ("True" if v else "False")


def call_text(cls, **kw):
    return f"{cls.__name__}(" + ", ".join(f"{k}={fmt(v)}" for k, v in kw.items()) + ")"


def write(name, note, seed, cls, x_shape, **kw):
    if ONLY and name not in ONLY:  # regenerate only the files named on the command line, when any are
        return
    torch.manual_seed(seed)
    module = cls(**kw).eval()
    x = torch.rand(*x_shape)
    with torch.no_grad():
        _, rec = StageRecorder(module)(x)
    rec.pop("x")
    tensors = {k: v for k, v in module.state_dict().items() if not k.endswith("mask")}
    tensors["x"] = x
    for k, v in rec.items():
        tensors["expected." + k] = v
    meta = {"call": call_text(cls, **kw), "note": note, "torch": torch.__version__, "seed": str(seed)}
    save_file({k: v.detach().contiguous() for k, v in tensors.items()}, os.path.join(OUT, name + ".safetensors"), meta)


ONLY = set(sys.argv[1:])

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    write("mha_odd_widths", "d_in 5, d_out 6, three heads of 2, batch 2, 7 tokens", 31, MultiHeadAttention, (2, 7, 5),
          d_in=5, d_out=6, context_length=9, dropout=0.0, num_heads=3, qkv_bias=False)
    write("mha_one_head", "one head: the split is the identity", 32, MultiHeadAttention, (1, 5, 4),
          d_in=4, d_out=4, context_length=5, dropout=0.0, num_heads=1, qkv_bias=True)
    write("mha_head_dim_1", "head_dim 1: four heads of width one", 33, MultiHeadAttention, (2, 4, 3),
          d_in=3, d_out=4, context_length=4, dropout=0.0, num_heads=4, qkv_bias=False)
    write("mha_one_token", "a single token: every transpose swaps an axis of size one", 34, MultiHeadAttention,
          (3, 1, 6), d_in=6, d_out=6, context_length=4, dropout=0.0, num_heads=2, qkv_bias=True)
    write("mha_dropout_eval", "dropout 0.25 in eval mode is the identity", 35, MultiHeadAttention, (1, 6, 8),
          d_in=8, d_out=8, context_length=6, dropout=0.25, num_heads=4, qkv_bias=False)
    write("mha_many_heads", "sixteen heads of width 4, 12 tokens", 36, MultiHeadAttention, (1, 12, 20),
          d_in=20, d_out=64, context_length=16, dropout=0.0, num_heads=16, qkv_bias=True)
    write("wrapper_bias_3heads", "wrapper with qkv_bias, three heads of width 2", 37, MultiHeadAttentionWrapper,
          (2, 5, 4), d_in=4, d_out=2, context_length=5, dropout=0.0, num_heads=3, qkv_bias=True)
    write("causal_bias", "CausalAttention with qkv_bias, d_in != d_out", 38, CausalAttention, (2, 4, 5),
          d_in=5, d_out=3, context_length=6, dropout=0.0, qkv_bias=True)
    write("self_attention_v2_bias", "SelfAttention_v2 with qkv_bias", 39, SelfAttention_v2, (5, 4),
          d_in=4, d_out=3, qkv_bias=True)
    # Grouped-query attention, read through the weights file as `--weights` reads it: W_query, W_key and
    # W_value (the last two num_kv_groups * head_dim wide) and out_proj.
    write("gqa_groups_of_3", "twelve heads sharing four key/value heads, batch 2", 40, GroupedQueryAttention,
          (2, 6, 10), d_in=10, d_out=24, context_length=8, dropout=0.0, num_heads=12, num_kv_groups=4, qkv_bias=False)
    write("gqa_mqa_bias", "multi-query: one key/value head for four query heads, qkv_bias", 41, GroupedQueryAttention,
          (1, 9, 8), d_in=8, d_out=8, context_length=9, dropout=0.0, num_heads=4, num_kv_groups=1, qkv_bias=True)
    write("gqa_dropout_eval", "dropout 0.3 in eval mode, two groups of two", 42, GroupedQueryAttention, (3, 4, 4),
          d_in=4, d_out=8, context_length=5, dropout=0.3, num_heads=4, num_kv_groups=2, qkv_bias=True)
    write("gqa_window_4", "a sliding window of 4 tokens over 9, two groups of three heads", 43, GroupedQueryAttention,
          (2, 9, 6), d_in=6, d_out=12, context_length=10, dropout=0.0, num_heads=6, num_kv_groups=2, qkv_bias=True,
          window_size=4)

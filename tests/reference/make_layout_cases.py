#!/usr/bin/python3
"""Writes tests/data/layout_cases.json: PyTorch's own parameter and buffer layout of the three designs
the comparison view shows for one MultiHeadAttention call.

  integrated             MultiHeadAttention(d_in, d_out, context_length, dropout, num_heads, qkv_bias)
  wrapper_same_call      MultiHeadAttentionWrapper with the same arguments: num_heads heads of width d_out
  wrapper_matched_width  MultiHeadAttentionWrapper with d_out // num_heads per head (only when divisible)

For each design: named_parameters() (name, shape, numel) in registration order, named_buffers()
(the causal masks), the parameter total, and the output width measured by a forward pass. A design
PyTorch refuses to build (the integrated module's divisibility assert) is recorded as null.
Run with Debian's python3-torch:  /usr/bin/python3 tests/reference/make_layout_cases.py
"""
import json
import os
import torch
from book_modules import BOOK

MultiHeadAttention, MultiHeadAttentionWrapper = BOOK["MultiHeadAttention"], BOOK["MultiHeadAttentionWrapper"]

OUT = os.path.join(os.path.dirname(__file__), "..", "data", "layout_cases.json")

# (row name, d_in, d_out, context_length, num_heads, qkv_bias)
CASES = [
    ("gpt2_small", 768, 768, 1024, 12, False),
    ("gpt2_small_bias", 768, 768, 1024, 12, True),
    ("book_toy", 3, 2, 6, 2, False),
    ("book_toy_bias", 3, 2, 6, 2, True),
    ("odd_widths", 5, 6, 9, 3, False),
    ("odd_widths_bias", 5, 6, 9, 3, True),
    ("one_head", 4, 4, 5, 1, True),
    ("head_dim_1", 3, 4, 4, 4, False),
    ("head_dim_1_bias", 7, 5, 3, 5, True),
    ("rect_many_heads", 20, 64, 16, 16, True),
    ("d_in_wider", 9, 6, 2, 2, False),
    ("not_divisible", 8, 10, 4, 3, False),
    ("not_divisible_bias", 6, 7, 5, 2, True),
    ("gpt2_770", 768, 770, 8, 12, False),
]


def describe(module, d_in):
    params = [{"name": n, "shape": list(p.shape), "parameters": p.numel()} for n, p in module.named_parameters()]
    buffers = [{"name": n, "shape": list(b.shape)} for n, b in module.named_buffers()]
    with torch.no_grad():
        out = module.eval()(torch.rand(1, 2, d_in))
    return {
        "parameters": sum(p.numel() for p in module.parameters()),
        "output_width": out.shape[-1],
        "blocks": params,
        "buffers": buffers,
        "state_dict": list(module.state_dict().keys()),
    }


def case(name, d_in, d_out, context_length, num_heads, qkv_bias):
    kw = dict(d_in=d_in, context_length=context_length, dropout=0.0, num_heads=num_heads, qkv_bias=qkv_bias)
    try:
        integrated = describe(MultiHeadAttention(d_out=d_out, **kw), d_in)
    except AssertionError:  # "d_out must be divisible by num_heads"
        integrated = None
    same_call = describe(MultiHeadAttentionWrapper(d_out=d_out, **kw), d_in)
    matched = describe(MultiHeadAttentionWrapper(d_out=d_out // num_heads, **kw), d_in) \
        if d_out % num_heads == 0 else None
    call = (f"MultiHeadAttention(d_in={d_in}, d_out={d_out}, context_length={context_length}, dropout=0.0, "
            f"num_heads={num_heads}, qkv_bias={qkv_bias})")
    return {"name": name, "call": call, "integrated": integrated, "wrapper_same_call": same_call,
            "wrapper_matched_width": matched}


if __name__ == "__main__":
    torch.manual_seed(0)
    cases = [case(*c) for c in CASES]
    with open(OUT, "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} cases to {os.path.normpath(OUT)}")

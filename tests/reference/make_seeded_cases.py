#!/usr/bin/python3
"""Writes tests/data/seeded/*.safetensors: what `torch.manual_seed(seed)` followed by constructing one
of the book's modules (imported from resources/pytorch/, unchanged) gives, with every stage of one
forward pass. tests/core/test_seeded_reference checks that the app's init_weights draws the same
parameters bit for bit and that its traced forward reproduces every stage, dropout masks included.

Each file holds the module's state_dict, `x`, `expected.<stage>` for every stage in the book's
statement order, and in __metadata__: call, seed, training (0/1), dropout_seed (only when the forward
re-seeds first, as the book does before its dropout example), stages (the order), input ("book" or
"rand": torch.rand from a generator of its own seeded with seed + 1, which is what the app's random
input is). Run with Debian's python3-torch:  /usr/bin/python3 tests/reference/make_seeded_cases.py
"""
import os

import torch
from book_modules import BOOK, StageRecorder
from safetensors_writer import save_file

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "seeded")
BOOK_INPUTS = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
                            [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])
SLOTS = {
    "SimpleSelfAttention": [],
    "SelfAttention_v1": ["d_in", "d_out"],
    "SelfAttention_v2": ["d_in", "d_out", "qkv_bias"],
    "CausalAttention": ["d_in", "d_out", "context_length", "dropout", "qkv_bias"],
    "MultiHeadAttentionWrapper": ["d_in", "d_out", "context_length", "dropout", "num_heads", "qkv_bias"],
    "MultiHeadAttention": ["d_in", "d_out", "context_length", "dropout", "num_heads", "qkv_bias"],
    "GroupedQueryAttention": ["d_in", "d_out", "context_length", "dropout", "num_heads", "num_kv_groups",
                              "qkv_bias", "window_size"],
}


def fmt(v):
    return ("True" if v else "False") if isinstance(v, bool) else repr(v)


def write(name, cls, seed, x, training=False, dropout_seed=None, **kw):
    kw = {k: kw.get(k, False if k == "qkv_bias" else None) for k in SLOTS[cls]}
    call = f"{cls}(" + ", ".join(f"{k}={fmt(v)}" for k, v in kw.items()) + ")"
    torch.manual_seed(seed)
    module = BOOK[cls](**kw)
    module.train(training)
    if isinstance(x, tuple):  # the app's random input: torch.rand from a generator of its own
        x, source = torch.rand(*x, generator=torch.Generator().manual_seed(seed + 1)), "rand"
    else:
        source = "book"
    if dropout_seed is not None:
        torch.manual_seed(dropout_seed)
    with torch.no_grad():
        _, stages = StageRecorder(module)(x)
    tensors = {k: v for k, v in module.state_dict().items() if not k.endswith("mask")}
    tensors["x"] = x
    tensors.update({"expected." + k: v for k, v in stages.items() if k != "x"})
    meta = {"call": call, "seed": str(seed), "training": "1" if training else "0", "input": source,
            "stages": ",".join(stages), "torch": torch.__version__}
    if dropout_seed is not None:
        meta["dropout_seed"] = str(dropout_seed)
    save_file({k: v.detach().contiguous() for k, v in tensors.items()}, os.path.join(OUT, name + ".safetensors"), meta)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    book, batch = BOOK_INPUTS, torch.stack((BOOK_INPUTS, BOOK_INPUTS))
    # Section 3.3, no weights: d_in follows the input.
    write("simple_book", "SimpleSelfAttention", 123, book)
    write("simple_1x1", "SimpleSelfAttention", 0, (1, 1))
    write("simple_wide", "SimpleSelfAttention", 5, (4, 300))
    # 3.4: torch.rand parameters, then nn.Linear's kaiming_uniform_.
    write("v1_book_123", "SelfAttention_v1", 123, book, d_in=3, d_out=2)
    write("v1_1x1", "SelfAttention_v1", 1, (1, 1), d_in=1, d_out=1)
    write("v1_wide", "SelfAttention_v1", 2024, (3, 300), d_in=300, d_out=40)
    write("v2_book_789", "SelfAttention_v2", 789, book, d_in=3, d_out=2)
    write("v2_bias", "SelfAttention_v2", 7, (5, 4), d_in=4, d_out=3, qkv_bias=True)
    write("v2_1x1", "SelfAttention_v2", 0, (1, 1), d_in=1, d_out=1, qkv_bias=True)
    write("v2_wide", "SelfAttention_v2", 31337, (4, 96), d_in=96, d_out=160, qkv_bias=True)
    # 3.5: the causal mask, and dropout drawing from the stream the constructor left (or re-seeded).
    write("causal_book_123", "CausalAttention", 123, batch, d_in=3, d_out=2, context_length=6, dropout=0.0)
    write("causal_bias_seed_2p32", "CausalAttention", 2**32 + 5, (2, 4, 5), d_in=5, d_out=3, context_length=6,
          dropout=0.0, qkv_bias=True)
    write("causal_1x1", "CausalAttention", 3, (1, 1, 1), d_in=1, d_out=1, context_length=1, dropout=0.0)
    write("causal_train_stream", "CausalAttention", 11, (2, 5, 4), training=True, d_in=4, d_out=4,
          context_length=5, dropout=0.5)
    write("causal_book_dropout_789_123", "CausalAttention", 789, book.unsqueeze(0), training=True, dropout_seed=123,
          d_in=3, d_out=2, context_length=6, dropout=0.5)
    # 3.6.1: the wrapper's heads one after another.
    write("wrapper_book_123", "MultiHeadAttentionWrapper", 123, batch, d_in=3, d_out=2, context_length=6,
          dropout=0.0, num_heads=2)
    write("wrapper_book_d1_123", "MultiHeadAttentionWrapper", 123, batch, d_in=3, d_out=1, context_length=6,
          dropout=0.0, num_heads=2)
    write("wrapper_bias_3heads", "MultiHeadAttentionWrapper", 21, (2, 5, 4), d_in=4, d_out=2, context_length=5,
          dropout=0.0, num_heads=3, qkv_bias=True)
    write("wrapper_train_stream", "MultiHeadAttentionWrapper", 22, (1, 6, 3), training=True, d_in=3, d_out=2,
          context_length=6, dropout=0.3, num_heads=3)
    # 3.6.2: out_proj last.
    write("mha_book_123", "MultiHeadAttention", 123, batch, d_in=3, d_out=2, context_length=6, dropout=0.0,
          num_heads=2)
    write("mha_bias", "MultiHeadAttention", 42, (2, 7, 5), d_in=5, d_out=6, context_length=9, dropout=0.0,
          num_heads=3, qkv_bias=True)
    write("mha_1x1", "MultiHeadAttention", 9, (1, 1, 1), d_in=1, d_out=1, context_length=1, dropout=0.0,
          num_heads=1)
    write("mha_head_dim_1", "MultiHeadAttention", 33, (2, 4, 3), d_in=3, d_out=4, context_length=4, dropout=0.0,
          num_heads=4)
    write("mha_train_stream", "MultiHeadAttention", 77, (2, 6, 8), training=True, d_in=8, d_out=8,
          context_length=6, dropout=0.25, num_heads=4)
    write("mha_train_reseeded", "MultiHeadAttention", 99, (1, 5, 6), training=True, dropout_seed=7, d_in=6,
          d_out=6, context_length=8, dropout=0.1, num_heads=2, qkv_bias=True)
    write("mha_wide", "MultiHeadAttention", 1234, (1, 3, 200), d_in=200, d_out=64, context_length=4, dropout=0.0,
          num_heads=4, qkv_bias=True)
    # Grouped-query attention (resources/pytorch/GroupedQueryAttention.py): keys and values of num_kv_groups
    # heads, repeated for their groups; num_kv_groups = num_heads is MultiHeadAttention, 1 multi-query.
    write("gqa_book_123", "GroupedQueryAttention", 123, batch, d_in=3, d_out=4, context_length=6, dropout=0.0,
          num_heads=4, num_kv_groups=2)
    write("gqa_as_mha", "GroupedQueryAttention", 123, (2, 5, 8), d_in=8, d_out=8, context_length=6, dropout=0.0,
          num_heads=4, num_kv_groups=4)
    write("gqa_mqa_bias", "GroupedQueryAttention", 5, (2, 7, 12), d_in=12, d_out=12, context_length=7, dropout=0.0,
          num_heads=6, num_kv_groups=1, qkv_bias=True)
    write("gqa_bias_rect", "GroupedQueryAttention", 6, (3, 5, 6), d_in=6, d_out=8, context_length=9, dropout=0.0,
          num_heads=4, num_kv_groups=2, qkv_bias=True)
    write("gqa_head_dim_1", "GroupedQueryAttention", 8, (1, 4, 3), d_in=3, d_out=6, context_length=4, dropout=0.0,
          num_heads=6, num_kv_groups=3)
    write("gqa_1x1", "GroupedQueryAttention", 4, (1, 1, 1), d_in=1, d_out=1, context_length=1, dropout=0.0,
          num_heads=1, num_kv_groups=1)
    write("gqa_train_stream", "GroupedQueryAttention", 77, (2, 6, 8), training=True, d_in=8, d_out=8,
          context_length=6, dropout=0.25, num_heads=4, num_kv_groups=2)
    write("gqa_mqa_train_reseeded", "GroupedQueryAttention", 99, (1, 5, 6), training=True, dropout_seed=7, d_in=6,
          d_out=6, context_length=8, dropout=0.1, num_heads=3, num_kv_groups=1, qkv_bias=True)
    # A sliding window: each token sees at most window_size latest tokens (1 is only itself).
    write("gqa_window_3", "GroupedQueryAttention", 13, (2, 7, 6), d_in=6, d_out=8, context_length=8, dropout=0.0,
          num_heads=4, num_kv_groups=2, window_size=3)
    write("gqa_window_1_mqa", "GroupedQueryAttention", 14, (1, 5, 4), d_in=4, d_out=4, context_length=5, dropout=0.0,
          num_heads=2, num_kv_groups=1, qkv_bias=True, window_size=1)
    write("gqa_window_train", "GroupedQueryAttention", 15, (2, 6, 8), training=True, d_in=8, d_out=8,
          context_length=6, dropout=0.2, num_heads=4, num_kv_groups=4, window_size=2)
    write("gqa_wide", "GroupedQueryAttention", 1234, (1, 3, 200), d_in=200, d_out=64, context_length=4,
          dropout=0.0, num_heads=8, num_kv_groups=2, qkv_bias=True)

#!/usr/bin/python3
"""Writes the project's own PyTorch reference cases (tests/data/reference/*.safetensors).

The chapter-3 modules below are the book's, run in eval mode; every stage is recorded under the
canonical names of the golden README, so test_golden checks these files exactly like the shared
golden ones. Run with Debian's python3-torch:  /usr/bin/python3 tests/reference/make_reference_cases.py
"""
import os
import torch
import torch.nn as nn
from safetensors_writer import save_file

OUT = os.path.join(os.path.dirname(__file__), "..", "data", "reference")


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x, rec):
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        rec.update(queries=queries, keys=keys, values=values)
        attn_scores = queries @ keys.T
        rec["attn_scores"] = attn_scores.clone()
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        rec["attn_weights"] = attn_weights
        rec["context"] = attn_weights @ values
        return rec["context"]


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x, rec, prefix=""):
        b, num_tokens, d_in = x.shape
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        rec.update({prefix + "queries": queries, prefix + "keys": keys, prefix + "values": values})
        attn_scores = queries @ keys.transpose(1, 2)
        rec[prefix + "attn_scores"] = attn_scores.clone()
        attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        rec[prefix + "attn_scores.masked"] = attn_scores.clone()
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        rec[prefix + "attn_weights"] = attn_weights
        context_vec = attn_weights @ values
        rec[prefix + "context"] = context_vec
        return context_vec


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads)])

    def forward(self, x, rec):
        out = torch.cat([head(x, rec, f"heads.{i}.") for i, head in enumerate(self.heads)], dim=-1)
        rec["output"] = out
        return out


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

    def forward(self, x, rec):
        b, num_tokens, d_in = x.shape
        queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)
        rec.update(queries=queries, keys=keys, values=values)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim)
        rec.update({"queries.view": queries, "keys.view": keys, "values.view": values})
        queries, keys, values = queries.transpose(1, 2), keys.transpose(1, 2), values.transpose(1, 2)
        rec.update({"queries.heads": queries, "keys.heads": keys, "values.heads": values})
        attn_scores = queries @ keys.transpose(2, 3)
        rec["attn_scores"] = attn_scores.clone()
        attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        rec["attn_scores.masked"] = attn_scores.clone()
        attn_weights = self.dropout(torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1))
        rec["attn_weights"] = attn_weights
        context_vec = attn_weights @ values
        rec["context.heads"] = context_vec
        context_vec = context_vec.transpose(1, 2)
        rec["context.transposed"] = context_vec
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        rec["context.merged"] = context_vec
        rec["output"] = self.out_proj(context_vec)
        return rec["output"]


def fmt(v):
    return repr(v) if not isinstance(v, bool) else ("True" if v else "False")


def call_text(cls, **kw):
    return f"{cls.__name__}(" + ", ".join(f"{k}={fmt(v)}" for k, v in kw.items()) + ")"


def write(name, note, seed, cls, x_shape, **kw):
    torch.manual_seed(seed)
    module = cls(**kw).eval()
    x = torch.rand(*x_shape)
    rec = {}
    with torch.no_grad():
        module(x, rec)
    tensors = {k: v for k, v in module.state_dict().items() if not k.endswith("mask")}
    tensors["x"] = x
    for k, v in rec.items():
        tensors["expected." + k] = v
    meta = {"call": call_text(cls, **kw), "note": note, "torch": torch.__version__, "seed": str(seed)}
    save_file({k: v.detach().contiguous() for k, v in tensors.items()}, os.path.join(OUT, name + ".safetensors"), meta)


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

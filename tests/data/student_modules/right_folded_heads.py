# Not a mistake: a correct MultiHeadAttention written the way many tutorials do it. The heads are folded
# into the batch axis, (b * num_heads, num_tokens, head_dim), the products use torch.bmm, the scores are
# divided by sqrt(head_dim) before the mask (not inside the softmax call) and masked out of place with
# float("-inf"). Expected: no divergence -- the matcher reads that layout and that order of scaling.
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def split(self, t, b, num_tokens):
        return t.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2).reshape(
            b * self.num_heads, num_tokens, self.head_dim)

    def forward(self, x):
        b, num_tokens, _ = x.shape
        q = self.split(self.W_query(x), b, num_tokens)
        k = self.split(self.W_key(x), b, num_tokens)
        v = self.split(self.W_value(x), b, num_tokens)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(self.mask[:num_tokens, :num_tokens].bool(), float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))
        ctx = torch.bmm(weights, v)
        ctx = ctx.view(b, self.num_heads, num_tokens, self.head_dim).transpose(1, 2)
        return self.out_proj(ctx.reshape(b, num_tokens, self.d_out))

# Not a mistake: a correct MultiHeadAttention that stores few stages. The scores are never kept unmasked
# (torch.where builds the masked copy in one line), and the merged context goes into out_proj inline, so
# attn_scores and context.merged are never held by a variable. Right values downstream reach them:
# expected, no divergence.
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

    def forward(self, x):
        b, num_tokens, _ = x.shape
        shape = (b, num_tokens, self.num_heads, self.head_dim)
        q = self.W_query(x).view(shape).transpose(1, 2)
        k = self.W_key(x).view(shape).transpose(1, 2)
        v = self.W_value(x).view(shape).transpose(1, 2)
        future = self.mask[:num_tokens, :num_tokens].bool()
        masked = torch.where(future, torch.tensor(-torch.inf), q @ k.transpose(-2, -1))
        weights = torch.softmax(masked / self.head_dim ** 0.5, dim=-1)
        context = torch.einsum("bhts,bhsd->bthd", weights, v)
        return self.out_proj(context.flatten(2))

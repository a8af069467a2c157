# Not a mistake: SelfAttention_v1 with the scores computed inside the softmax call, as it is often
# written. attn_scores is never stored; the right attention weights reach it. Expected: no divergence.
import torch
import torch.nn as nn


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        keys, queries, values = x @ self.W_key, x @ self.W_query, x @ self.W_value
        attn_weights = torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1)
        return attn_weights @ values

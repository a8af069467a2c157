class SimpleSelfAttention(nn.Module):
    def forward(self, x):
        attn_scores = x @ x.T
        attn_weights = torch.softmax(attn_scores, dim=-1)
        context_vec = attn_weights @ x
        return context_vec

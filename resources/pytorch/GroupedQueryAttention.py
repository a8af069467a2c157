class GroupedQueryAttention(nn.Module):
    # Chapter 3's MultiHeadAttention with its keys and values narrowed to num_kv_groups heads, each shared
    # by num_heads // num_kv_groups query heads (grouped-query attention; num_kv_groups = num_heads is
    # MultiHeadAttention, 1 is multi-query attention). Written here, in the book's style, as the reference
    # the engine is checked against; Hugging Face configs call num_kv_groups num_key_value_heads.
    # window_size: a sliding window (each token sees at most the window_size latest tokens); None sees all.
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, num_kv_groups, qkv_bias=False,
                 window_size=None):
        super().__init__()
        assert (d_out % num_heads == 0), \
            "d_out must be divisible by num_heads"
        assert (num_heads % num_kv_groups == 0), \
            "num_heads must be divisible by num_kv_groups"

        self.d_out = d_out
        self.num_heads = num_heads
        self.num_kv_groups = num_kv_groups
        self.group_size = num_heads // num_kv_groups
        self.window_size = window_size
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, num_kv_groups * self.head_dim, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, num_kv_groups * self.head_dim, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)
        if window_size is not None:  # also hide the keys window_size or more tokens back
            mask = mask + torch.tril(torch.ones(context_length, context_length), diagonal=-window_size)
        self.register_buffer("mask", mask)

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)

        keys = keys.view(b, num_tokens, self.num_kv_groups, self.head_dim)
        values = values.view(b, num_tokens, self.num_kv_groups, self.head_dim)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)

        keys = keys.transpose(1, 2)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)

        keys = keys.repeat_interleave(self.group_size, dim=1)
        values = values.repeat_interleave(self.group_size, dim=1)

        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)

        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)

        context_vec = (attn_weights @ values).transpose(1, 2)

        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        context_vec = self.out_proj(context_vec)
        return context_vec

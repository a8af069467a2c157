"""The GPT of chapter 4 of "Build a Large Language Model (From Scratch)", as the book writes it.

Its attention is the book's chapter 3 MultiHeadAttention, taken from the project's one copy in
resources/pytorch/MultiHeadAttention.py, so the weights trained here are exactly the weights that
class (and the app's engine, which follows it) computes with. Parameter names therefore are the
book's state_dict names: tok_emb.weight, trf_blocks.0.att.W_query.weight, trf_blocks.0.norm1.scale,
trf_blocks.0.ff.layers.0.weight, final_norm.scale, out_head.weight, ...
"""

import importlib.util
import sys
from pathlib import Path

import torch
import torch.nn as nn

BOOK_PYTORCH_DIR = Path(__file__).resolve().parent.parent / "pytorch"


def _load_book_multi_head_attention(name="MultiHeadAttention"):
    """The class in resources/pytorch/<name>.py (MultiHeadAttention, or GroupedQueryAttention).

    That file is the bare class as the book prints it (the app shows it and prepends the imports when
    it exports a script), so it uses `torch` and `nn` without importing them. A plain `import` would
    fail with a NameError; instead the module is created from its spec with those two names already
    in its namespace, then executed.
    """
    if str(BOOK_PYTORCH_DIR) not in sys.path:
        sys.path.insert(0, str(BOOK_PYTORCH_DIR))
    spec = importlib.util.find_spec(name)
    if spec is None:
        raise ImportError(f"{name}.py not found in {BOOK_PYTORCH_DIR}")
    module = importlib.util.module_from_spec(spec)
    module.torch = torch
    module.nn = nn
    spec.loader.exec_module(module)
    sys.modules.setdefault(name, module)
    return getattr(module, name)


MultiHeadAttention = _load_book_multi_head_attention()
GroupedQueryAttention = _load_book_multi_head_attention("GroupedQueryAttention")


class LayerNorm(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.eps = 1e-5
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        norm_x = (x - mean) / torch.sqrt(var + self.eps)
        return self.scale * norm_x + self.shift


class GELU(nn.Module):
    """The tanh approximation of GELU, as the book writes it (not nn.GELU's exact erf form)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return 0.5 * x * (1 + torch.tanh(
            torch.sqrt(torch.tensor(2.0 / torch.pi)) *
            (x + 0.044715 * torch.pow(x, 3))
        ))


class FeedForward(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(cfg["emb_dim"], 4 * cfg["emb_dim"]),
            GELU(),
            nn.Linear(4 * cfg["emb_dim"], cfg["emb_dim"]),
        )

    def forward(self, x):
        return self.layers(x)


class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        # cfg["n_kv_groups"] (absent in the book) below n_heads: keys and values shared by groups of query heads.
        groups = cfg.get("n_kv_groups", cfg["n_heads"])
        # cfg["window_size"] (absent in the book): a sliding window, which only GroupedQueryAttention takes.
        if groups != cfg["n_heads"] or cfg.get("window_size") is not None:
            self.att = GroupedQueryAttention(
                d_in=cfg["emb_dim"],
                d_out=cfg["emb_dim"],
                context_length=cfg["context_length"],
                dropout=cfg["drop_rate"],
                num_heads=cfg["n_heads"],
                num_kv_groups=groups,
                qkv_bias=cfg["qkv_bias"],
                window_size=cfg.get("window_size"))
        else:
            self.att = MultiHeadAttention(
                d_in=cfg["emb_dim"],
                d_out=cfg["emb_dim"],
                context_length=cfg["context_length"],
                num_heads=cfg["n_heads"],
                dropout=cfg["drop_rate"],
                qkv_bias=cfg["qkv_bias"])
        self.ff = FeedForward(cfg)
        self.norm1 = LayerNorm(cfg["emb_dim"])
        self.norm2 = LayerNorm(cfg["emb_dim"])
        self.drop_shortcut = nn.Dropout(cfg["drop_rate"])

    def forward(self, x):
        shortcut = x
        x = self.norm1(x)
        x = self.att(x)
        x = self.drop_shortcut(x)
        x = x + shortcut

        shortcut = x
        x = self.norm2(x)
        x = self.ff(x)
        x = self.drop_shortcut(x)
        x = x + shortcut
        return x


class GPTModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
        self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
        self.drop_emb = nn.Dropout(cfg["drop_rate"])

        self.trf_blocks = nn.Sequential(
            *[TransformerBlock(cfg) for _ in range(cfg["n_layers"])])

        self.final_norm = LayerNorm(cfg["emb_dim"])
        self.out_head = nn.Linear(
            cfg["emb_dim"], cfg["vocab_size"], bias=False
        )

    def forward(self, in_idx):
        batch_size, seq_len = in_idx.shape
        tok_embeds = self.tok_emb(in_idx)
        pos_embeds = self.pos_emb(torch.arange(seq_len, device=in_idx.device))
        x = tok_embeds + pos_embeds
        x = self.drop_emb(x)
        x = self.trf_blocks(x)
        x = self.final_norm(x)
        logits = self.out_head(x)
        return logits


def weight_tensors(model):
    """The model's state_dict without the attention masks: those are buffers the constructor
    rebuilds from context_length, not weights, so the files leave them out (load with strict=False
    or rebuild them, as the book's own loading code does)."""
    return {name: t for name, t in model.state_dict().items() if not name.endswith(".mask")}

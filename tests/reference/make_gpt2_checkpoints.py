#!/usr/bin/python3
"""Writes small random-weight GPT-2 checkpoints and what a PyTorch GPT-2 forward of each file gives.

No `transformers` library is needed: GPT-2's forward is the book's chapter 4 GPTModel
(resources/training/gpt_model.py, qkv_bias=True) with the checkpoint's weights loaded as chapter 5's
load_weights_into_gpt does (c_attn split in three along its last axis and each part transposed, every
Conv1D weight transposed, the head tied to wte when the file has no lm_head), and the LayerNorm eps of
config.json. The weights are read back from the file written, so F16 files are checked on their stored
values widened to F32 (exact). GPT-2's vocabulary size (50257) with a narrow n_embd keeps each file small.

Checkpoints (tests/data/gpt2/):
  hf-f32/model.safetensors + config.json   Hugging Face names, F32, attn.bias mask buffers stored
  hf-f16/model.safetensors + config.json   "transformer."-prefixed names, F16, layer_norm_epsilon 1e-3
  book-ch5/gpt_ch5.safetensors + config.json   the book's state_dict names (qkv_bias=True), F16, own out_head
References (<name>.reference.safetensors): token_ids (as F32), for every layer L "layer{L}.x" (the attention
input: the block's norm1) and "layer{L}.<stage>" for every canonical stage of its MultiHeadAttention,
"logits.last" (vocab,) the last token's logits, "logits.head" (T, 1024) every token's first 1024 logits;
the top five next ids in the metadata.

    /usr/bin/python3 tests/reference/make_gpt2_checkpoints.py [--out DIR]
    /usr/bin/python3 tests/reference/make_gpt2_checkpoints.py --bench DIR   # GPT-2 small's shapes, random
"""

import argparse
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "resources" / "training"))
sys.path.insert(0, str(ROOT / "tests" / "reference"))

from gpt_model import GPTModel, weight_tensors  # noqa: E402
from make_gpt_reference import attention_stages  # noqa: E402
from safetensors_io import load_file, save_file  # noqa: E402

VOCAB = 50257
# "The quick brown fox jumps over the lazy dog." in GPT-2's ids, then <|endoftext|> and a repeat.
IDS = [464, 2068, 7586, 21831, 18045, 625, 262, 16931, 3290, 13, 50256, 464, 2068]


def random_hf(n_layer, n_embd, n_positions, generator, mask_buffers):
    """A GPT-2 state_dict in Hugging Face's names and Conv1D layouts, wide enough values that heads differ."""
    def normal(*shape, std=0.3):
        return torch.randn(*shape, generator=generator) * std

    d = n_embd
    sd = {"wte.weight": normal(VOCAB, d, std=0.5), "wpe.weight": normal(n_positions, d, std=0.5)}
    for i in range(n_layer):
        h = f"h.{i}."
        sd.update({
            h + "ln_1.weight": 1 + normal(d, std=0.1), h + "ln_1.bias": normal(d, std=0.1),
            h + "attn.c_attn.weight": normal(d, 3 * d), h + "attn.c_attn.bias": normal(3 * d, std=0.1),
            h + "attn.c_proj.weight": normal(d, d), h + "attn.c_proj.bias": normal(d, std=0.1),
            h + "ln_2.weight": 1 + normal(d, std=0.1), h + "ln_2.bias": normal(d, std=0.1),
            h + "mlp.c_fc.weight": normal(d, 4 * d), h + "mlp.c_fc.bias": normal(4 * d, std=0.1),
            h + "mlp.c_proj.weight": normal(4 * d, d, std=0.15), h + "mlp.c_proj.bias": normal(d, std=0.1),
        })
        if mask_buffers:  # GPT-2's causal mask, kept as a buffer in Hugging Face's files
            sd[h + "attn.bias"] = torch.tril(torch.ones(n_positions, n_positions)).view(1, 1, n_positions, n_positions)
    sd.update({"ln_f.weight": 1 + normal(d, std=0.1), "ln_f.bias": normal(d, std=0.1)})
    return sd


def hf_config(n_layer, n_head, n_embd, n_positions, eps):
    return {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "activation_function": "gelu_new",
            "n_layer": n_layer, "n_head": n_head, "n_embd": n_embd, "n_positions": n_positions, "n_ctx": n_positions,
            "vocab_size": VOCAB, "layer_norm_epsilon": eps, "n_inner": None}


def load_weights_into_gpt(gpt, sd, prefix):
    """Chapter 5's load_weights_into_gpt, for Hugging Face's state_dict names."""
    def assign(left, right):
        if left.shape != right.shape:
            raise ValueError(f"shape mismatch: {tuple(left.shape)} vs {tuple(right.shape)}")
        return torch.nn.Parameter(right.clone().detach())

    gpt.pos_emb.weight = assign(gpt.pos_emb.weight, sd[prefix + "wpe.weight"])
    gpt.tok_emb.weight = assign(gpt.tok_emb.weight, sd[prefix + "wte.weight"])
    for b, block in enumerate(gpt.trf_blocks):
        h = f"{prefix}h.{b}."
        q_w, k_w, v_w = torch.chunk(sd[h + "attn.c_attn.weight"], 3, dim=-1)
        block.att.W_query.weight = assign(block.att.W_query.weight, q_w.T)
        block.att.W_key.weight = assign(block.att.W_key.weight, k_w.T)
        block.att.W_value.weight = assign(block.att.W_value.weight, v_w.T)
        q_b, k_b, v_b = torch.chunk(sd[h + "attn.c_attn.bias"], 3, dim=-1)
        block.att.W_query.bias = assign(block.att.W_query.bias, q_b)
        block.att.W_key.bias = assign(block.att.W_key.bias, k_b)
        block.att.W_value.bias = assign(block.att.W_value.bias, v_b)
        block.att.out_proj.weight = assign(block.att.out_proj.weight, sd[h + "attn.c_proj.weight"].T)
        block.att.out_proj.bias = assign(block.att.out_proj.bias, sd[h + "attn.c_proj.bias"])
        block.ff.layers[0].weight = assign(block.ff.layers[0].weight, sd[h + "mlp.c_fc.weight"].T)
        block.ff.layers[0].bias = assign(block.ff.layers[0].bias, sd[h + "mlp.c_fc.bias"])
        block.ff.layers[2].weight = assign(block.ff.layers[2].weight, sd[h + "mlp.c_proj.weight"].T)
        block.ff.layers[2].bias = assign(block.ff.layers[2].bias, sd[h + "mlp.c_proj.bias"])
        block.norm1.scale = assign(block.norm1.scale, sd[h + "ln_1.weight"])
        block.norm1.shift = assign(block.norm1.shift, sd[h + "ln_1.bias"])
        block.norm2.scale = assign(block.norm2.scale, sd[h + "ln_2.weight"])
        block.norm2.shift = assign(block.norm2.shift, sd[h + "ln_2.bias"])
    gpt.final_norm.scale = assign(gpt.final_norm.scale, sd[prefix + "ln_f.weight"])
    gpt.final_norm.shift = assign(gpt.final_norm.shift, sd[prefix + "ln_f.bias"])
    gpt.out_head.weight = assign(gpt.out_head.weight, sd.get("lm_head.weight", sd[prefix + "wte.weight"]))


def book_cfg(n_layer, n_head, n_embd, n_positions):
    return {"vocab_size": VOCAB, "context_length": n_positions, "emb_dim": n_embd, "n_heads": n_head,
            "n_layers": n_layer, "drop_rate": 0.0, "qkv_bias": True}


def with_eps(gpt, eps):
    for module in gpt.modules():
        if hasattr(module, "eps"):
            module.eps = eps
    return gpt.eval()


def reference(gpt, n_layer, out_path, name):
    caught = {}
    hooks = [block.norm1.register_forward_hook(lambda m, a, o, i=i: caught.__setitem__(i, o))
             for i, block in enumerate(gpt.trf_blocks)]
    with torch.no_grad():
        logits = gpt(torch.tensor([IDS]))[0]
        for hook in hooks:
            hook.remove()
        tensors = {"token_ids": torch.tensor(IDS, dtype=torch.float32)}
        for layer in range(n_layer):
            tensors[f"layer{layer}.x"] = caught[layer]
            for stage, t in attention_stages(gpt.trf_blocks[layer].att, caught[layer]).items():
                tensors[f"layer{layer}.{stage}"] = t
    tensors["logits.last"] = logits[-1]
    tensors["logits.head"] = logits[:, :1024]
    top = torch.topk(logits[-1], 5).indices.tolist()
    meta = {"format": "attention-lab-gpt2-reference", "checkpoint": name, "token_ids": ",".join(map(str, IDS)),
            "top5": ",".join(map(str, top)), "torch": torch.__version__,
            "note": "book chapter 4 GPTModel with the file's weights loaded as chapter 5's load_weights_into_gpt"}
    save_file({k: v.contiguous() for k, v in tensors.items()}, out_path, meta)


def write_hf(folder, n_layer, n_head, n_embd, n_positions, eps, dtype, prefix, seed, mask_buffers):
    folder.mkdir(parents=True, exist_ok=True)
    sd = random_hf(n_layer, n_embd, n_positions, torch.Generator().manual_seed(seed), mask_buffers)
    save_file({prefix + k: v for k, v in sd.items()}, folder / "model.safetensors", {"format": "pt"}, dtype=dtype)
    config = hf_config(n_layer, n_head, n_embd, n_positions, eps)
    (folder / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    stored, _ = load_file(folder / "model.safetensors")  # the values as stored, widened to F32
    gpt = GPTModel(book_cfg(n_layer, n_head, n_embd, n_positions))
    load_weights_into_gpt(gpt, stored, prefix)
    return with_eps(gpt, eps)


def write_book(folder, n_layer, n_head, n_embd, n_positions, seed):
    folder.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(seed)
    cfg = book_cfg(n_layer, n_head, n_embd, n_positions)
    gpt = GPTModel(cfg)
    with torch.no_grad():  # nn.Linear's default init is too gentle for heads to differ
        for name, p in gpt.named_parameters():
            p.copy_(torch.randn_like(p) * (0.5 if "emb" in name else 0.3) + (1.0 if name.endswith("scale") else 0.0))
    save_file(weight_tensors(gpt), folder / "gpt_ch5.safetensors", {}, dtype="F16")
    (folder / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    stored, _ = load_file(folder / "gpt_ch5.safetensors")
    gpt.load_state_dict(stored, strict=False)
    return gpt.eval()


def bench(folder):
    """GPT-2 small's shapes with random weights (F32, tied head), for tests/bench; about 500 MB."""
    write_hf(folder, 12, 12, 768, 1024, 1e-5, "F32", "", 7, False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "gpt2")
    parser.add_argument("--bench", type=Path, default=None, help="write GPT-2 small's shapes to this folder only")
    args = parser.parse_args()
    torch.set_num_threads(1)
    if args.bench:
        bench(args.bench)
        print(f"wrote {args.bench}/model.safetensors")
        return
    out = args.out
    cases = [("hf-f32", 3, 2, write_hf(out / "hf-f32", 3, 2, 8, 16, 1e-5, "F32", "", 1, True)),
             ("hf-f16", 2, 4, write_hf(out / "hf-f16", 2, 4, 16, 16, 1e-3, "F16", "transformer.", 2, False)),
             ("book-ch5", 2, 2, write_book(out / "book-ch5", 2, 2, 8, 16, 3))]
    for name, n_layer, _, gpt in cases:
        reference(gpt, n_layer, out / f"{name}.reference.safetensors", name)
    for path in sorted(out.rglob("*")):
        if path.is_file():
            print(f"{path.relative_to(out)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Writes the PyTorch reference for one layer of a trained GPT on one text: what the app's C++ GPT
forward and its attention trace must reproduce (to 1e-4).

The model is the book's chapter 4 GPTModel (resources/training/gpt_model.py) holding the file's
weights exactly as stored (F16 values widened to F32, which is exact). The file written holds:
  token_ids           (T,) the simple tokenizer's ids, stored as F32 (exact below 2^24) because the
                      app's safetensors reader takes floating-point tensors only
  x                   (1, T, d) the layer's attention input: embeddings, blocks < L, then norm1
  expected.<stage>    every stage of that layer's MultiHeadAttention, canonical names of the golden
                      README (queries ... attn_weights ... context.merged, output)
  expected.logits     (1, T, vocab) the whole model's output

    /usr/bin/python3 tests/reference/make_gpt_reference.py               # the committed files
    /usr/bin/python3 tests/reference/make_gpt_reference.py --model F --layer 1 --text "..." --out G
"""

import argparse
import hashlib
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "resources" / "training"))

from gpt_model import GPTModel  # noqa: E402
from safetensors_io import load_file, save_file  # noqa: E402
from simple_tokenizer import read_story, verdict_tokenizer  # noqa: E402

DEFAULT_MODEL = ROOT / "resources" / "models" / "verdict-gpt-h4.safetensors"
DEFAULT_OUT_DIR = ROOT / "tests" / "data" / "gpt"


def first_sentence():
    story = read_story()
    return story[:story.index(".") + 1]


def load_model(path):
    """The book's GPTModel with the file's weights, in eval mode, and the file's metadata."""
    tensors, meta = load_file(path)
    if meta.get("format") != "attention-lab-gpt":
        raise ValueError(f"{path}: metadata format is {meta.get('format')!r}, not 'attention-lab-gpt'")
    cfg = {
        "vocab_size": int(meta["vocab_size"]),
        "context_length": int(meta["context_length"]),
        "emb_dim": int(meta["emb_dim"]),
        "n_layers": int(meta["n_layers"]),
        "n_heads": int(meta["n_heads"]),
        "drop_rate": float(meta["drop_rate"]),
        "qkv_bias": meta["qkv_bias"] == "true",
    }
    model = GPTModel(cfg)
    # The files leave out the causal-mask buffers (the constructor rebuilds them), so those are the
    # only keys allowed to be missing; anything else missing or unexpected is an error.
    missing, unexpected = model.load_state_dict(tensors, strict=False)
    if unexpected or any(not name.endswith(".mask") for name in missing):
        raise ValueError(f"{path}: missing {missing}, unexpected {unexpected}")
    return model.eval(), cfg, meta


def attention_stages(att, x):
    """The book's MultiHeadAttention.forward, step by step, recording each canonical stage."""
    rec = {}
    b, num_tokens, d_in = x.shape
    keys = att.W_key(x)
    queries = att.W_query(x)
    values = att.W_value(x)
    rec.update({"queries": queries, "keys": keys, "values": values})
    keys = keys.view(b, num_tokens, att.num_heads, att.head_dim)
    values = values.view(b, num_tokens, att.num_heads, att.head_dim)
    queries = queries.view(b, num_tokens, att.num_heads, att.head_dim)
    rec.update({"queries.view": queries, "keys.view": keys, "values.view": values})
    keys, queries, values = keys.transpose(1, 2), queries.transpose(1, 2), values.transpose(1, 2)
    rec.update({"queries.heads": queries, "keys.heads": keys, "values.heads": values})
    attn_scores = queries @ keys.transpose(2, 3)
    rec["attn_scores"] = attn_scores.clone()
    attn_scores.masked_fill_(att.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
    rec["attn_scores.masked"] = attn_scores.clone()
    attn_weights = att.dropout(torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1))
    rec["attn_weights"] = attn_weights
    context_vec = attn_weights @ values
    rec["context.heads"] = context_vec
    context_vec = context_vec.transpose(1, 2)
    rec["context.transposed"] = context_vec
    context_vec = context_vec.contiguous().view(b, num_tokens, att.d_out)
    rec["context.merged"] = context_vec
    rec["output"] = att.out_proj(context_vec)
    return rec


def make_reference(model_path, layer, text, out_path):
    model, cfg, model_meta = load_model(model_path)
    if not 0 <= layer < cfg["n_layers"]:
        raise ValueError(f"layer {layer} does not exist; the model has {cfg['n_layers']} layers")
    ids = verdict_tokenizer().encode(text)
    if not 1 <= len(ids) <= cfg["context_length"]:
        raise ValueError(f"the text has {len(ids)} tokens; 1 to {cfg['context_length']} fit the model")

    caught = {}
    block = model.trf_blocks[layer]
    hooks = [block.norm1.register_forward_hook(lambda m, args, out: caught.__setitem__("x", out)),
             block.att.register_forward_hook(lambda m, args, out: caught.__setitem__("output", out))]
    with torch.no_grad():
        logits = model(torch.tensor([ids]))
        for hook in hooks:
            hook.remove()
        stages = attention_stages(block.att, caught["x"])
    # The stepwise recomputation must be the module's own forward, not an approximation of it.
    if not torch.equal(stages["output"], caught["output"]):
        raise AssertionError("the recorded stages do not reproduce the module's output")

    tensors = {"token_ids": torch.tensor(ids, dtype=torch.float32), "x": caught["x"]}
    tensors.update({f"expected.{name}": t for name, t in stages.items()})
    tensors["expected.logits"] = logits
    digest = hashlib.sha256(Path(model_path).read_bytes()).hexdigest()
    meta = {
        "format": "attention-lab-gpt-reference",
        "model": Path(model_path).name,
        "model_sha256": digest,
        "layer": str(layer),
        "text": text,
        "token_ids": ",".join(str(i) for i in ids),
        "call": (f"MultiHeadAttention(d_in={cfg['emb_dim']}, d_out={cfg['emb_dim']}, "
                 f"context_length={cfg['context_length']}, dropout={cfg['drop_rate']}, "
                 f"num_heads={cfg['n_heads']}, qkv_bias={cfg['qkv_bias']})"),
        "note": ("book chapter 4 GPTModel in eval mode with the model file's weights as stored "
                 f"({model_meta.get('dtype_note', 'F32')}); x = embeddings through blocks < layer, then norm1"),
        "torch": torch.__version__,
    }
    save_file({name: t.contiguous() for name, t in tensors.items()}, out_path, meta, dtype="F32")
    return len(ids)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--layer", type=int, action="append", help="repeatable; default: every layer")
    parser.add_argument("--text", default=None, help="default: the story's first sentence")
    parser.add_argument("--out", type=Path, default=None,
                        help="output file (one layer) or folder (default tests/data/gpt)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    text = args.text if args.text is not None else first_sentence()
    _, cfg, _ = load_model(args.model)
    layers = args.layer if args.layer else list(range(cfg["n_layers"]))
    stem = args.model.name.removesuffix(".safetensors").replace("verdict-gpt-", "verdict-")
    for layer in layers:
        if args.out is not None and args.out.suffix == ".safetensors":
            if len(layers) != 1:
                parser.error("--out names a file, so give exactly one --layer")
            out = args.out
        else:
            folder = args.out or DEFAULT_OUT_DIR
            folder.mkdir(parents=True, exist_ok=True)
            out = folder / f"{stem}-layer{layer}.safetensors"
        n = make_reference(args.model, layer, text, out)
        print(f"wrote {out} ({n} tokens, {out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""PyTorch's side of tests/bench/kv_generate.sh: greedy generation through the book's chapter 4 GPTModel with a
Hugging Face GPT-2 checkpoint's weights (chapter 5's load_weights_into_gpt), eval mode, no_grad, with a KV cache
written the way the book's KV-cache bonus writes it (each block's attention keeps cache_k and cache_v, the new
token's keys and values concatenated along the token axis, the mask cut to the new rows) and without it (the
whole GPTModel.forward at every step). The prompt is the ids the app's bench feeds
((t * 7919 + 464) % vocab). Prints one line:
torch CACHED_MS_PER_TOKEN FULL_MS_PER_TOKEN MAX_LOGIT_DIFFERENCE MAX_ABS_LOGIT IDS (comma-separated, the cached
run's)."""
import argparse
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "resources" / "training"))
sys.path.insert(0, str(ROOT / "tests" / "reference"))

from torch_gpt2_forward import load_gpt2_folder  # noqa: E402  (beside this script)


def attention_with_cache(att, x, cache):
    """MultiHeadAttention.forward for the new rows x only, keys and values of earlier tokens from the cache."""
    b, num_tokens, _ = x.shape
    def heads(t):
        return t.view(b, num_tokens, att.num_heads, att.head_dim).transpose(1, 2)

    queries, keys_new, values_new = heads(att.W_query(x)), heads(att.W_key(x)), heads(att.W_value(x))
    if cache["k"] is None:
        cache["k"], cache["v"] = keys_new, values_new
    else:
        cache["k"] = torch.cat([cache["k"], keys_new], dim=2)
        cache["v"] = torch.cat([cache["v"], values_new], dim=2)
    keys, values = cache["k"], cache["v"]
    attn_scores = queries @ keys.transpose(2, 3)
    # Row i of the new tokens is token (seen - num_tokens + i): it sees the keys up to itself.
    seen = keys.shape[2]
    mask = torch.triu(torch.ones(num_tokens, seen, dtype=torch.bool), diagonal=seen - num_tokens + 1)
    attn_scores.masked_fill_(mask, -torch.inf)
    attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
    context_vec = (attn_weights @ values).transpose(1, 2).contiguous().view(b, num_tokens, att.d_out)
    return att.out_proj(context_vec)


def forward_with_cache(gpt, in_idx, caches, pos):
    """GPTModel.forward for tokens at positions [pos, pos + len): the last token's logits."""
    x = gpt.tok_emb(in_idx) + gpt.pos_emb(torch.arange(pos, pos + in_idx.shape[1]))
    for block, cache in zip(gpt.trf_blocks, caches):
        x = x + attention_with_cache(block.att, block.norm1(x), cache)
        x = x + block.ff(block.norm2(x))
    return gpt.out_head(gpt.final_norm(x[:, -1:]))[0, -1]


def generate(gpt, prompt, tokens, cached, follow=None):
    """Greedy ids, each step's logits and milliseconds."""
    ids, logits_seen, times = list(prompt), [], []
    caches = [{"k": None, "v": None} for _ in gpt.trf_blocks]
    for step in range(tokens):
        start = time.perf_counter()
        if not cached:
            logits = gpt(torch.tensor([ids]))[0, -1]
        elif step == 0:
            logits = forward_with_cache(gpt, torch.tensor([ids]), caches, 0)
        else:
            logits = forward_with_cache(gpt, torch.tensor([ids[-1:]]), caches, len(ids) - 1)
        times.append((time.perf_counter() - start) * 1000)
        logits_seen.append(logits)
        ids.append(follow[step] if follow else int(torch.argmax(logits)))
    return ids[len(prompt):], logits_seen, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--prompt", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    gpt, vocab = load_gpt2_folder(args.folder)
    prompt = [(t * 7919 + 464) % vocab for t in range(args.prompt)]
    with torch.no_grad():
        generate(gpt, prompt, 2, True)  # warm-up: first-touch pages, BLAS buffers
        ids, cached_logits, cached_ms = generate(gpt, prompt, args.tokens, True)
        _, full_logits, full_ms = generate(gpt, prompt, args.tokens, False, follow=ids)
    diff = max(float((a - b).abs().max()) for a, b in zip(cached_logits, full_logits))
    scale = max(float(a.abs().max()) for a in cached_logits)
    mean = lambda ms: sum(ms) / len(ms)  # noqa: E731
    print(f"torch {mean(cached_ms):.2f} {mean(full_ms):.2f} {diff:.2g} {scale:.3g} {','.join(map(str, ids))}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""PyTorch's side of tests/bench/overview_speed.sh: the book's chapter 4 GPTModel with a Hugging Face GPT-2
checkpoint's weights loaded as chapter 5's load_weights_into_gpt does, eval mode, no_grad, on the same ids
the app's bench feeds (position t holds (t * 7919 + 464) % vocab): the embeddings, every block and the final
norm, as GPTModel.forward runs them, but not out_head (the app's overview computes no logits either).
Prints the median and the fastest of the repeats in milliseconds, one line: torch MEDIAN_MS MIN_MS."""
import argparse
import json
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "resources" / "training"))
sys.path.insert(0, str(ROOT / "tests" / "reference"))

from gpt_model import GPTModel  # noqa: E402
from make_gpt2_checkpoints import book_cfg, load_weights_into_gpt, with_eps  # noqa: E402
from safetensors_io import load_file  # noqa: E402


def load_gpt2_folder(folder):
    """The book's GPTModel holding a GPT-2 folder's weights (config.json, model.safetensors), and its vocab size."""
    config = json.loads((folder / "config.json").read_text())
    stored, _ = load_file(folder / "model.safetensors")
    gpt = GPTModel(book_cfg(config["n_layer"], config["n_head"], config["n_embd"], config["n_positions"]))
    load_weights_into_gpt(gpt, stored, "")
    return with_eps(gpt, config.get("layer_norm_epsilon", 1e-5)), config.get("vocab_size", 50257)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    gpt, vocab = load_gpt2_folder(args.folder)
    ids = torch.tensor([[(t * 7919 + 464) % vocab for t in range(args.tokens)]])
    def every_layer(in_idx):
        x = gpt.tok_emb(in_idx) + gpt.pos_emb(torch.arange(in_idx.shape[1]))
        return gpt.final_norm(gpt.trf_blocks(gpt.drop_emb(x)))

    times = []
    with torch.no_grad():
        every_layer(ids)  # warm-up: first-touch pages, BLAS buffers
        for _ in range(args.repeat):
            start = time.perf_counter()
            every_layer(ids)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(f"torch {times[len(times) // 2]:.1f} {times[0]:.1f}")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""One training step of the book's GPTModel (resources/training/gpt_model.py) in PyTorch eager on one
thread: forward, cross-entropy, backward, torch.optim.AdamW. The settings default to the trainer benchmark's
(emb 32, 2 layers, context 32, vocab 16, batch 64, 4 heads). Prints the median milliseconds of --repeat
steps after a warm-up, of wall time and of the process's CPU time, like bench_train_step.

    /usr/bin/python3 tests/bench/torch_train_step.py [--heads H] [--repeat N]
"""
import argparse
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "resources" / "training"))
from gpt_model import GPTModel  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--emb", type=int, default=32)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--context", type=int, default=32)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--repeat", type=int, default=100)
    a = p.parse_args()
    torch.set_num_threads(1)
    cfg = {"vocab_size": 16, "context_length": a.context, "emb_dim": a.emb, "n_layers": a.layers,
           "n_heads": a.heads, "drop_rate": 0.0, "qkv_bias": False}
    torch.manual_seed(0)
    model = GPTModel(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    x = torch.randint(16, (a.batch, a.context))
    y = torch.randint(16, (a.batch, a.context))
    wall, cpu = [], []
    for step in range(a.repeat + 10):
        t0, c0 = time.perf_counter(), time.process_time()
        loss = torch.nn.functional.cross_entropy(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step >= 10:
            wall.append(1e3 * (time.perf_counter() - t0))
            cpu.append(1e3 * (time.process_time() - c0))
    wall.sort()
    cpu.sort()
    print(f"{wall[len(wall) // 2]:.3f} {cpu[len(cpu) // 2]:.3f}")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Replays a run that `attention-lab-cli train --dump-run FILE` recorded, in PyTorch, and checks it.

The file holds init.<state_dict name> for every initial parameter, the batches (inputs and targets, steps x
batch x context, -100 where a position is not scored) and the loss the C++ trainer computed at every step.
This script
  1. builds torch.manual_seed(seed); GPTModel(cfg) (resources/training/gpt_model.py, the book's model, with
     resources/pytorch/GroupedQueryAttention.py as its attention when the metadata names n_kv_groups or
     window_size) and
     asserts its parameters equal the recorded init.* tensors exactly,
  2. trains that model on the recorded batches with torch.optim.AdamW and the recorded settings,
  3. asserts the loss at every step equals the recorded loss to --rtol (1e-3 by default).

    /usr/bin/python3 tests/reference/replay_run.py RUN.safetensors [--rtol 1e-3]
    /usr/bin/python3 tests/reference/replay_run.py --cli build/app/attention-lab-cli --steps 200   # records one
Exit 0 when both hold, 1 otherwise (the first failing step is named).
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "resources" / "training"))
from gpt_model import GPTModel, weight_tensors  # noqa: E402

DTYPES = {"F32": torch.float32, "I64": torch.int64}


def load(path):
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        data = f.read()
    meta = header.pop("__metadata__", {})
    out = {}
    for name, e in header.items():
        begin, end = e["data_offsets"]
        flat = torch.frombuffer(bytearray(data[begin:end]), dtype=DTYPES[e["dtype"]])
        out[name] = flat.reshape(e["shape"]).clone()
    return out, meta


def replay(path, rtol):
    tensors, meta = load(path)
    cfg = {
        "vocab_size": int(meta["vocab_size"]),
        "context_length": int(meta["context_length"]),
        "emb_dim": int(meta["emb_dim"]),
        "n_layers": int(meta["n_layers"]),
        "n_heads": int(meta["n_heads"]),
        "drop_rate": float(meta["drop_rate"]),
        "qkv_bias": meta["qkv_bias"] == "true",
    }
    if "n_kv_groups" in meta:  # a grouped run: GroupedQueryAttention in every block
        cfg["n_kv_groups"] = int(meta["n_kv_groups"])
    if "window_size" in meta:  # a sliding window: GroupedQueryAttention(..., window_size=W) in every block
        cfg["window_size"] = int(meta["window_size"])
    torch.set_num_threads(1)
    torch.manual_seed(int(meta["seed"]))
    model = GPTModel(cfg)
    expected = weight_tensors(model)
    for name, t in expected.items():
        got = tensors.get("init." + name)
        if got is None or got.shape != t.shape or not torch.equal(got, t):
            diff = "missing" if got is None else f"max |diff| {(got - t).abs().max().item():.3g}"
            print(f"FAIL: init.{name} is not torch.manual_seed({meta['seed']}) + GPTModel(cfg)'s ({diff})")
            return 1
    extra = {n[5:] for n in tensors if n.startswith("init.")} - set(expected)
    if extra:
        print(f"FAIL: the dump has parameters GPTModel does not: {sorted(extra)}")
        return 1
    beta1, beta2 = (float(b) for b in meta["betas"].split(","))
    optimizer = torch.optim.AdamW(model.parameters(), lr=float(meta["lr"]), betas=(beta1, beta2),
                                  eps=float(meta["eps"]), weight_decay=float(meta["weight_decay"]))
    model.train()
    inputs, targets, recorded = tensors["inputs"], tensors["targets"], tensors["loss"]
    worst = 0.0
    for step in range(inputs.shape[0]):
        logits = model(inputs[step])
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), targets[step].flatten(), ignore_index=-100)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ours, theirs = recorded[step].item(), loss.item()
        rel = abs(ours - theirs) / max(abs(theirs), 1e-12)
        worst = max(worst, rel)
        if rel > rtol:
            print(f"FAIL: step {step + 1}: C++ loss {ours:.7g}, PyTorch {theirs:.7g} (relative {rel:.2g} > {rtol})")
            return 1
    print(f"ok: init equal to torch.manual_seed({meta['seed']}) + GPTModel(cfg); {inputs.shape[0]} steps, "
          f"largest relative loss difference {worst:.2g} (limit {rtol}); last loss {recorded[-1].item():.5f}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", nargs="?", help="a --dump-run file")
    parser.add_argument("--rtol", type=float, default=1e-3)
    parser.add_argument("--cli", help="record a run with this attention-lab-cli first")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--task", default="induction")
    parser.add_argument("--heads", default="4")
    parser.add_argument("--extra", default="", help="more train options, space-separated")
    args = parser.parse_args()
    if args.cli:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "run.safetensors")
            cmd = [args.cli, "train", "--task", args.task, "--steps", str(args.steps), "--seed", "0",
                   "--heads", args.heads, "--dump-run", path] + args.extra.split()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            return replay(path, args.rtol)
    if not args.run:
        parser.error("give a run file or --cli")
    return replay(args.run, args.rtol)


if __name__ == "__main__":
    sys.exit(main())

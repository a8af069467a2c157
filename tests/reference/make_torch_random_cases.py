#!/usr/bin/python3
"""Writes tests/data/torch_random_cases.json: what PyTorch's CPU generator draws after
torch.manual_seed(S), for the C++ copy in core/tensor/torch_random.{h,cpp} to match bit for bit.

  raw         the generator's 32-bit draws (seen as random_(0, 2**32 - 1), i.e. modulo 2^32 - 1)
              and 64-bit draws (random_(-2**63, None) keeps all 64 bits)
  rand        torch.rand(n)
  uniform     Tensor.uniform_(from, to) for bounds other than [0, 1)
  linear      nn.Linear(in, out, bias) weight and bias
  bounds      the kaiming and bias bounds Python computes, as float.hex()
  sequence    several modules built one after another from one seed (the order of draws)
  dropout     nn.Dropout(p) in training mode on ones or on torch.rand input drawn first

A tensor is stored as its element count, the SHA-256 of its float32 values as little-endian bytes,
and the bit patterns of its first and last few values (all of them when it is small).

PyTorch compiles its CPU kernels once per instruction set and picks one at run time. Its AVX2
build rounds uniform_'s x * (to - from) + from once (as an FMA would), the baseline build twice,
so the rounding-dependent cases are produced under both (ATEN_CPU_CAPABILITY=avx2 and =default,
each in a child process) and stored under "fused" and "separate".
Run with Debian's python3-torch:  /usr/bin/python3 tests/reference/make_torch_random_cases.py
"""
import hashlib
import json
import math
import os
import subprocess
import sys

OUT = os.path.join(os.path.dirname(__file__), "..", "data", "torch_random_cases.json")
SEEDS = [0, 1, 42, 123, 789, 2**32 + 5, 2**63 - 1, -1]
RAND_SIZES = [1, 2, 3, 7, 16, 17, 311, 623, 624, 625, 1247, 1248, 1249, 4096]
# (in_features, out_features): the book's toys, odd shapes, and GPT-2 small's projections.
LINEAR_SHAPES = [(1, 1), (3, 2), (2, 2), (5, 7), (7, 5), (64, 3), (768, 768), (768, 2304)]
# (name, [(in, out, bias), ...]): SelfAttention_v2 / CausalAttention, MultiHeadAttention(3, 2, 6, 0.0, 2)
# and a wrapper of two heads (three projections per head, then nothing else).
SEQUENCES = [
    ("v2-3x2", [(3, 2, False)] * 3),
    ("mha-3x2-2heads", [(3, 2, False)] * 3 + [(2, 2, True)]),
    ("mha-qkvbias", [(3, 4, True)] * 3 + [(4, 4, True)]),
    ("wrapper-2heads", [(3, 2, False)] * 6),
    ("gpt2-block", [(768, 768, True)] * 3 + [(768, 768, True)]),
]
# (p, rows, cols, input). For 0.025 and 0.123, 1 / float(1 - p) and float(1 / (1 - p)) are different
# floats, so these rows tell a divided mask from a precomputed double scale.
DROPOUT = [
    (0.025, 5, 8, "ones"), (0.123, 16, 16, "rand"),
    (0.5, 6, 6, "ones"), (0.5, 1, 1, "ones"), (0.1, 6, 6, "ones"), (0.1, 37, 41, "rand"),
    (0.2, 2, 6, "rand"), (0.3, 9, 9, "ones"), (0.7, 9, 9, "rand"), (0.9, 40, 25, "ones"),
    (0.0, 6, 6, "rand"), (1.0, 6, 6, "rand"), (0.5, 400, 300, "ones"), (0.1, 1024, 1024, "rand"),
]


def u64(seed):
    """What manual_seed stores: a negative Python seed is taken as its two's complement."""
    return seed % 2**64


def summary(t):
    import numpy as np
    bits = t.detach().contiguous().reshape(-1).numpy().astype("<f4").view("<u4")
    out = {"n": int(bits.size), "sha256": hashlib.sha256(bits.tobytes()).hexdigest()}
    if bits.size <= 64:
        out["bits"] = [int(b) for b in bits]
    else:
        out["head"] = [int(b) for b in bits[:8]]
        out["tail"] = [int(b) for b in bits[-8:]]
    return out


def seeded(seed):
    import torch
    torch.manual_seed(seed)
    return torch


def rounding_cases():
    """The cases whose values depend on how uniform_ rounds (any from != 0)."""
    import torch
    cases = {"uniform": [], "linear": [], "sequence": []}
    for seed in SEEDS:
        for n, lo, hi in [(5, -1.0, 1.0), (300, -0.25, 0.75), (1000, -3.5, 2.0)]:
            cases["uniform"].append({"name": f"uniform-{n}-seed{seed}", "seed": u64(seed), "n": n, "from": lo,
                                     "to": hi, "values": summary(seeded(seed).empty(n).uniform_(lo, hi))})
        for fan_in, fan_out in LINEAR_SHAPES:
            if fan_in * fan_out > 100000 and seed not in (0, 123):
                continue  # the big shapes for two seeds keep the run short
            for bias in (True, False):
                layer = seeded(seed).nn.Linear(fan_in, fan_out, bias=bias)
                case = {"name": f"linear-{fan_in}x{fan_out}{'' if bias else '-nobias'}-seed{seed}",
                        "seed": u64(seed), "in": fan_in, "out": fan_out, "bias": bias,
                        "weight": summary(layer.weight)}
                if bias:
                    case["bias_values"] = summary(layer.bias)
                cases["linear"].append(case)
    for name, layers in SEQUENCES:
        for seed in (123, 789, 2**63 - 1):
            torch.manual_seed(seed)
            params = []
            for fan_in, fan_out, bias in layers:
                layer = torch.nn.Linear(fan_in, fan_out, bias=bias)
                params += [summary(p) for p in layer.parameters()]
            cases["sequence"].append({"name": f"{name}-seed{seed}", "seed": u64(seed),
                                      "layers": [list(l) for l in layers], "params": params})
    return cases


def common_cases():
    import torch
    cases = {"raw": [], "rand": [], "dropout": [], "bounds": []}
    for seed in SEEDS:
        r32 = seeded(seed).empty(700, dtype=torch.int64).random_(0, 2**32 - 1)
        r64 = seeded(seed).empty(8, dtype=torch.int64).random_(-2**63, None)
        cases["raw"].append({"name": f"raw-seed{seed}", "seed": u64(seed),
                             "initial_seed": torch.initial_seed(), "random_mod": r32.tolist(),
                             "random64": [v % 2**64 for v in r64.tolist()]})
        for n in RAND_SIZES:
            cases["rand"].append({"name": f"rand-{n}-seed{seed}", "seed": u64(seed), "n": n,
                                  "values": summary(seeded(seed).rand(n))})
    for fan_in in [1, 2, 3, 5, 64, 768, 3072, 1000003]:
        # torch/nn/init.py's kaiming_uniform_ steps for nn.Linear's a=sqrt(5), then the bias bound.
        std = torch.nn.init.calculate_gain("leaky_relu", math.sqrt(5)) / math.sqrt(fan_in)
        bound = math.sqrt(3.0) * std
        cases["bounds"].append({"fan_in": fan_in, "weight": bound.hex(), "bias": (1 / math.sqrt(fan_in)).hex()})
    for seed in (123, 0, 789, 2**32 + 5):
        for p, rows, cols, kind in DROPOUT:
            torch.manual_seed(seed)
            x = torch.ones(rows, cols) if kind == "ones" else torch.rand(rows, cols)
            y = torch.nn.Dropout(p)(x)
            cases["dropout"].append({"name": f"dropout-p{p}-{rows}x{cols}-{kind}-seed{seed}", "seed": u64(seed),
                                     "p": p, "rows": rows, "cols": cols, "input": kind, "values": summary(y)})
    return cases


def child(capability):
    env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
    out = subprocess.run([sys.executable, __file__, "--child"], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        import torch
        torch.set_num_threads(1)
        json.dump(rounding_cases(), sys.stdout)
        sys.exit(0)
    import torch
    torch.set_num_threads(1)
    data = {"torch": torch.__version__, "mkl": torch.backends.mkl.is_available()}
    data.update(common_cases())
    data["fused"] = child("avx2")
    data["separate"] = child("default")
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    counts = {k: len(v) for k, v in data.items() if isinstance(v, list)}
    counts.update({f"{k}.{s}": len(v) for k in ("fused", "separate") for s, v in data[k].items()})
    print(f"wrote {os.path.normpath(OUT)} ({os.path.getsize(OUT)} bytes): {counts}")

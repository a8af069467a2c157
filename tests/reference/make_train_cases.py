#!/usr/bin/python3
"""Writes tests/data/train/*.safetensors: what PyTorch computes for the pieces of the C++ trainer in
core/train, for tests/core/test_train.cpp to match.

  normal.safetensors   Tensor.normal_() after torch.manual_seed(S) for sizes around the 16-element
                       blocks, drawn by the AVX2 build ("fused.*") and the baseline build ("separate.*",
                       ATEN_CPU_CAPABILITY=default in a child process); two tensors in a row, so the
                       serial path's cached second normal is exercised
  op_<name>.safetensors  one operation of the book's GPTModel: its inputs, a seeded upstream gradient
                       `dy`, its output `y` and autograd's gradient of sum(y * dy) for every input
  model_<name>.safetensors  torch.manual_seed(seed); GPTModel(cfg): init.<name> for every parameter,
                       ids and targets (-100 where not scored), the mean cross-entropy `loss` and
                       grad.<name> for every parameter; one case in train mode with dropout; three
                       with GroupedQueryAttention (n_kv_groups in the metadata)
  adamw.safetensors    torch.optim.AdamW's parameters after each of five steps from given gradients

Integers are stored as F32 (they are small and exact there), so the test reads every file with the
project's own reader. Run with Debian's python3-torch:  /usr/bin/python3 tests/reference/make_train_cases.py
"""
import math
import os
import subprocess
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "resources" / "training"))
from safetensors_writer import save_file  # noqa: E402
from gpt_model import GELU, GPTModel, LayerNorm, MultiHeadAttention  # noqa: E402

OUT = HERE.parent / "data" / "train"
NORMAL_SEEDS = [0, 123]
NORMAL_SIZES = [1, 2, 3, 15, 16, 17, 31, 33, 48, 100]
# name: (vocab, context, emb, layers, heads, qkv_bias, drop_rate, batch, tokens)
MODELS = {
    "tiny-1head": (7, 5, 4, 1, 1, False, 0.0, 2, 5),
    "two-layers-qkv-bias": (11, 6, 12, 2, 3, True, 0.0, 3, 4),
    "head-dim-1": (16, 9, 16, 2, 16, False, 0.0, 2, 9),
    "dropout-train": (13, 8, 8, 2, 2, False, 0.2, 2, 8),
    "head-dim-8-dropout": (10, 7, 16, 2, 2, True, 0.1, 3, 7),
    "context-40-dropout": (9, 40, 32, 2, 4, False, 0.1, 2, 37),
    "heads-as-lanes-dropout": (12, 10, 32, 2, 16, True, 0.1, 3, 10),
    # GroupedQueryAttention in every block: (..., n_kv_groups)
    "grouped-4-in-2": (9, 7, 16, 2, 4, False, 0.0, 2, 7, 2),
    "multi-query-bias-dropout": (10, 6, 12, 2, 3, True, 0.1, 2, 6, 1),
    "grouped-lanes-16-in-4": (12, 10, 32, 2, 16, False, 0.0, 2, 10, 4),
}


def normal_draws():
    out = {}
    for seed in NORMAL_SEEDS:
        for n in NORMAL_SIZES:
            torch.manual_seed(seed)
            a = torch.empty(n).normal_()
            b = torch.empty(n).normal_()
            out[f"seed{seed}.n{n}"] = torch.cat([a, b])
    return out


def attention_cases(case, shapes):
    """MultiHeadAttention between its projections (causal, no dropout) for each (heads, tokens, d_out)."""
    for heads, tokens, d in shapes:
        def attention_core(q, k, v, heads=heads, d=d):
            b, t, _ = q.shape
            hd = d // heads
            qh, kh, vh = (z.view(b, t, heads, hd).transpose(1, 2) for z in (q, k, v))
            s = qh @ kh.transpose(2, 3)
            s.masked_fill_(torch.triu(torch.ones(t, t), diagonal=1).bool(), -torch.inf)
            w = torch.softmax(s / hd ** 0.5, dim=-1)
            return (w @ vh).transpose(1, 2).contiguous().view(b, t, d)
        case(f"attention-h{heads}-t{tokens}-d{d}", attention_core,
             {"q": torch.randn(2, tokens, d), "k": torch.randn(2, tokens, d), "v": torch.randn(2, tokens, d)})


def op_cases():
    torch.manual_seed(7)
    cases = {}

    def case(name, fn, inputs):
        inputs = {k: v.clone().requires_grad_(v.dtype == torch.float32) for k, v in inputs.items()}
        y = fn(**inputs)
        dy = torch.randn(y.shape)
        (y * dy).sum().backward()
        t = {f"in.{k}": v.detach() for k, v in inputs.items()}
        t.update({f"grad.{k}": v.grad for k, v in inputs.items() if v.grad is not None})
        t.update({"y": y.detach(), "dy": dy})
        cases[name] = t

    lin = torch.nn.Linear(6, 5)
    case("linear", lambda x, w, b: torch.nn.functional.linear(x, w, b),
         {"x": torch.randn(7, 6), "w": lin.weight.detach(), "b": lin.bias.detach()})
    case("linear-no-bias", lambda x, w: torch.nn.functional.linear(x, w),
         {"x": torch.randn(4, 3), "w": torch.randn(9, 3)})
    def layer_norm(x, scale, shift):  # LayerNorm.forward with its parameters as inputs
        norm = LayerNorm(x.shape[-1])
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        return scale * ((x - mean) / torch.sqrt(var + norm.eps)) + shift
    case("layer-norm", layer_norm, {"x": torch.randn(6, 10) * 3 + 1, "scale": torch.randn(10), "shift": torch.randn(10)})
    case("gelu", lambda x: GELU()(x), {"x": torch.randn(5, 40) * 3})
    attention_cases(case, [(1, 5, 4), (2, 7, 6), (4, 3, 8), (8, 6, 8), (1, 6, 16), (2, 9, 24)])
    logits = torch.randn(9, 6) * 2
    targets = torch.tensor([0, 5, -100, 3, 3, -100, 1, 2, 4])
    loss = torch.nn.functional.cross_entropy
    x = logits.clone().requires_grad_(True)
    y = loss(x, targets, ignore_index=-100)
    y.backward()
    cases["cross-entropy"] = {"in.logits": logits, "in.targets": targets.float(), "y": y.detach().reshape(1),
                              "grad.logits": x.grad}
    # Contexts past one and two 16-position vector chunks, not multiples of 16 (drawn after the cases above,
    # so their fixtures stay as they were).
    attention_cases(case, [(2, 20, 16), (4, 33, 8), (1, 32, 3)])
    # Head counts that fill whole vectors, whose attention runs with the heads as the lanes (8, 16 and 32
    # heads with AVX2, 16 and 32 with AVX-512), at head_dim 1, 2 and 4 (drawn after the cases above).
    attention_cases(case, [(8, 20, 32), (16, 33, 32), (32, 32, 32), (16, 5, 16)])
    return cases


def adamw_case():
    """Five AdamW steps (lr 0.01, weight_decay 0.1, default betas and eps) on 37 values from given gradients."""
    torch.manual_seed(5)
    p = torch.nn.Parameter(torch.randn(37))
    start = p.detach().clone()
    grads = torch.randn(5, 37) * torch.tensor([1.0, 1e-3, 10.0, 0.1, 1.0]).unsqueeze(1)
    opt = torch.optim.AdamW([p], lr=0.01, weight_decay=0.1)
    after = []
    for g in grads:
        p.grad = g.clone()
        opt.step()
        after.append(p.detach().clone())
    return {"start": start, "grads": grads, "after": torch.stack(after)}


def model_case(vocab, context, emb, layers, heads, qkv_bias, drop, batch, tokens, groups=None, seed=11):
    cfg = {"vocab_size": vocab, "context_length": context, "emb_dim": emb, "n_layers": layers,
           "n_heads": heads, "drop_rate": drop, "qkv_bias": qkv_bias}
    if groups is not None:
        cfg["n_kv_groups"] = groups
    torch.manual_seed(seed)
    model = GPTModel(cfg)
    init = {f"init.{k}": v.detach().clone() for k, v in model.state_dict().items() if not k.endswith(".mask")}
    g = torch.Generator().manual_seed(seed + 1)
    ids = torch.randint(vocab, (batch, tokens), generator=g)
    targets = torch.randint(vocab, (batch, tokens), generator=g)
    targets[torch.rand(batch, tokens, generator=g) < 0.3] = -100
    targets[0, 0] = 1
    model.train(drop > 0)  # the dropout masks continue the default generator, after the constructor
    loss = torch.nn.functional.cross_entropy(model(ids).flatten(0, 1), targets.flatten(), ignore_index=-100)
    loss.backward()
    out = dict(init)
    out.update({f"grad.{k}": p.grad for k, p in model.named_parameters()})
    out.update({"ids": ids.float(), "targets": targets.float(), "loss": loss.detach().reshape(1)})
    meta = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in cfg.items()}
    meta.update({"seed": str(seed), "batch": str(batch), "tokens": str(tokens)})
    return out, meta


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--normal-only":
        save_file(normal_draws(), sys.argv[2], {})
        return
    OUT.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    normal = {f"fused.{k}": v for k, v in normal_draws().items()}
    tmp = OUT / "normal-separate.tmp"
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    subprocess.run([sys.executable, __file__, "--normal-only", str(tmp)], check=True, env=env)
    from safetensors_io import load_file  # noqa: E402
    separate, _ = load_file(tmp)
    tmp.unlink()
    normal.update({f"separate.{k}": v for k, v in separate.items()})
    save_file(normal, OUT / "normal.safetensors", {"torch": torch.__version__})
    for name, tensors in op_cases().items():
        save_file(tensors, OUT / f"op_{name}.safetensors", {"torch": torch.__version__})
    save_file(adamw_case(), OUT / "adamw.safetensors", {"torch": torch.__version__})
    for name, shape in MODELS.items():
        tensors, meta = model_case(*shape)
        meta["torch"] = torch.__version__
        save_file(tensors, OUT / f"model_{name}.safetensors", meta)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

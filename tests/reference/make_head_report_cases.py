#!/usr/bin/python3
"""Writes tests/data/heads/*.safetensors: what PyTorch computes for every head of the book's GPTModel on a
set of sequences, for tests/core/test_head_report.cpp to match (core/train/head_report.h states the
definitions; previous, first and entropy are resources/training/head_measures.py's).

Each file holds param.<state_dict name> for every parameter, ids and targets (batch x tokens, -100 where not
scored; F32, small integers are exact there), and per layer and head (layers x heads):
  previous, first, self, entropy  averaged over query positions 1 .. T-1 of every sequence
  induction, induction_positions  the share on s in 1 .. t-1 with x[s-1] = x[t], averaged over the query
                                  positions of all sequences that have such an s (0 when none)
  ablated_loss, ablated_accuracy  the held-out mean cross-entropy and accuracy with the head's slice of the
                                  context zeroed before out_proj (a forward pre-hook: the C++ side zeroes
                                  out_proj's columns instead, which must come to the same)
and loss, accuracy of the intact model. The measures are computed in float64 from PyTorch's float32 weights.

    /usr/bin/python3 tests/reference/make_head_report_cases.py
"""
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent / "resources" / "training"))
from gpt_model import GPTModel  # noqa: E402
from head_measures import attention_weights, head_measures  # noqa: E402
from safetensors_writer import save_file  # noqa: E402

OUT = HERE.parent / "data" / "heads"
# name: (vocab, context, emb, layers, heads, qkv_bias, train steps, held-out sequences, task)
CASES = {
    # Trained until its heads differ; more sequences than the C++ side's chunk of 64.
    "trained-2-heads": (8, 12, 16, 2, 2, False, 400, 80, "induction"),
    "random-4-heads-qkv-bias": (6, 10, 8, 2, 4, True, 0, 20, "induction"),
    "one-layer-head-dim-1": (5, 7, 4, 1, 4, False, 60, 30, "previous-token"),
}


def sequences(task, vocab, context, batch, gen):
    """Batches shaped like core/train/tasks.h's (the draws themselves need not match)."""
    ids = torch.randint(vocab, (batch, context), generator=gen)
    targets = torch.full((batch, context), -100)
    for b in range(batch):
        if task == "previous-token":
            targets[b, 1:] = ids[b, :-1]
            continue
        length = int(torch.randint(3, context // 3 + 1, (1,), generator=gen))
        s0 = int(torch.randint(0, context - 2 * length + 1, (1,), generator=gen))
        s1 = s0 + length + int(torch.randint(0, context - 2 * length - s0 + 1, (1,), generator=gen))
        ids[b, s1:s1 + length] = ids[b, s0:s0 + length]
        targets[b, s1:s1 + length - 1] = ids[b, s1 + 1:s1 + length]
    return ids, targets


def evaluate(model, ids, targets):
    with torch.no_grad():
        logits = model(ids)
    flat, t = logits.flatten(0, 1), targets.flatten()
    loss = torch.nn.functional.cross_entropy(flat, t, ignore_index=-100).item()
    scored = t != -100
    accuracy = (flat.argmax(dim=-1)[scored] == t[scored]).double().mean().item()
    return loss, accuracy


def shares(w, x):
    """previous, first, self, entropy (means over t = 1 .. T-1) and the induction sum and count of one head."""
    m = head_measures(w)
    t_len = w.shape[0]
    self_share = torch.diagonal(w)[1:].mean().item()
    total, count = 0.0, 0
    for t in range(1, t_len):
        targets = [s for s in range(1, t) if x[s - 1] == x[t]]
        if targets:
            total += w[t, targets].sum().item()
            count += 1
    return m["previous"], m["first"], self_share, m["entropy"], total, count


def case(vocab, context, emb, layers, heads, qkv_bias, steps, held, task, seed=3):
    cfg = {"vocab_size": vocab, "context_length": context, "emb_dim": emb, "n_layers": layers,
           "n_heads": heads, "drop_rate": 0.0, "qkv_bias": qkv_bias}
    torch.manual_seed(seed)
    model = GPTModel(cfg)
    gen = torch.Generator().manual_seed(seed + 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    for _ in range(steps):
        ids, targets = sequences(task, vocab, context, 32, gen)
        loss = torch.nn.functional.cross_entropy(model(ids).flatten(0, 1), targets.flatten(), ignore_index=-100)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    ids, targets = sequences(task, vocab, context, held, torch.Generator().manual_seed(seed + 2))
    sums = torch.zeros(6, layers, heads, dtype=torch.float64)
    for b in range(held):
        x = ids[b].tolist()
        for layer, w in enumerate(attention_weights(model, x)):
            for h in range(heads):
                sums[:, layer, h] += torch.tensor(shares(w[h].double(), x), dtype=torch.float64)
    out = {f"param.{k}": v.detach().clone() for k, v in model.state_dict().items() if not k.endswith(".mask")}
    out.update({"ids": ids.float(), "targets": targets.float()})
    for i, name in enumerate(["previous", "first", "self", "entropy"]):
        out[name] = sums[i] / held
    out["induction"] = torch.where(sums[5] > 0, sums[4] / sums[5].clamp(min=1), torch.zeros_like(sums[4]))
    out["induction_positions"] = sums[5]
    loss, accuracy = evaluate(model, ids, targets)
    out["loss"], out["accuracy"] = torch.tensor([loss]), torch.tensor([accuracy])
    hd = emb // heads
    ablated = torch.zeros(2, layers, heads, dtype=torch.float64)
    for layer, block in enumerate(model.trf_blocks):
        for h in range(heads):
            def zero_head(module, args, h=h):
                ctx = args[0].clone()
                ctx[..., h * hd:(h + 1) * hd] = 0
                return (ctx,)
            hook = block.att.out_proj.register_forward_pre_hook(zero_head)
            ablated[:, layer, h] = torch.tensor(evaluate(model, ids, targets), dtype=torch.float64)
            hook.remove()
    out["ablated_loss"], out["ablated_accuracy"] = ablated[0], ablated[1]
    meta = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in cfg.items()}
    meta.update({"seed": str(seed), "steps": str(steps), "task": task, "torch": torch.__version__})
    return out, meta


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    for name, settings in CASES.items():
        tensors, meta = case(*settings)
        save_file(tensors, OUT / f"{name}.safetensors", meta)
        print(f"{name}: loss {tensors['loss'].item():.4f}, accuracy {tensors['accuracy'].item():.3f}; previous "
              f"{tensors['previous'].tolist()}, induction {tensors['induction'].tolist()}")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

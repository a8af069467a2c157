"""Per-head attention measures of a trained GPT on one text: what makes heads visibly different.

For each layer and head, from that head's attention weights w (T x T, causal, rows sum to 1),
averaged over the query positions i = 1 .. T-1 (position 0 can only attend to itself, so it says
nothing about the head):
  distance  mean attention distance, sum_j w[i, j] * (i - j), in tokens
  entropy   -sum_j w[i, j] * ln w[i, j], in nats (uniform over i+1 tokens would be ln(i+1))
  previous  w[i, i-1], the share on the previous token
  first     w[i, 0], the share on the first token
The app computes the same four numbers from its own trace; these definitions are the contract.
"""

import torch


def attention_weights(model, ids):
    """Per layer, the attention weights (num_heads, T, T) of `model` (eval mode) on token ids.

    The book's MultiHeadAttention returns only its output, so the weights are recomputed from each
    block's input to `att` (caught with a forward hook) with the class's own steps: project, split
    into heads, Q K^T, causal mask, softmax of scores / sqrt(head_dim).
    """
    inputs = []
    hooks = [block.att.register_forward_hook(lambda module, args, out: inputs.append(args[0]))
             for block in model.trf_blocks]
    try:
        with torch.no_grad():
            model(torch.tensor([ids]))
    finally:
        for hook in hooks:
            hook.remove()
    weights = []
    for block, x in zip(model.trf_blocks, inputs):
        att = block.att
        b, t, _ = x.shape
        q = att.W_query(x).view(b, t, att.num_heads, att.head_dim).transpose(1, 2)
        k = att.W_key(x).view(b, t, att.num_heads, att.head_dim).transpose(1, 2)
        scores = q @ k.transpose(2, 3)
        scores.masked_fill_(att.mask.bool()[:t, :t], -torch.inf)
        weights.append(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1)[0])
    return weights


def head_measures(w):
    """The four measures of one head's weights w (T x T), as a dict of floats."""
    t = w.shape[0]
    if t < 2:
        raise ValueError("the measures need at least two tokens")
    rows = w[1:]  # query positions 1 .. T-1
    i = torch.arange(1, t, dtype=w.dtype).unsqueeze(1)
    j = torch.arange(t, dtype=w.dtype).unsqueeze(0)
    distance = (rows * (i - j).clamp(min=0)).sum(dim=1)
    # 0 * ln 0 counts as 0 (the masked entries).
    entropy = -(rows * torch.where(rows > 0, rows.log(), torch.zeros_like(rows))).sum(dim=1)
    previous = rows[torch.arange(t - 1), torch.arange(t - 1)]
    first = rows[:, 0]
    return {"distance": distance.mean().item(), "entropy": entropy.mean().item(),
            "previous": previous.mean().item(), "first": first.mean().item()}


def measure_table(model, ids):
    """[(layer, head, measures)] for every head of every layer."""
    table = []
    for layer, w in enumerate(attention_weights(model, ids)):
        for head in range(w.shape[0]):
            table.append((layer, head, head_measures(w[head])))
    return table


def format_table(table):
    lines = ["layer head  distance  entropy  previous  first"]
    for layer, head, m in table:
        lines.append(f"{layer:5d} {head:4d}  {m['distance']:8.2f}  {m['entropy']:7.2f}"
                     f"  {m['previous']:8.2f}  {m['first']:5.2f}")
    return "\n".join(lines)

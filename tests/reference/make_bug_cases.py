#!/usr/bin/python3
"""Writes the PyTorch reference for the debugging lessons:

  tests/data/bug_cases.json + tests/data/bug_cases/*.safetensors
      the book's MultiHeadAttention and each catalogued bug written literally in PyTorch, run on the same
      weights and input; the first stage, in the order the book's forward computes them (keys before
      queries), where the buggy run differs, and how:
      shape, values (rtol 1e-4, atol 1e-5, non-finite exact) or error (PyTorch's own message).
  tests/data/transfer_cases.json + tests/data/transfer_cases/*.safetensors
      the SelfAttention_v2 -> SelfAttention_v1 weight copy with lines left out or written without .T.

The .safetensors files hold the module's state_dict (torch names) and `x`, so the C++ tests run on the
very same numbers. Run with Debian's python3-torch:  /usr/bin/python3 tests/reference/make_bug_cases.py
"""
import json
import os

import torch
import torch.nn as nn
from book_modules import BOOK
from safetensors_writer import save_file

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
# The book's statement order: keys, queries, values; the views keys, values, queries; the transposes keys,
# queries, values.
COMPUTED, VIEWED, TRANSPOSED = ["keys", "queries", "values"], ["keys", "values", "queries"], ["keys", "queries", "values"]
ORDER = ["x", *COMPUTED, *(r + ".view" for r in VIEWED), *(r + ".heads" for r in TRANSPOSED), "attn_scores", "attn_scores.masked", "attn_weights", "context.heads",
         "context.transposed", "context.merged", "output"]


class Recorder(dict):
    """Stage name -> a copy of what the code holds right after the line that produces it."""
    current = "config"

    def begin(self, name):
        self.current = name

    def put(self, value):
        self[self.current] = value.detach().clone()  # clone: masked_fill_ works in place
        return value


class MultiHeadAttention(nn.Module):
    """The book's module; `bug` switches one line, exactly as the C++ catalogue describes it."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False, bug=None):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out, self.num_heads, self.head_dim, self.bug = d_out, num_heads, d_out // num_heads, bug
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        diagonal = 0 if bug == "mask-diagonal-0" else 1
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=diagonal))

    def forward(self, x, rec):
        bug = self.bug
        b, num_tokens, d_in = x.shape
        rec.begin("x")
        rec.put(x)
        layers = {"queries": self.W_query, "keys": self.W_key, "values": self.W_value}
        qkv = {}
        for role in COMPUTED:
            rec.begin(role)
            qkv[role] = rec.put(layers[role](x))
        for role in VIEWED:
            rec.begin(role + ".view")
            if bug == "view-heads-first":
                qkv[role] = rec.put(qkv[role].view(b, self.num_heads, num_tokens, self.head_dim))
            else:
                qkv[role] = rec.put(qkv[role].view(b, num_tokens, self.num_heads, self.head_dim))
        for role in TRANSPOSED:
            rec.begin(role + ".heads")
            if bug not in ("skip-head-transpose", "view-heads-first"):
                qkv[role] = qkv[role].transpose(1, 2)
            rec.put(qkv[role])
        queries, keys, values = qkv["queries"], qkv["keys"], qkv["values"]

        rec.begin("attn_scores")
        attn_scores = rec.put(queries @ keys.transpose(2, 3))
        rec.begin("attn_scores.masked")
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        if bug != "skip-mask":
            attn_scores.masked_fill_(mask_bool, -torch.inf)
        rec.put(attn_scores)
        rec.begin("attn_weights")
        scale = self.d_out ** 0.5 if bug == "scale-by-d_out" else keys.shape[-1] ** 0.5
        attn_weights = rec.put(torch.softmax(attn_scores / scale, dim=-2 if bug == "softmax-wrong-dim" else -1))
        attn_weights = self.dropout(attn_weights)

        rec.begin("context.heads")
        context_vec = rec.put(attn_weights @ values)
        rec.begin("context.transposed")
        if bug != "merge-without-transpose":
            context_vec = context_vec.transpose(1, 2)
        rec.put(context_vec)
        rec.begin("context.merged")
        if bug != "skip-contiguous":
            context_vec = context_vec.contiguous()
        context_vec = rec.put(context_vec.view(b, num_tokens, self.d_out))
        rec.begin("output")
        if bug != "skip-out-proj":
            context_vec = self.out_proj(context_vec)
        return rec.put(context_vec)


def run(module, x):
    rec = Recorder()
    try:
        module(x, rec)
        return rec, None
    except RuntimeError as e:
        return rec, (rec.current, str(e))


def first_divergence(expected, observed, failure):
    for name in ORDER:
        e = expected[name]
        if name not in observed:
            stage, message = failure
            assert stage == name, (stage, name)
            return {"stage": name, "kind": "error", "expected_shape": list(e.shape), "observed_shape": None,
                    "message": message}
        o = observed[name]
        if e.shape != o.shape:
            return {"stage": name, "kind": "shape", "expected_shape": list(e.shape), "observed_shape": list(o.shape)}
        if not torch.isclose(o, e, rtol=1e-4, atol=1e-5, equal_nan=True).all():
            return {"stage": name, "kind": "values", "expected_shape": list(e.shape), "observed_shape": list(o.shape)}
    return None


def bug_case(name, setting, d_in, d_out, context_length, num_heads, bug, batch, tokens, qkv_bias=False, seed=0):
    """One setting's weights and x are shared by every bug (same seed, same file)."""
    torch.manual_seed(seed)
    book = MultiHeadAttention(d_in, d_out, context_length, 0.0, num_heads, qkv_bias).eval()
    x = torch.rand(batch, tokens, d_in)
    weights = {k: v for k, v in book.state_dict().items() if k != "mask"}  # the mask is a buffer, not a weight
    call = (f"MultiHeadAttention({d_in}, {d_out}, {context_length}, 0.0, {num_heads}"
            + (", qkv_bias=True)" if qkv_bias else ")"))
    save_file({**weights, "x": x}, os.path.join(DATA, "bug_cases", setting + ".safetensors"), {"call": call})
    expected, failure = run(book, x)
    assert failure is None
    try:
        if bug == "swap-d_in-d_out":  # the call's slots swapped; x keeps width d_in
            buggy = MultiHeadAttention(d_out, d_in, context_length, 0.0, num_heads, qkv_bias).eval()
            if d_in == d_out:
                buggy.load_state_dict(weights, strict=False)
        else:
            buggy = MultiHeadAttention(d_in, d_out, context_length, 0.0, num_heads, qkv_bias, bug).eval()
            buggy.load_state_dict(weights, strict=False)
    except AssertionError as e:
        first = {"stage": "config", "kind": "error", "expected_shape": None, "observed_shape": None, "message": str(e)}
    else:
        observed, failure = run(buggy, x)
        first = first_divergence(expected, observed, failure)
    return {"name": name, "call": call, "bug": bug, "batch": batch, "tokens": tokens,
            "file": "bug_cases/" + setting + ".safetensors", "first_divergence": first}


# The book's classes, unchanged, from resources/pytorch (book_modules.py). MultiHeadAttention above
# stays a copy of its own: it is the book's forward with each bug written into it.
SelfAttention_v1, SelfAttention_v2 = BOOK["SelfAttention_v1"], BOOK["SelfAttention_v2"]


def transfer_case(name, d_in, d_out, omit=(), no_transpose=(), tokens=6, seed=0):
    torch.manual_seed(seed)
    sa_v2, sa_v1 = SelfAttention_v2(d_in, d_out), SelfAttention_v1(d_in, d_out)
    x = torch.rand(tokens, d_in)
    tensors = {**sa_v2.state_dict(), **{"target." + k: v for k, v in sa_v1.state_dict().items()}, "x": x}
    save_file(tensors, os.path.join(DATA, "transfer_cases", name + ".safetensors"), {})
    with torch.no_grad():
        for role in ("query", "key", "value"):
            attr = "W_" + role
            if role in omit:
                continue
            weight = getattr(sa_v2, attr).weight
            setattr(sa_v1, attr, nn.Parameter(weight if role in no_transpose else weight.T))
        expected = sa_v2(x)
        result = {"status": None, "max_abs_diff": None, "pytorch_error": None}
        try:
            observed = sa_v1(x)
        except RuntimeError as e:
            result.update(status="error", pytorch_error=str(e))
        else:
            close = torch.allclose(observed, expected, rtol=1e-4, atol=1e-5)
            result.update(status="match" if close else "mismatch",
                          max_abs_diff=float((observed - expected).abs().max()))
    return {"name": name, "d_in": d_in, "d_out": d_out, "omit": list(omit), "no_transpose": list(no_transpose),
            "file": "transfer_cases/" + name + ".safetensors", **result}


def main():
    os.makedirs(os.path.join(DATA, "bug_cases"), exist_ok=True)
    os.makedirs(os.path.join(DATA, "transfer_cases"), exist_ok=True)
    bugs = ["skip-head-transpose", "view-heads-first", "skip-mask", "mask-diagonal-0", "scale-by-d_out",
            "softmax-wrong-dim", "skip-contiguous", "merge-without-transpose", "skip-out-proj", "swap-d_in-d_out"]
    # (name, d_in, d_out, context_length, num_heads, batch, tokens[, qkv_bias]): where bugs show and hide.
    settings = {
        "book": (3, 2, 6, 2, 2, 6),            # the book's toy: two heads of head_dim 1, six tokens
        "two-heads": (3, 4, 8, 2, 2, 6),
        "heads-eq-tokens": (3, 6, 8, 3, 2, 3),  # num_heads == num_tokens: shapes agree, values do not
        "one-head": (3, 4, 8, 1, 2, 6),
        "one-token": (3, 4, 8, 2, 2, 1),
        "tiny": (3, 1, 4, 1, 2, 1),             # one head, one token, head_dim 1
        "square": (4, 4, 8, 2, 2, 5),           # d_in == d_out
        "bias": (8, 12, 16, 3, 1, 5, True),
    }
    cases = []
    for bug in bugs:
        for index, (key, s) in enumerate(settings.items()):
            cases.append(bug_case(f"{bug}.{key}", key, *s[:4], bug, *s[4:6], qkv_bias=len(s) > 6, seed=index))
    with open(os.path.join(DATA, "bug_cases.json"), "w") as f:
        json.dump({"generator": "tests/reference/make_bug_cases.py", "torch": torch.__version__, "cases": cases},
                  f, indent=1)

    transfers = [
        transfer_case("book", 3, 2),
        transfer_case("omit-key", 3, 2, omit=["key"]),
        transfer_case("omit-all", 3, 2, omit=["query", "key", "value"]),
        transfer_case("no-T-value-rect", 3, 2, no_transpose=["value"]),
        transfer_case("no-T-key-wide", 2, 5, no_transpose=["key"]),
        transfer_case("no-T-query-square", 3, 3, no_transpose=["query"]),
        transfer_case("no-T-all-square", 4, 4, no_transpose=["query", "key", "value"]),
        transfer_case("omit-query-no-T-key", 3, 2, omit=["query"], no_transpose=["key"]),
        transfer_case("square-book", 4, 4),
    ]
    with open(os.path.join(DATA, "transfer_cases.json"), "w") as f:
        json.dump({"generator": "tests/reference/make_bug_cases.py", "torch": torch.__version__,
                   "cases": transfers}, f, indent=1)
    for c in cases:
        fd = c["first_divergence"]
        print(f'{c["name"]:38s}', "none" if fd is None else f'{fd["stage"]} {fd["kind"]} {fd.get("message", "")}')
    for t in transfers:
        print(f'{t["name"]:38s}', t["status"], t["max_abs_diff"], t["pytorch_error"] or "")


if __name__ == "__main__":
    main()

"""The book's canonical stages for a recording: which of the book's five modules the recorded weights fit,
and what each stage of that module holds when it runs on those weights and the recorded input.

Which module (from the recorded parameters' names; buffers such as the student's mask are never used):
  heads.{h}.W_query.weight ...   -> MultiHeadAttentionWrapper (one CausalAttention per head)
  W_query as a 2-D parameter     -> SelfAttention_v1 (x @ W, W is (d_in, d_out))
  W_query.weight with a num_kv_groups attribute, or W_key.weight narrower than W_query.weight
                                 -> GroupedQueryAttention (the project's module, written in the book's style)
  W_query.weight with out_proj.*, or with a num_heads attribute -> MultiHeadAttention
  W_query.weight with a "mask" buffer, or "causal" in the class name -> CausalAttention
  W_query.weight otherwise       -> SelfAttention_v2
num_heads comes from the recorded attributes (num_heads, else d_out // head_dim); num_kv_groups from the
num_kv_groups attribute, else W_key.weight's rows // head_dim; window_size from its attribute (none: None). The book's module is
built with context_length = num_tokens (the mask is cut to num_tokens anyway), dropout 0, and the
book's own mask. A MultiHeadAttention without out_proj parameters gets every stage but `output`, which
stays None (nothing to compute it with). When the weights fit no module or cannot take the recorded
input, `problem` says why in one sentence: the first divergence is then the "config" stage.

Stage names and order follow the golden README; wrapper stages are each head's single-head stages
prefixed "heads.{h}." in head order, then `output`. A Reference holds, besides `stages` and `shapes`:
  feeds   stage -> the stages computed directly from it, the book's data flow (queries -> queries.view
          -> queries.heads -> attn_scores -> attn_scores.masked -> attn_weights -> context.heads -> ...
          -> output, with keys and values joining in);
  chains  runs of stages derived from one another by layout operations only (view, transpose,
          contiguous): [queries, queries.view, queries.heads], likewise keys and values, and
          [context.heads, context.transposed, context.merged];
  forms   a stage's other accepted values: attn_scores and attn_scores.masked divided by
          sqrt(head_dim), because the book divides inside the softmax call and many learners first;
  extras  values that are right but no stage: keys transposed for the product, and the input `x`.
"""
import importlib.util
import os
import re
import sys

import torch
import torch.nn as nn

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BOOK = os.path.join(REPO, "resources", "pytorch")
ROLES = ("queries", "keys", "values")
LAYERS = {"queries": "W_query", "keys": "W_key", "values": "W_value"}


def load_source(path, name, extra=None):
    """Imports a chapter file as a real module, so the book's snippets (no imports of their own) and the
    recorder's source lookups work on it: torch and nn are provided, and `extra` names (a head class)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.torch, module.nn = torch, nn
    module.__dict__.update(extra or {})
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def book_classes():
    causal = load_source(os.path.join(BOOK, "CausalAttention.py"), "book_CausalAttention").CausalAttention
    classes = {"CausalAttention": causal}
    for name in ("SelfAttention_v1", "SelfAttention_v2", "MultiHeadAttention", "GroupedQueryAttention"):
        classes[name] = getattr(load_source(os.path.join(BOOK, name + ".py"), "book_" + name), name)
    wrapper = load_source(os.path.join(BOOK, "MultiHeadAttentionWrapper.py"), "book_MultiHeadAttentionWrapper",
                          {"CausalAttention": causal})
    classes["MultiHeadAttentionWrapper"] = wrapper.MultiHeadAttentionWrapper
    return classes


class ReferenceBug(Exception):
    """This reference itself is wrong; never reported as the learner's divergence."""


class Reference:
    def __init__(self, module, problem=None):
        self.module, self.problem = module, problem
        self.stages, self.shapes, self.chains, self.extras, self.forms, self.feeds = {}, {}, [], {}, {}, {}

    def put(self, name, tensor, shape=None, inputs=()):
        self.stages[name] = tensor
        self.shapes[name] = tuple(tensor.shape) if tensor is not None else shape
        self.feeds[name] = []
        for source in inputs:
            self.feeds[source].append(name)


def which_module(rec):
    params, meta = rec.parameters, rec.meta
    if any(re.match(r"heads\.\d+\.W_query\.weight$", k) for k in params):
        return "MultiHeadAttentionWrapper"
    if "W_query" in params and params["W_query"].dim() == 2:
        return "SelfAttention_v1"
    if "W_query.weight" not in params:
        return None
    key = params.get("W_key.weight")
    narrower = key is not None and key.dim() == 2 and key.shape[0] < params["W_query.weight"].shape[0]
    if "num_kv_groups" in rec.attributes or narrower:
        return "GroupedQueryAttention"
    if "out_proj.weight" in params or "num_heads" in rec.attributes:
        return "MultiHeadAttention"
    has_mask = any(s["key"] == "mask" and s["kind"] == "buffer" for s in meta["state"])
    return "CausalAttention" if has_mask or "causal" in meta["class"].lower() else "SelfAttention_v2"


def book_stages(rec, classes):
    kind, x = which_module(rec), rec.input
    if kind is None:
        return Reference(None, "the recorded weights fit none of the book's five attention modules.")
    try:
        with torch.no_grad():
            return globals()["_" + kind](rec, classes[kind], x)
    except (RuntimeError, ValueError, KeyError) as exc:
        return Reference(kind, f"the recorded weights and input do not fit the book's {kind}: {exc}")


def _load(module, params, allowed_missing=()):
    missing, unexpected = module.load_state_dict(params, strict=False)
    missing = [k for k in missing if k != "mask" and not k.endswith(".mask") and k not in allowed_missing]
    if missing or unexpected:
        raise ValueError(f"missing {missing}, unexpected {unexpected}")


def _single_head(ref, prefix, project, x, causal):
    """The single-head stages; `project(role, x)` applies that role's projection."""
    for role in ROLES:
        ref.put(prefix + role, project(role, x))  # inputs: x, which is no stage
    keys = ref.stages[prefix + "keys"]
    ref.extras[prefix + "keys.T"] = keys.transpose(-2, -1)
    scores = ref.stages[prefix + "queries"] @ keys.transpose(-2, -1)
    scale, last = keys.shape[-1] ** 0.5, prefix + "attn_scores"
    ref.put(last, scores, inputs=[prefix + "queries", prefix + "keys"])
    ref.forms[last] = [scores / scale]
    if causal:
        n = x.shape[-2]
        scores = scores.masked_fill(torch.triu(torch.ones(n, n), diagonal=1).bool(), -torch.inf)
        ref.put(prefix + "attn_scores.masked", scores, inputs=[last])
        last = prefix + "attn_scores.masked"
        ref.forms[last] = [scores / scale]
    ref.put(prefix + "attn_weights", torch.softmax(scores / scale, dim=-1), inputs=[last])
    ref.put(prefix + "context", ref.stages[prefix + "attn_weights"] @ ref.stages[prefix + "values"],
            inputs=[prefix + "attn_weights", prefix + "values"])
    return ref.stages[prefix + "context"]


def _check_input(x, dims, d_in):
    if x.dim() != dims or x.shape[-1] != d_in:
        raise ValueError(f"it takes {dims}-D input of width {d_in}, the recorded x is {tuple(x.shape)}")


def _SelfAttention_v1(rec, cls, x):
    d_in, d_out = rec.parameters["W_query"].shape
    _check_input(x, 2, d_in)
    ref, module = Reference("SelfAttention_v1"), cls(d_in, d_out)
    _load(module, rec.parameters)
    _single_head(ref, "", lambda role, x: x @ getattr(module, LAYERS[role]), x, causal=False)
    return _verified(ref, module, x, "context")


def _SelfAttention_v2(rec, cls, x):
    d_out, d_in = rec.parameters["W_query.weight"].shape
    _check_input(x, 2, d_in)
    ref, module = Reference("SelfAttention_v2"), cls(d_in, d_out, "W_query.bias" in rec.parameters)
    _load(module, rec.parameters)
    _single_head(ref, "", lambda role, x: getattr(module, LAYERS[role])(x), x, causal=False)
    return _verified(ref, module, x, "context")


def _CausalAttention(rec, cls, x):
    d_out, d_in = rec.parameters["W_query.weight"].shape
    _check_input(x, 3, d_in)
    ref, module = Reference("CausalAttention"), cls(d_in, d_out, x.shape[1], 0.0, "W_query.bias" in rec.parameters)
    _load(module.eval(), rec.parameters)
    _single_head(ref, "", lambda role, x: getattr(module, LAYERS[role])(x), x, causal=True)
    return _verified(ref, module, x, "context")


def _MultiHeadAttentionWrapper(rec, cls, x):
    heads = 1 + max(int(k.split(".")[1]) for k in rec.parameters if k.startswith("heads."))
    d_out, d_in = rec.parameters["heads.0.W_query.weight"].shape
    _check_input(x, 3, d_in)
    bias = "heads.0.W_query.bias" in rec.parameters
    ref, module = Reference("MultiHeadAttentionWrapper"), cls(d_in, d_out, x.shape[1], 0.0, heads, bias)
    _load(module.eval(), rec.parameters)
    contexts = [_single_head(ref, f"heads.{h}.", lambda role, x, h=h: getattr(module.heads[h], LAYERS[role])(x),
                             x, causal=True) for h in range(heads)]
    ref.put("output", torch.cat(contexts, dim=-1), inputs=[f"heads.{h}.context" for h in range(heads)])
    return _verified(ref, module, x, "output")


def _MultiHeadAttention(rec, cls, x):
    d_out, d_in = rec.parameters["W_query.weight"].shape
    _check_input(x, 3, d_in)
    num_heads = rec.attributes.get("num_heads")
    if not isinstance(num_heads, int) and isinstance(rec.attributes.get("head_dim"), int):
        num_heads = d_out // rec.attributes["head_dim"]
    if not isinstance(num_heads, int) or num_heads < 1 or d_out % num_heads:
        raise ValueError(f"num_heads {num_heads!r} does not split d_out {d_out}")
    b, n = x.shape[:2]
    head_dim, has_out = d_out // num_heads, "out_proj.weight" in rec.parameters
    ref = Reference("MultiHeadAttention")
    module = cls(d_in, d_out, n, 0.0, num_heads, "W_query.bias" in rec.parameters).eval()
    _load(module, rec.parameters, () if has_out else ("out_proj.weight", "out_proj.bias"))
    # In the book's statement order (the stepper's too): keys, queries, values; the views keys, values,
    # queries; the transposes keys, queries, values. The first stage not reached is first in this order.
    for role in ("keys", "queries", "values"):
        ref.put(role, getattr(module, LAYERS[role])(x))
    for role in ("keys", "values", "queries"):
        ref.put(role + ".view", ref.stages[role].view(b, n, num_heads, head_dim), inputs=[role])
    for role in ("keys", "queries", "values"):
        ref.put(role + ".heads", ref.stages[role + ".view"].transpose(1, 2), inputs=[role + ".view"])
        ref.chains.append([role, role + ".view", role + ".heads"])
    ref.extras["keys.heads.T"] = ref.stages["keys.heads"].transpose(2, 3)
    mask = torch.triu(torch.ones(n, n), diagonal=1).bool()
    return _scores_to_output(ref, module if has_out else None, x, mask, "keys.heads", "values.heads")


def _GroupedQueryAttention(rec, cls, x):
    d_out, d_in = rec.parameters["W_query.weight"].shape
    _check_input(x, 3, d_in)
    attrs = rec.attributes
    num_heads = attrs.get("num_heads")
    if not isinstance(num_heads, int) and isinstance(attrs.get("head_dim"), int):
        num_heads = d_out // attrs["head_dim"]
    if not isinstance(num_heads, int) or num_heads < 1 or d_out % num_heads:
        raise ValueError(f"num_heads {num_heads!r} does not split d_out {d_out}")
    b, n = x.shape[:2]
    head_dim, has_out = d_out // num_heads, "out_proj.weight" in rec.parameters
    groups = attrs.get("num_kv_groups")
    if not isinstance(groups, int):
        groups = rec.parameters["W_key.weight"].shape[0] // head_dim
    window = attrs.get("window_size") if isinstance(attrs.get("window_size"), int) else None
    if groups < 1 or num_heads % groups:
        raise ValueError(f"num_kv_groups {groups} does not divide num_heads {num_heads}")
    ref = Reference("GroupedQueryAttention")
    module = cls(d_in, d_out, n, 0.0, num_heads, groups, "W_query.bias" in rec.parameters, window).eval()
    _load(module, rec.parameters, () if has_out else ("out_proj.weight", "out_proj.bias"))
    # The module's statement order, as the engine traces it: the projections, the views, the transposes, then
    # each key/value head repeated for its group of query heads (repeat_interleave copies).
    for role in ("keys", "queries", "values"):
        ref.put(role, getattr(module, LAYERS[role])(x))
    for role in ("keys", "values", "queries"):
        ref.put(role + ".view", ref.stages[role].view(b, n, num_heads if role == "queries" else groups, head_dim),
                inputs=[role])
    for role in ("keys", "queries", "values"):
        ref.put(role + ".heads", ref.stages[role + ".view"].transpose(1, 2), inputs=[role + ".view"])
        ref.chains.append([role, role + ".view", role + ".heads"])
    for role in ("keys", "values"):
        ref.put(role + ".repeated", ref.stages[role + ".heads"].repeat_interleave(num_heads // groups, dim=1),
                inputs=[role + ".heads"])
    ref.extras["keys.heads.T"] = ref.stages["keys.heads"].transpose(2, 3)  # multi-query code broadcasts it
    ref.extras["keys.repeated.T"] = ref.stages["keys.repeated"].transpose(2, 3)
    return _scores_to_output(ref, module if has_out else None, x, module.mask.bool()[:n, :n], "keys.repeated",
                             "values.repeated")


def _scores_to_output(ref, module, x, mask, keys, values):
    """The integrated modules from the scores on: queries.heads against `keys` (the heads, or the repeated
    heads), the mask (causal, and a window's), softmax(scores / sqrt(head_dim)), the weights against `values`, the
    heads merged back and out_proj; `module` None when the recording has no out_proj (no output then)."""
    b, _, n, head_dim = ref.stages["queries.heads"].shape
    d_out = ref.stages["queries"].shape[-1]
    ref.put("attn_scores", ref.stages["queries.heads"] @ ref.stages[keys].transpose(2, 3),
            inputs=["queries.heads", keys])
    ref.forms["attn_scores"] = [ref.stages["attn_scores"] / head_dim ** 0.5]
    ref.put("attn_scores.masked", ref.stages["attn_scores"].masked_fill(mask, -torch.inf), inputs=["attn_scores"])
    ref.forms["attn_scores.masked"] = [ref.stages["attn_scores.masked"] / head_dim ** 0.5]
    ref.put("attn_weights", torch.softmax(ref.forms["attn_scores.masked"][0], dim=-1), inputs=["attn_scores.masked"])
    ref.put("context.heads", ref.stages["attn_weights"] @ ref.stages[values], inputs=["attn_weights", values])
    ref.put("context.transposed", ref.stages["context.heads"].transpose(1, 2), inputs=["context.heads"])
    ref.put("context.merged", ref.stages["context.transposed"].contiguous().view(b, n, d_out),
            inputs=["context.transposed"])
    ref.chains.append(["context.heads", "context.transposed", "context.merged"])
    if module is not None:
        ref.put("output", module.out_proj(ref.stages["context.merged"]), inputs=["context.merged"])
        return _verified(ref, module, x, "output")
    ref.put("output", None, (b, n, d_out), inputs=["context.merged"])
    return _verified(ref, None, x, None)


def _verified(ref, module, x, last):
    """Our stage-by-stage run must end where the book's own forward does, or the stages are not the book's."""
    ref.extras["x"] = x
    if module is not None and not torch.allclose(module(x), ref.stages[last], rtol=1e-6, atol=1e-7):
        raise ReferenceBug(f"the stages of {ref.module} disagree with its own forward")
    return ref

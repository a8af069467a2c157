"""The reference matcher: the first canonical stage a recorded module does not reach, its kind and line.
The app's C++ matcher follows these rules exactly; tests/data/student_modules/expected.json pins them.

Inputs: a recording (read_recording.py) and the book's stages on its weights and input (book_stages.py).
Only events whose tensor is floating point take part (F32 in the file); bool and integer tensors (the
mask) and tensor-less events are skipped. Events are taken in recorded (execution) order, all scopes
together: matching is by value, never by variable name or scope.

1. close(a, e): same shape; where e is finite, a is finite and |a - e| <= 1e-5 + 1e-4 * |e|; where e is
   not finite (the mask's -inf), a equals it exactly (NaN matches only NaN). Computed in float64.
2. An event HOLDS stage s when close(event, f) for s's value f in s's shape, or -- when the event's
   tensor is contiguous, its storage holding its numbers in row-major order -- close(event reshaped
   row-major to s's shape, f): a stage is reached when a recorded tensor holds its values in any
   shape, the same numbers in the same order in memory, as a view of them would. A transposed tensor
   is not contiguous, so context.transposed does not hold context.merged: the copy contiguous() makes
   is a stage of its own, the one a missing contiguous() never reaches. Besides the stage's
   value, f may be one of its accepted forms: attn_scores and attn_scores.masked divided by
   sqrt(head_dim) (sqrt(d_out) for the single-head modules), as learners often scale before the
   softmax call rather than inside it; those forms have the stage's shape. So a (b*num_heads, T,
   head_dim) layout holds the heads, the view-heads-first mistake's (b, H, T, hd) tensor holds
   keys.view (same numbers, another split), and `(attn_weights @ values).reshape(b, T, d_out)` holds
   context.heads: what such code never reaches is the transpose after them.
3. Stage s is REACHED at the first event that holds it, or where any stage computed from it in the
   book's data flow is reached (reach(s) = the smallest such event index; book_stages.py's `feeds`).
   The issue states this for layout operations (queries.heads reaches queries.view and queries;
   context.merged reaches context.transposed and context.heads); it is taken for every operation,
   because right values downstream mean the upstream stage was right wherever it was computed, and
   learners compute stages inline far beyond layout: `torch.softmax(queries @ keys.T / d**0.5, -1)`
   or `self.out_proj(ctx.flatten(2))` never store attn_scores or context.merged, and must not be
   reported. A stage the book cannot compute (`output` without out_proj weights) is never reached.
4. The FIRST DIVERGENCE s* is the first stage, in the book's order, that is not reached; none -> null.
   If the weights fit no book module or cannot take the recorded input, s* is "config" and no event is
   explained (step 5 then finds the first float event, or the error, or the return).
5. ANCHOR = the largest reach() of the stages before s* (-1 if none). An event is EXPLAINED when it
   holds any stage, or equals (in its shape) a value the book uses without naming it: keys transposed
   for the product (keys.heads.transpose(2, 3); keys.transpose(-2, -1) for one head), or the input x.
   An event is RELAID when it holds stages only in another shape than theirs and has the shape of s*
   or of a later stage of s*'s layout chain: the right numbers in the missing stage's shape but laid
   out as an earlier stage (a view where the book transposes). W = the first relaid event, wherever it
   is, or else the first float event after the anchor that is not explained: the first wrong tensor.
6. KIND and LINE:
   - W exists: kind "values" if W's shape is the shape of s* or of a later stage of s*'s layout
     chain (the data is wrong, the shape is not); otherwise "shape" (also for a layout of another
     shape that rule 2 would read, such as (b*num_heads, T, T) scores: the shapes do differ).
     line/scope/variable are W's.
   - no W, the forward raised: kind "error"; line/scope are the error event's.
   - no W, forward returned: kind "missing" (everything computed is right, s* was never computed);
     line is that of the top module's return event.
   `line` is the first line of the statement in the scope's file, as recorded.
"""
import torch

RTOL, ATOL = 1e-4, 1e-5


def close(a, e):
    if a.shape != e.shape:
        return False
    a, e = a.double(), e.double()
    finite = torch.isfinite(e)
    ok_finite = torch.isfinite(a) & ((a - e).abs() <= ATOL + RTOL * e.abs())
    ok_other = (a == e) | (torch.isnan(a) & torch.isnan(e))
    return bool(torch.where(finite, ok_finite, ok_other).all())


def holds(event, value, forms):
    """`forms`: the stage's value and its accepted forms, all in the stage's shape."""
    shape = forms[0].shape
    if value.shape != shape:
        if not event["contiguous"] or value.numel() != forms[0].numel():
            return False
        value = value.reshape(shape)
    return any(close(value, f) for f in forms)


def stage_forms(ref):
    return {s: [t] + ref.forms.get(s, []) for s, t in ref.stages.items() if t is not None}


def float_events(rec):
    out = []
    for e in rec.events:
        v = rec.value(e)
        if v is not None and v.is_floating_point():
            out.append((e, v))
    return out


def reach_indices(ref, events):
    first, forms = {s: None for s in ref.stages}, stage_forms(ref)
    for e, v in events:
        for s, f in forms.items():
            if first[s] is None and holds(e, v, f):
                first[s] = e["index"]
    reach = dict(first)
    for s in reversed(list(ref.stages)):  # stages come after every stage they are computed from
        later = [reach[t] for t in ref.feeds.get(s, []) if reach[t] is not None]
        if later and (reach[s] is None or min(later) < reach[s]):
            reach[s] = min(later)
    return reach


def explained(ref, event, value):
    if any(holds(event, value, f) for f in stage_forms(ref).values()):
        return True
    return any(close(value, extra) for extra in ref.extras.values())


def relaid(ref, event, value, shapes):
    """Holds stages, none in its own shape, and has a shape of s*'s layout chain (`shapes`)."""
    if tuple(value.shape) not in shapes or any(close(value, extra) for extra in ref.extras.values()):
        return False
    held = [f for f in stage_forms(ref).values() if holds(event, value, f)]
    return bool(held) and all(f[0].shape != value.shape for f in held)


def layout_successors(ref, stage):
    for chain in ref.chains:
        if stage in chain:
            return chain[chain.index(stage) + 1:]
    return []


def first_divergence(rec, ref):
    """None when every stage is reached, else {stage, kind, line, scope, variable}."""
    events = float_events(rec)
    if ref.problem is not None:
        stage, anchor, shapes, known = "config", -1, set(), False
    else:
        reach = reach_indices(ref, events)
        order = list(ref.stages)
        missing = [s for s in order if reach[s] is None]
        if not missing:
            return None
        stage = missing[0]
        before = [reach[s] for s in order[:order.index(stage)]]
        anchor = max(before) if before else -1
        shapes = {tuple(ref.shapes[s]) for s in [stage] + layout_successors(ref, stage)}
        known = True
    wrong = [(e, v) for e, v in events if known and relaid(ref, e, v, shapes)]
    for e, v in wrong + events:
        if wrong or (e["index"] > anchor and not (known and explained(ref, e, v))):
            kind = "values" if tuple(v.shape) in shapes else "shape"
            return {"stage": stage, "kind": kind, "line": e["line"], "scope": e["scope"], "variable": e["variable"]}
    if rec.error is not None:
        return {"stage": stage, "kind": "error", "line": rec.error["line"], "scope": rec.error["scope"],
                "variable": None}
    returns = [e for e in rec.events if e["kind"] == "return" and e["scope"] == ""]
    line = returns[-1]["line"] if returns else None
    return {"stage": stage, "kind": "missing", "line": line, "scope": "", "variable": None}

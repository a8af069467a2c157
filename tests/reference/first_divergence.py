"""The reference matcher: the first canonical stage a recorded module does not reach, its kind and line.
The app's C++ matcher follows these rules exactly; tests/data/student_modules/expected.json pins them.

Inputs: a recording (read_recording.py) and the book's stages on its weights and input (book_stages.py).
Only events whose tensor is floating point take part (F32 in the file); bool and integer tensors (the
mask) and tensor-less events are skipped. Events are taken in recorded (execution) order, all scopes
together: matching is by value, never by variable name or scope.

1. close(a, e): same shape; where e is finite, a is finite and |a - e| <= 1e-5 + 1e-4 * |e|; where e is
   not finite (the mask's -inf), a equals it exactly (NaN matches only NaN). Computed in float64.
2. An event HOLDS stage s when close(event, f) for s's value f in s's shape, or -- only when the event's
   shape is the shape of no canonical stage -- close(event reshaped row-major to s's shape, f). Besides
   the stage's value, f may be one of its accepted forms: attn_scores and attn_scores.masked divided by
   sqrt(head_dim) (sqrt(d_out) for the single-head modules), as learners often scale before the softmax
   call rather than inside it; those forms have the stage's shape. This is the issue's
   "in its shape or as a reshape of its data", with one restriction: a tensor shaped like a canonical
   stage is read as that stage. So a (b*num_heads, T, head_dim) layout still holds the heads, but the
   view-heads-first mistake's (b, H, T, hd) tensor does not hold queries.view (same data, wrong split):
   that is the divergence the mistake makes. Shapes of all stages count, including those the book
   cannot compute here (output without out_proj weights: (b, T, d_out)).
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
   W = the first float event after the anchor that is not explained: the first wrong tensor.
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


def holds(value, forms, canonical_shapes):
    """`forms`: the stage's value and its accepted forms, all in the stage's shape."""
    shape = forms[0].shape
    if value.shape != shape:
        if tuple(value.shape) in canonical_shapes or value.numel() != forms[0].numel():
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


def reach_indices(ref, events, canonical):
    first, forms = {s: None for s in ref.stages}, stage_forms(ref)
    for e, v in events:
        for s, f in forms.items():
            if first[s] is None and holds(v, f, canonical):
                first[s] = e["index"]
    reach = dict(first)
    for s in reversed(list(ref.stages)):  # stages come after every stage they are computed from
        later = [reach[t] for t in ref.feeds.get(s, []) if reach[t] is not None]
        if later and (reach[s] is None or min(later) < reach[s]):
            reach[s] = min(later)
    return reach


def explained(ref, value, canonical):
    if any(holds(value, f, canonical) for f in stage_forms(ref).values()):
        return True
    return any(close(value, extra) for extra in ref.extras.values())


def layout_successors(ref, stage):
    for chain in ref.chains:
        if stage in chain:
            return chain[chain.index(stage) + 1:]
    return []


def first_divergence(rec, ref):
    """None when every stage is reached, else {stage, kind, line, scope, variable}."""
    events = float_events(rec)
    canonical = {tuple(shape) for shape in ref.shapes.values() if shape is not None}
    if ref.problem is not None:
        stage, anchor, shapes, known = "config", -1, set(), False
    else:
        reach = reach_indices(ref, events, canonical)
        order = list(ref.stages)
        missing = [s for s in order if reach[s] is None]
        if not missing:
            return None
        stage = missing[0]
        before = [reach[s] for s in order[:order.index(stage)]]
        anchor = max(before) if before else -1
        shapes = {ref.shapes[s] for s in [stage] + layout_successors(ref, stage)}
        known = True
    for e, v in events:
        if e["index"] > anchor and not (known and explained(ref, v, canonical)):
            kind = "values" if tuple(v.shape) in shapes else "shape"
            return {"stage": stage, "kind": kind, "line": e["line"], "scope": e["scope"], "variable": e["variable"]}
    if rec.error is not None:
        return {"stage": stage, "kind": "error", "line": rec.error["line"], "scope": rec.error["scope"],
                "variable": None}
    returns = [e for e in rec.events if e["kind"] == "return" and e["scope"] == ""]
    line = returns[-1]["line"] if returns else None
    return {"stage": stage, "kind": "missing", "line": line, "scope": "", "variable": None}

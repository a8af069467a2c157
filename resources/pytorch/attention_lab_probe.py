"""Attention Lab probe: records what your chapter-3 attention module computes, for Compare With My Code.

    from attention_lab_probe import record
    rec = record(my_module, x)        # runs my_module(x) once, in eval mode, under torch.no_grad()
    rec.save("mine.safetensors")      # open this file in Attention Lab (File > Compare With My Code...)

Needs only torch (1.13 or 2.x) and the standard library. record() never raises for a forward that
raises: the recording says so (rec.error) and keeps everything computed before. It raises ValueError,
with one sentence, for what it cannot record (not an nn.Module, x not a floating-point tensor, a
forward that is not Python, one of PyTorch's own classes).

FILE FORMAT (version 1) -- the contract for readers
===================================================
One safetensors file:
  bytes 0..7   N, unsigned 64-bit little-endian: the header's length in bytes.
  bytes 8..8+N the header, UTF-8 JSON, one object, padded with spaces so that 8+N is a multiple of 8.
  the rest     the data buffer. Each tensor occupies [begin, end) of it (data_offsets, relative to the
               buffer's start), row-major in its logical order (what t.contiguous() holds, whatever the
               strides were), little-endian. The tensors tile the buffer with no gap or overlap, 8-byte
               types first, then 4-, 2- and 1-byte ones, so each starts aligned to its element size.
Header: tensor name -> {"dtype", "shape", "data_offsets": [begin, end]}, plus "__metadata__", a
str -> str object with one key, "attention_lab_recording", whose value is the JSON text below.
dtypes: every floating tensor (F16, BF16 and F64 included) is written as "F32"; bool as "BOOL" (one byte,
0 or 1); integers as "I64", "I32", "I16", "I8" or "U8". Tensors of other types (complex, quantized) are
not written: their event gets "tensor": null and "problems" says why.
Tensor names: "input" (the x given to record()); "state.<key>" for each entry of module.state_dict() as
it was when record() ran (parameters and buffers: "state.W_query.weight", "state.mask",
"state.heads.0.W_key.weight"); "rec.NNNN" for events (NNNN = the event's index, at least 4 digits;
readers follow the event's "tensor" field rather than building the name).

The metadata JSON object:
  "format": "attention-lab-recording", "version": 1, "torch": torch.__version__, "python": "3.11.2"
  "class": the module's class name, e.g. "MultiHeadAttention"
  "attributes": {name: number or bool} for d_in, d_out, num_heads, head_dim, context_length, dropout
      (an nn.Dropout's p, or a float), qkv_bias, and a GroupedQueryAttention's num_kv_groups and
      window_size (None is not recorded), each only when stored on the module or derivable.
      For a wrapper of heads, d_in, d_out, context_length, dropout, qkv_bias are its first head's (d_out
      per head, as in the wrapper's call).
  "derived": the names in "attributes" that were derived, not stored: d_in/d_out from W_query (nn.Linear
      in/out_features, or a (d_in, d_out) Parameter), qkv_bias from W_query.bias, context_length from
      the "mask" buffer, num_heads from len(heads), head_dim = d_out // num_heads.
  "input": {"tensor": "input", "shape": [...], "dtype": x's original type, e.g. "float32"}
  "state": [{"key": "W_query.weight", "tensor": "state.W_query.weight" (null if not written), "shape",
      "dtype", "kind": "parameter" | "buffer"}]; the mask is a buffer: weights are the parameters.
  "scopes": one per traced forward: [{"scope": "" (the module itself) or a submodule's name such as
      "heads.0", "class", "attributes", "derived", "file" (path, or a notebook cell's name), "first_line"
      (the class statement's line in that file), "source" (the class's source text)}]. Submodules are
      traced when their class is not PyTorch's and looks like attention (its name contains "attention"
      or "head", or it has W_query, W_key or W_value); helper methods forward calls are not traced.
  "events": in execution order (a head's events sit where its call ran), each with "index" (0, 1, ...),
      "kind" ("assign" | "return" | "error"), "scope", "line" and "end_line" (first and last line of
      the statement in the scope's file, so a call spread over two lines is one statement; null if
      unknown), "source" (that statement's text, dedented).
    assign: after each statement of a traced forward runs, every tensor held by a local variable (also
      each tensor in a list/tuple local, "qkv[1]", and plain tensor attributes, "self.attn") that is new
      -- another object, or the same object with another shape, strides, storage offset or version (an
      in-place op such as masked_fill_) -- is recorded with that statement; its tensor is a copy of the
      value at that moment. Arguments as passed are not events (x is "input").
    return: the value forward returns, with the return statement: "variable" "return" ("return[i]" for
      each tensor in a returned tuple/list); a non-tensor value gives one event with "tensor": null and
      "type" (its Python type name).
    assign and return events carry "variable" and "tensor" (name in this file, or null), and for a
      tensor "shape", "strides" (in elements), "storage_offset", "contiguous" and "dtype" (torch's name
      of the original type, "float32"), all as the learner's code had it.
    error: only as the last event, when forward raised: "type" ("RuntimeError"), "message", with "line"
      and "scope" of the deepest traced frame the exception passed through (line null if none).
  "error": null, or {"type", "message", "scope", "line", "source"}, as in the error event.
  "warnings": [{"category", "message", "file", "line"}] raised during forward; they are caught and kept
      (also under python -W error), so the forward runs as it does by default.
  "problems": sentences about anything the recorder skipped (a tensor type it cannot write, a debugger
      paused during the recording).
"""
import ast
import inspect
import json
import linecache
import os
import struct
import sys
import tempfile
import textwrap
import warnings

import torch

FORMAT, VERSION, METADATA_KEY = "attention-lab-recording", 1, "attention_lab_recording"
_ATTRIBUTES = ("d_in", "d_out", "num_heads", "head_dim", "context_length", "dropout", "qkv_bias", "num_kv_groups",
               "window_size")
_PROJECTIONS = ("W_query", "W_key", "W_value")
_MAX_SEQUENCE = 16  # longer list/tuple locals are not looked into: they are not a stage's tensors
_WRITTEN = {torch.float32: "F32", torch.int64: "I64", torch.int32: "I32", torch.int16: "I16",
            torch.int8: "I8", torch.uint8: "U8", torch.bool: "BOOL"}
_ITEMSIZE = {"F32": 4, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1}


def _storable(t):
    """The CPU copy the file will hold (floats as float32), or None for a type the format lacks."""
    t = t.detach()
    if t.is_floating_point():
        return t.to("cpu", torch.float32, copy=True).contiguous()
    if t.dtype in _WRITTEN:
        return t.to("cpu", copy=True).contiguous()
    return None


def _tensor_fields(t):
    return {"shape": list(t.shape), "strides": list(t.stride()), "storage_offset": t.storage_offset(),
            "contiguous": t.is_contiguous(), "dtype": str(t.dtype).replace("torch.", "")}


class _Statements:
    """Maps a line of a source file to the statement it belongs to, so a multi-line call is one line."""

    def __init__(self, filename):
        self.lines = linecache.getlines(filename)
        self.span = {}
        try:
            tree = ast.parse("".join(self.lines))
        except (SyntaxError, ValueError):  # a notebook cell with magics: fall back to single lines
            return
        spans = []
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt):
                body = getattr(node, "body", None)
                end = body[0].lineno - 1 if isinstance(body, list) and body else node.end_lineno
                spans.append((node.lineno, max(node.lineno, end)))
        for start, end in sorted(spans, key=lambda s: s[0] - s[1]):  # widest first, innermost wins
            for line in range(start, end + 1):
                self.span[line] = (start, end)

    def locate(self, line):
        if line is None:
            return None, None, ""
        start, end = self.span.get(line, (line, line))
        text = textwrap.dedent("".join(self.lines[start - 1:end])).rstrip()
        return start, end, text


class Recording:
    """What record() saw. rec.events (dicts as in the file), rec.error, rec.summary(), rec.save(path)."""

    def __init__(self, module, x):
        self.class_name = type(module).__name__
        self.attributes, self.derived = _attributes(module)
        self.input, self.input_dtype = _storable(x), str(x.dtype).replace("torch.", "")
        self.scopes, self.events, self.tensors = [], [], {}
        self.error, self.warnings, self.problems = None, [], []
        parameters = {name for name, _ in module.named_parameters()}
        self.state, self.state_info = {}, []  # copies: the module may train on after record() returns
        for key, t in module.state_dict().items():
            if not isinstance(t, torch.Tensor):
                continue
            stored = _storable(t)
            if stored is not None:
                self.state[key] = stored
            else:
                self.problems.append(f"state entry {key} is {t.dtype}, which the file cannot hold.")
            self.state_info.append({"key": key, "tensor": "state." + key if stored is not None else None,
                                    "shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
                                    "kind": "parameter" if key in parameters else "buffer"})

    @property
    def raised(self):
        return self.error is not None

    def add_event(self, kind, scope, where, variable=None, tensor=None, **extra):
        index = len(self.events)
        line, end_line, source = where
        event = {"index": index, "kind": kind, "scope": scope, "line": line, "end_line": end_line,
                 "source": source}
        if kind != "error":
            event["variable"], event["tensor"] = variable, None
        if isinstance(tensor, torch.Tensor):
            event.update(_tensor_fields(tensor))
            stored = _storable(tensor)
            if stored is None:
                self.problems.append(f"{variable} at line {line} is {tensor.dtype}, which the file cannot hold.")
            else:
                event["tensor"] = "rec.%04d" % index
                self.tensors[event["tensor"]] = stored
        event.update(extra)
        self.events.append(event)

    def metadata(self):
        return {"format": FORMAT, "version": VERSION, "torch": torch.__version__,
                "python": "%d.%d.%d" % sys.version_info[:3], "class": self.class_name,
                "attributes": self.attributes, "derived": self.derived,
                "input": {"tensor": "input", "shape": list(self.input.shape), "dtype": self.input_dtype},
                "state": self.state_info, "scopes": self.scopes, "events": self.events, "error": self.error,
                "warnings": self.warnings, "problems": self.problems}

    def summary(self):
        out = [f"{self.class_name}: {len(self.events)} events" + (", raised" if self.raised else "")]
        for e in self.events:
            what = e.get("variable") or e.get("type")
            shape = tuple(e["shape"]) if "shape" in e else e.get("message", "")
            out.append(f"  [{e['scope'] or 'forward'}] line {e['line']}: {what} {shape}")
        return "\n".join(out)

    def __repr__(self):
        return f"<Recording of {self.class_name}: {len(self.events)} events{', raised' if self.raised else ''}>"

    def save(self, path):
        """Writes the one safetensors file atomically (temp file in the same folder, fsync, rename)."""
        if sys.byteorder != "little":
            raise ValueError("this recorder writes little-endian data and this machine is big-endian.")
        entries = [("input", self.input)]
        entries += [("state." + k, t) for k, t in self.state.items()]
        entries += list(self.tensors.items())
        entries.sort(key=lambda e: -_ITEMSIZE[_WRITTEN[e[1].dtype]])  # stable: keeps every tensor aligned
        header, offset = {}, 0
        for name, t in entries:
            size = t.numel() * _ITEMSIZE[_WRITTEN[t.dtype]]
            header[name] = {"dtype": _WRITTEN[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + size]}
            offset += size
        header["__metadata__"] = {METADATA_KEY: json.dumps(self.metadata(), separators=(",", ":"))}
        text = json.dumps(header, separators=(",", ":")).encode("utf-8")
        text += b" " * (-(8 + len(text)) % 8)
        _atomic_write(os.fspath(path), [struct.pack("<Q", len(text)), text] + [_raw(t) for _, t in entries])


def _raw(t):
    """The bytes of a contiguous CPU tensor, without numpy (it is optional in torch 2.x)."""
    buf = bytearray(t.numel() * t.element_size())
    if buf:
        torch.frombuffer(buf, dtype=t.dtype).copy_(t.reshape(-1))
    return buf


def _atomic_write(path, chunks):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide the file from the app run by another user
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable where the platform allows it
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def _attributes(module):
    """The constructor settings the module keeps, plus those its layers give away (listed in `derived`)."""
    found, derived = {}, []
    for name in _ATTRIBUTES:
        value = getattr(module, name, None)
        if isinstance(value, torch.nn.Dropout):
            value = value.p
        if isinstance(value, (bool, int, float)) and value == value and abs(value) != float("inf"):
            found[name] = value

    def derive(name, value):
        if name not in found and value is not None:
            found[name] = value
            derived.append(name)

    w = getattr(module, "W_query", None)
    if isinstance(w, torch.nn.Linear):
        derive("d_in", w.in_features)
        derive("d_out", w.out_features)
        derive("qkv_bias", w.bias is not None)
    elif isinstance(w, torch.Tensor) and w.dim() == 2:  # SelfAttention_v1: x @ W, W is (d_in, d_out)
        derive("d_in", w.shape[0])
        derive("d_out", w.shape[1])
    mask = getattr(module, "_buffers", {}).get("mask")
    if isinstance(mask, torch.Tensor) and mask.dim() == 2:
        derive("context_length", mask.shape[-1])
    heads = getattr(module, "heads", None)
    if isinstance(heads, (torch.nn.ModuleList, torch.nn.Sequential)) and len(heads) > 0:
        derive("num_heads", len(heads))
        head, _ = _attributes(heads[0])  # the wrapper's call passes its settings on to every head
        for name in ("d_in", "d_out", "context_length", "dropout", "qkv_bias"):
            derive(name, head.get(name))
    elif isinstance(found.get("num_heads"), int) and isinstance(found.get("d_out"), int) and found["num_heads"] > 0:
        if found["d_out"] % found["num_heads"] == 0:
            derive("head_dim", found["d_out"] // found["num_heads"])
    return found, derived


def _forward_code(module):
    fn = inspect.unwrap(type(module).forward)  # a decorated forward (@torch.no_grad()) still has its lines
    return fn.__code__ if inspect.isfunction(fn) else None


def _is_users(module):
    return type(module).__module__.split(".")[0] != "torch"


def _looks_like_attention(module):
    name = type(module).__name__.lower()
    return "attention" in name or "head" in name or any(hasattr(module, p) for p in _PROJECTIONS)


def _class_source(cls, code):
    """(first line, text) of the class; a notebook's class has no file, so fall back to forward's cell."""
    try:
        lines, first = inspect.getsourcelines(cls)
        return first, "".join(lines)
    except (OSError, TypeError):
        pass
    lines = linecache.getlines(code.co_filename)
    for i in range(min(code.co_firstlineno, len(lines)) - 1, -1, -1):
        text = lines[i].lstrip()
        if text.startswith("class " + cls.__name__):
            indent, end = len(lines[i]) - len(text), i + 1
            while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
                end += 1
            return i + 1, "".join(lines[i:end])
    return None, ""


class _Tracer:
    """The global trace function: starts a _FrameRecorder for each call of a traced module's forward."""

    def __init__(self, rec, scopes):
        self.rec, self.by_code, self.frames, self.statements = rec, {}, {}, {}
        for name, module, code in scopes:
            self.by_code.setdefault(code, []).append((module, name))

    def where(self, code, line):
        if code is None:
            return None, None, ""
        if code.co_filename not in self.statements:
            self.statements[code.co_filename] = _Statements(code.co_filename)
        return self.statements[code.co_filename].locate(line)

    def on_call(self, frame, event, arg):
        owners = self.by_code.get(frame.f_code) if event == "call" else None
        if not owners:
            return None
        try:
            code = frame.f_code
            me = frame.f_locals.get(code.co_varnames[0]) if code.co_argcount else None
            for module, name in owners:
                if module is me:
                    return _FrameRecorder(self, frame, name, module).trace
        except Exception as exc:  # the recorder must never break the learner's forward
            self.rec.problems.append(f"the recorder failed to start on a forward call: {exc!r}")
        return None

    def record_error(self, exc):
        scope, line, code = "", None, None
        tb = exc.__traceback__
        while tb is not None:  # the deepest traced frame the exception passed through names the line
            hit = self.frames.get(id(tb.tb_frame))
            if hit is not None and hit[0] is tb.tb_frame:
                scope, line, code = hit[1], tb.tb_lineno, tb.tb_frame.f_code
            tb = tb.tb_next
        where = self.where(code, line)
        info = {"type": type(exc).__name__, "message": str(exc)[:4000]}
        self.rec.error = dict(info, scope=scope, line=where[0], source=where[2])
        self.rec.add_event("error", scope, where, **info)


class _FrameRecorder:
    """Snapshots one forward frame's tensors after every line; changes belong to the line that just ran."""

    def __init__(self, tracer, frame, scope, module):
        self.tracer, self.scope, self.module = tracer, scope, module
        self.seen, self.line, self.unwinding = {}, frame.f_lineno, False
        tracer.frames[id(frame)] = (frame, scope)
        self.look(frame, record=False)  # the arguments as passed are the baseline, not events

    def trace(self, frame, event, arg):
        try:
            if event == "line":
                self.look(frame)
                self.line, self.unwinding = frame.f_lineno, False
            elif event == "exception":
                self.unwinding = True  # cleared by the next line event if the frame catches it
            elif event == "return":
                self.look(frame)
                if not self.unwinding:
                    self.returned(frame, arg)
        except Exception as exc:
            self.tracer.rec.problems.append(f"the recorder failed at line {frame.f_lineno}: {exc!r}")
        return self.trace

    def tensors(self, frame):
        for name, value in list(frame.f_locals.items()):
            if isinstance(value, torch.Tensor):
                yield name, value
            elif isinstance(value, (list, tuple)) and 0 < len(value) <= _MAX_SEQUENCE:
                for i, item in enumerate(value):
                    if isinstance(item, torch.Tensor):
                        yield f"{name}[{i}]", item
        for name, value in list(vars(self.module).items()):  # parameters and buffers live in other dicts
            if isinstance(value, torch.Tensor):
                yield "self." + name, value

    def look(self, frame, record=True):
        for name, t in self.tensors(frame):
            if t.layout != torch.strided:
                continue
            try:
                version = t._version  # bumped by every in-place op; inference tensors have none
            except (RuntimeError, AttributeError):
                version = None
            key = (tuple(t.shape), t.stride(), t.storage_offset(), version)
            old = self.seen.get(name)
            if old is not None and old[0] is t and old[1] == key:
                continue
            self.seen[name] = (t, key)
            if record:
                where = self.tracer.where(frame.f_code, self.line)
                self.tracer.rec.add_event("assign", self.scope, where, name, t)

    def returned(self, frame, value):
        rec, where = self.tracer.rec, self.tracer.where(frame.f_code, frame.f_lineno)
        items = [("return", value)]
        if isinstance(value, (list, tuple)) and any(isinstance(v, torch.Tensor) for v in value):
            items = [(f"return[{i}]", v) for i, v in enumerate(value) if isinstance(v, torch.Tensor)]
        for name, v in items:
            if isinstance(v, torch.Tensor):
                rec.add_event("return", self.scope, where, name, v)
            else:
                rec.add_event("return", self.scope, where, name, None, type=type(v).__name__)


def _refuse(module, x):
    if not isinstance(module, torch.nn.Module):
        raise ValueError("record() needs your attention module (a torch.nn.Module instance) and got "
                         f"{type(module).__name__}.")
    if not _is_users(module):
        raise ValueError(f"{type(module).__name__} is one of PyTorch's own classes (or a scripted or compiled "
                         "wrapper); record() traces the Python forward of a module you wrote.")
    if _forward_code(module) is None:
        raise ValueError(f"{type(module).__name__}.forward is not a Python function, so its lines cannot be recorded.")
    if not isinstance(x, torch.Tensor):
        raise ValueError(f"record() needs the input x as one torch.Tensor and got {type(x).__name__}.")
    if x.layout != torch.strided or not x.is_floating_point():
        kind = str(x.dtype if x.layout == torch.strided else x.layout).replace("torch.", "")
        raise ValueError(f"x must be a dense floating-point tensor of embeddings, not {kind}; "
                         "token ids go through an embedding layer first.")
    if isinstance(getattr(sys.gettrace(), "__self__", None), _Tracer):
        raise ValueError("record() is already recording; call it once at a time, not from inside a forward.")


def record(module, x):
    """Runs module(x) once (eval mode, no_grad) and returns a Recording; see the module docstring."""
    _refuse(module, x)
    rec, scopes = Recording(module, x), []
    for name, m in module.named_modules():
        code = _forward_code(m)
        if code is None or not (m is module or (_is_users(m) and _looks_like_attention(m))):
            continue
        first, source = _class_source(type(m), code)
        attrs, derived = _attributes(m)
        rec.scopes.append({"scope": name, "class": type(m).__name__, "attributes": attrs, "derived": derived,
                           "file": code.co_filename, "first_line": first, "source": source})
        scopes.append((name, m, code))
    tracer, previous = _Tracer(rec, scopes), sys.gettrace()
    if previous is not None:
        rec.problems.append("a debugger or coverage tool was tracing; it was paused while forward ran.")
    modes = [(m, m.training) for m in module.modules()]
    try:
        module.eval()
        with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")  # keep warnings as data, so -W error cannot change the run
            sys.settrace(tracer.on_call)
            try:
                module(x)
            except Exception as exc:
                sys.settrace(previous)
                tracer.record_error(exc)
            finally:
                sys.settrace(previous)
    finally:
        for m, mode in modes:
            m.training = mode
        tracer.frames.clear()  # drop the frames (and the tensors their locals hold)
    rec.warnings = [{"category": w.category.__name__, "message": str(w.message), "file": w.filename,
                     "line": w.lineno} for w in caught[:50]]
    return rec

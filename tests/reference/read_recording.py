"""Reads a recording made by resources/pytorch/attention_lab_probe.py the way the app must: from the bytes,
by the format its docstring specifies, checking every promise of that contract on the way (so a writer
change that a C++ reader would trip over fails here first). Independent of the recorder's own code."""
import json
import struct

import torch

DTYPES = {"F32": (torch.float32, 4), "I64": (torch.int64, 8), "I32": (torch.int32, 4), "I16": (torch.int16, 2),
          "I8": (torch.int8, 1), "U8": (torch.uint8, 1), "BOOL": (torch.bool, 1)}
EVENT_KEYS = {"index", "kind", "scope", "line", "end_line", "source"}
TENSOR_KEYS = {"variable", "tensor", "shape", "strides", "storage_offset", "contiguous", "dtype"}


class Recording:
    def __init__(self, meta, tensors):
        self.meta, self.tensors = meta, tensors
        self.events = meta["events"]
        self.attributes = meta["attributes"]
        self.input = tensors["input"]
        self.state = {s["key"]: tensors[s["tensor"]] for s in meta["state"] if s["tensor"] is not None}
        self.parameters = {s["key"]: self.state[s["key"]] for s in meta["state"]
                           if s["kind"] == "parameter" and s["key"] in self.state}
        self.error = meta["error"]

    def value(self, event):
        """The tensor of an event, or None (an error, a non-tensor return, a type the file cannot hold)."""
        return self.tensors[event["tensor"]] if event.get("tensor") else None


def read_recording(path):
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise ValueError(f"{path}: too short for a safetensors file")
    (n,) = struct.unpack("<Q", blob[:8])
    if (8 + n) % 8 or 8 + n > len(blob):
        raise ValueError(f"{path}: header length {n} is unpadded or runs past the file")
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    data = memoryview(blob)[8 + n:]
    meta = json.loads(header.pop("__metadata__")["attention_lab_recording"])
    if (meta.get("format"), meta.get("version")) != ("attention-lab-recording", 1):
        raise ValueError(f"{path}: not an Attention Lab recording of version 1")
    tensors, spans = {}, []
    for name, entry in header.items():
        dtype, size = DTYPES[entry["dtype"]]
        begin, end = entry["data_offsets"]
        count = 1
        for d in entry["shape"]:
            count *= d
        if end - begin != count * size or begin % size:
            raise ValueError(f"{path}: {name} has {end - begin} bytes at {begin} for {count} x {size}")
        spans.append((begin, end))
        flat = torch.frombuffer(bytearray(data[begin:end]), dtype=dtype) if count else torch.zeros(0, dtype=dtype)
        tensors[name] = flat.reshape(entry["shape"])
    position = 0
    for begin, end in sorted(spans):
        if begin != position:
            raise ValueError(f"{path}: the data buffer has a gap or an overlap at byte {begin}")
        position = end
    if position != len(data):
        raise ValueError(f"{path}: {len(data) - position} bytes after the last tensor")
    check_events(path, meta, tensors)
    return Recording(meta, tensors)


def check_events(path, meta, tensors):
    for i, e in enumerate(meta["events"]):
        missing = EVENT_KEYS - e.keys()
        if e["index"] != i or missing or e["kind"] not in ("assign", "return", "error"):
            raise ValueError(f"{path}: event {i} is malformed (missing {sorted(missing)})")
        if e["kind"] == "error":
            if i != len(meta["events"]) - 1 or meta["error"] is None:
                raise ValueError(f"{path}: an error event must be the last and match the top-level error")
            continue
        if e.get("tensor") is not None:
            missing = TENSOR_KEYS - e.keys()
            t = tensors[e["tensor"]]
            if missing or list(t.shape) != e["shape"] or len(e["strides"]) != len(e["shape"]):
                raise ValueError(f"{path}: event {i}'s tensor does not match its description")
    if (meta["error"] is None) != all(e["kind"] != "error" for e in meta["events"]):
        raise ValueError(f"{path}: the top-level error and the error event disagree")

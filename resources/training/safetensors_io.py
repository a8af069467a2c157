"""A small safetensors writer and reader (F32 and F16), so the training and reference scripts need
nothing beyond Debian's python3-torch (not the `safetensors` package).

Format: 8-byte little-endian header length, a JSON header mapping each tensor name to
{"dtype", "shape", "data_offsets": [begin, end]} (offsets into the data that follows the header)
plus "__metadata__" (str -> str), then the raw little-endian tensor data.
"""

import json
import os
import stat
import struct
import tempfile

import torch

_DTYPES = {"F32": (torch.float32, "<f4"), "F16": (torch.float16, "<f2")}


def save_file(tensors, path, metadata, dtype="F32"):
    """Writes `tensors` (name -> tensor) in the given order, all converted to `dtype`."""
    torch_dtype, numpy_dtype = _DTYPES[dtype]
    for key, value in metadata.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(f"metadata must map str to str; {key!r}: {value!r}")
    header, blobs, offset = {"__metadata__": dict(metadata)}, [], 0
    for name, t in tensors.items():
        # astype with an explicit "<" makes the bytes little-endian on any machine.
        data = t.detach().to(torch_dtype).contiguous().cpu().numpy().astype(numpy_dtype).tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    # Pad the header with spaces so the data starts 8-byte aligned, as the reference writer does.
    text += b" " * (-len(text) % 8)
    _atomic_write(os.fspath(path), [struct.pack("<Q", len(text)), text] + blobs)


def _atomic_write(path, chunks):
    """The whole new file or the old one, as the app's own writer (core/io/atomic_file.h): a temporary file
    beside the target, synced, then renamed over it; only a regular file (or nothing) is ever replaced."""
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise ValueError(f"cannot write '{path}': it is not a regular file (a link, device, FIFO or folder)")
    fd, tmp = tempfile.mkstemp(prefix=".safetensors-", suffix=".tmp", dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide the models from another user
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load_file(path):
    """(tensors, metadata): every tensor as float32, converted exactly from what is stored."""
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
        data = f.read()
    metadata = header.pop("__metadata__", {})
    tensors = {}
    for name, entry in header.items():
        if entry["dtype"] not in _DTYPES:
            raise ValueError(f"{path}: {name} has dtype {entry['dtype']}; this reader knows F32 and F16")
        torch_dtype, _ = _DTYPES[entry["dtype"]]
        begin, end = entry["data_offsets"]
        flat = torch.frombuffer(bytearray(data[begin:end]), dtype=torch_dtype) if end > begin \
            else torch.empty(0, dtype=torch_dtype)
        # F16 -> F32 is exact, so these are the stored values, widened.
        tensors[name] = flat.reshape(entry["shape"]).to(torch.float32).clone()
    return tensors, metadata

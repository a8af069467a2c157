def load_safetensors(path):
    """The tensors of a safetensors file; uses the safetensors package when it is installed."""
    try:
        from safetensors.torch import load_file
        return load_file(path)
    except ImportError:
        pass
    import json
    import struct
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
        data = f.read()
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        assert entry["dtype"] == "F32", f"{name}: this reader knows F32 only"
        begin, end = entry["data_offsets"]
        flat = torch.frombuffer(bytearray(data[begin:end]), dtype=torch.float32)
        tensors[name] = flat.reshape(entry["shape"]).clone()
    return tensors

#!/usr/bin/env python3
"""Writes the malformed (and a few well-formed) safetensors files of the robustness corpus into
tests/robustness/files/. The files are committed; run this only to regenerate them. Standard library only.

Files that cannot live in git (a FIFO, an unreadable file, a directory, a deeply nested header) are made
by tests/cli/test_robustness.cpp at run time."""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "files")


def raw(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def with_header(name, header_text, data=b"", length=None):
    """8-byte little-endian header length, the header text as given, then data."""
    h = header_text.encode() if isinstance(header_text, str) else header_text
    raw(name, struct.pack("<Q", len(h) if length is None else length) + h + data)


def f32(values):
    return b"".join(struct.pack("<f", v) for v in values)


def tensors(name, entries, metadata=None):
    """entries: list of (tensor name, shape, values); stored F32 in order."""
    header, data = {}, b""
    if metadata:
        header["__metadata__"] = metadata
    for tname, shape, values in entries:
        blob = f32(values)
        header[tname] = {"dtype": "F32", "shape": shape, "data_offsets": [len(data), len(data) + len(blob)]}
        data += blob
    text = json.dumps(header, separators=(",", ":"))
    text += " " * ((8 - len(text) % 8) % 8)
    with_header(name, text, data)


def seq(n, scale=0.1):
    return [((i * 7) % 11 - 5) * scale for i in range(n)]


def main():
    os.makedirs(OUT, exist_ok=True)
    one = '{"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}'

    # Sizes and header length.
    raw("empty.safetensors", b"")
    raw("short.safetensors", b"\x05\x00\x00")
    with_header("header_len_huge.safetensors", "{}", length=1 << 63)
    with_header("header_len_beyond_file.safetensors", "{}", length=4096)
    raw("text_file.safetensors", b"this is a plain text file, not safetensors at all\n")
    # JSON.
    with_header("not_json.safetensors", "{not json at all")
    with_header("json_truncated.safetensors", one[:-7])
    with_header("json_array.safetensors", "[1, 2, 3]")
    with_header("json_string.safetensors", '"weights"')
    with_header("duplicate_names.safetensors",
                '{"t":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},'
                '"t":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}', f32([1, 2]))
    with_header("entry_not_object.safetensors", '{"t": 5}')
    with_header("missing_offsets.safetensors", '{"t":{"dtype":"F32","shape":[2]}}', f32([1, 2]))
    with_header("metadata_not_object.safetensors", '{"__metadata__": [1]}')
    with_header("metadata_not_string.safetensors", '{"__metadata__": {"layout": 7}}')
    with_header("header_binary.safetensors", b"\xff\xfe\x00\x01{}")
    # dtypes.
    with_header("dtype_unknown.safetensors", one.replace("F32", "Q4_K"), f32([1, 2]))
    with_header("dtype_integer.safetensors", one.replace("F32", "I64").replace("[0,8]", "[0,16]"), b"\0" * 16)
    with_header("dtype_not_string.safetensors", one.replace('"F32"', "32"), f32([1, 2]))
    # Shapes.
    with_header("shape_negative.safetensors", one.replace("[2]", "[-2]"), f32([1, 2]))
    with_header("shape_float.safetensors", one.replace("[2]", "[2.5]"), f32([1, 2]))
    with_header("shape_nested.safetensors", one.replace("[2]", "[[2]]"), f32([1, 2]))
    with_header("shape_overflow.safetensors", one.replace("[2]", "[4294967296,4294967296,4294967296]"), f32([1, 2]))
    with_header("shape_bytes_mismatch.safetensors", one.replace("[2]", "[2,2]"), f32([1, 2]))
    # Offsets.
    with_header("offsets_outside.safetensors", one.replace("[0,8]", "[0,4000]"), f32([1, 2]))
    with_header("offsets_reversed.safetensors", one.replace("[0,8]", "[8,0]"), f32([1, 2]))
    with_header("offsets_negative.safetensors", one.replace("[0,8]", "[-8,0]"), f32([1, 2]))
    with_header("offsets_huge.safetensors", one.replace("[0,8]", "[18446744073709551608,18446744073709551615]"),
                f32([1, 2]))
    with_header("offsets_overlap.safetensors",
                '{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},'
                '"b":{"dtype":"F32","shape":[4],"data_offsets":[8,24]}}', f32(range(6)))

    # Well-formed files whose contents do not fit the call (the call is MultiHeadAttention(3, 2, 6, 0.0, 2)).
    mha = [("W_query.weight", [2, 3], seq(6)), ("W_key.weight", [2, 3], seq(6, 0.2)),
           ("W_value.weight", [2, 3], seq(6, 0.3)), ("out_proj.weight", [2, 2], seq(4)),
           ("out_proj.bias", [2], seq(2))]
    tensors("mha_3_2_torch.safetensors", mha)
    tensors("mha_missing_key.safetensors", [e for e in mha if e[0] != "W_key.weight"])
    tensors("mha_with_qkv_bias.safetensors", mha + [("W_query.bias", [2], seq(2)), ("W_key.bias", [2], seq(2)),
                                                    ("W_value.bias", [2], seq(2))])
    tensors("mha_layout_keras.safetensors", mha, {"layout": "keras"})
    gpt2 = [("h.0.attn.c_attn.weight", [3, 6], seq(18)), ("h.0.attn.c_attn.bias", [6], seq(6)),
            ("h.0.attn.c_proj.weight", [2, 2], seq(4)), ("h.0.attn.c_proj.bias", [2], seq(2))]
    tensors("gpt2_tiny.safetensors", gpt2)
    # Inputs (tensor x).
    tensors("x_ok.safetensors", [("x", [1, 6, 3], seq(18))])
    tensors("x_missing.safetensors", [("y", [1, 6, 3], seq(18))])
    tensors("x_wrong_width.safetensors", [("x", [1, 6, 4], seq(24))])
    tensors("x_vector.safetensors", [("x", [3], seq(3))])
    tensors("x_4d.safetensors", [("x", [1, 1, 6, 3], seq(18))])
    tensors("x_too_long.safetensors", [("x", [1, 7, 3], seq(21))])
    # Every supported dtype in one valid file (also a fuzzing seed).
    header = {"__metadata__": {"layout": "torch"},
              "a": {"dtype": "F16", "shape": [2], "data_offsets": [0, 4]},
              "b": {"dtype": "BF16", "shape": [2], "data_offsets": [4, 8]},
              "c": {"dtype": "F64", "shape": [1], "data_offsets": [8, 16]},
              "d": {"dtype": "F32", "shape": [], "data_offsets": [16, 20]},
              "e": {"dtype": "F32", "shape": [0, 3], "data_offsets": [20, 20]}}
    data = struct.pack("<ee", 1.5, -2.0) + struct.pack("<HH", 0x3FC0, 0xC000) + struct.pack("<d", 0.25) + f32([7])
    with_header("all_dtypes.safetensors", json.dumps(header, separators=(",", ":")), data)
    # Whole GPT-2 checkpoints (n_embd 2, one block, n_head from the metadata) with one thing wrong: a tensor
    # stored in a dtype no weight has, or an embedding of no rows.
    def gpt2_hf(name, vocab=3, positions=4, dtypes=None):
        d = 2
        shapes = [("wte.weight", [vocab, d]), ("wpe.weight", [positions, d]),
                  ("h.0.ln_1.weight", [d]), ("h.0.ln_1.bias", [d]),
                  ("h.0.attn.c_attn.weight", [d, 3 * d]), ("h.0.attn.c_attn.bias", [3 * d]),
                  ("h.0.attn.c_proj.weight", [d, d]), ("h.0.attn.c_proj.bias", [d]),
                  ("h.0.ln_2.weight", [d]), ("h.0.ln_2.bias", [d]),
                  ("h.0.mlp.c_fc.weight", [d, 4 * d]), ("h.0.mlp.c_fc.bias", [4 * d]),
                  ("h.0.mlp.c_proj.weight", [4 * d, d]), ("h.0.mlp.c_proj.bias", [d]),
                  ("ln_f.weight", [d]), ("ln_f.bias", [d])]
        header, data = {"__metadata__": {"n_head": "1"}}, b""
        for tname, shape in shapes:
            count = 1
            for n in shape:
                count *= n
            dtype = (dtypes or {}).get(tname, "F32")
            blob = {"F32": f32(seq(count)), "I64": b"\0" * (8 * count), "BOOL": b"\1" * count}[dtype]
            header[tname] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(blob)]}
            data += blob
        with_header(name, json.dumps(header, separators=(",", ":")), data)

    gpt2_hf("gpt2_wte_i64.safetensors", dtypes={"wte.weight": "I64"})
    gpt2_hf("gpt2_ln_f_bool.safetensors", dtypes={"ln_f.weight": "BOOL"})
    gpt2_hf("gpt2_vocab_zero.safetensors", vocab=0)
    gpt2_hf("gpt2_positions_zero.safetensors", positions=0)
    # Trained GPT files whose metadata states a value no trainer writes (checked before any tensor is looked for).
    trained = {"format": "attention-lab-gpt", "tokenizer": "letters", "task": "induction", "vocab_size": "16",
               "emb_dim": "8", "n_layers": "1", "n_heads": "2", "context_length": "8", "drop_rate": "0",
               "qkv_bias": "false"}
    for key, value in [("task", "bogus"), ("tokenizer", "bogus"), ("drop_rate", "nan"), ("qkv_bias", "maybe")]:
        with_header("trained_%s_%s.safetensors" % (key, value),
                    json.dumps({"__metadata__": dict(trained, **{key: value})}, separators=(",", ":")))

    # A valid weights file cut off in the middle of its data.
    with open(os.path.join(OUT, "mha_3_2_torch.safetensors"), "rb") as f:
        whole = f.read()
    raw("truncated.safetensors", whole[:len(whole) - 10])
    print("wrote", len(os.listdir(OUT)), "files to", OUT)


if __name__ == "__main__":
    sys.exit(main())

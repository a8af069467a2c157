"""The training script's safetensors writer (resources/training/safetensors_io.py) writes the trained models
atomically: a link or FIFO at the path is refused and left as it is, and a write that fails on a full disk
(a tmpfs, when run as root) keeps the old file byte for byte with no temporary file beside it."""

import os
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "resources", "training"))
from safetensors_io import load_file, save_file  # noqa: E402


def refuses_what_is_not_a_regular_file(folder):
    save_file({"a": torch.ones(3)}, os.path.join(folder, "x.safetensors"), {"k": "v"})
    assert load_file(os.path.join(folder, "x.safetensors"))[1] == {"k": "v"}
    os.symlink("x.safetensors", os.path.join(folder, "link.safetensors"))
    os.mkfifo(os.path.join(folder, "fifo.safetensors"))
    for name in ("link.safetensors", "fifo.safetensors"):
        try:
            save_file({"a": torch.zeros(3)}, os.path.join(folder, name), {})
        except ValueError as e:
            assert "is not a regular file" in str(e), e
        else:
            raise AssertionError(f"{name} was replaced")
    assert os.path.islink(os.path.join(folder, "link.safetensors"))
    assert sorted(os.listdir(folder)) == ["fifo.safetensors", "link.safetensors", "x.safetensors"]


def full_disk_keeps_old_file(folder):
    if os.geteuid() != 0 or subprocess.call(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", folder]) != 0:
        print("skipped the full disk: mounting a tmpfs needs root")
        return
    try:
        path = os.path.join(folder, "model.safetensors")
        save_file({"a": torch.ones(100)}, path, {})
        old = open(path, "rb").read()
        with open(os.path.join(folder, "filler"), "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"f" * 4096)
            except OSError:
                pass
        try:
            save_file({"a": torch.zeros(100000)}, path, {})
        except OSError:
            pass
        else:
            raise AssertionError("the write on a full disk did not fail")
        assert open(path, "rb").read() == old
        assert sorted(os.listdir(folder)) == ["filler", "model.safetensors"], os.listdir(folder)
    finally:
        subprocess.call(["umount", "-l", folder])


with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
    refuses_what_is_not_a_regular_file(a)
    full_disk_keeps_old_file(b)
print("the training writer replaces only regular files, whole or not at all")

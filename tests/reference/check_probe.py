#!/usr/bin/python3
"""Edge cases of the recorder (resources/pytorch/attention_lab_probe.py) that the module corpus does not
reach: refusals, a class defined in a notebook cell, errors inside a head, odd return values, caught
exceptions, the modes and trace function it must leave as it found them, and atomic saving.

    /usr/bin/python3 -W error tests/reference/check_probe.py      (exit 1 on the first failed check)
"""
import linecache
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from book_stages import BOOK  # noqa: E402

sys.path.insert(0, BOOK)
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
from attention_lab_probe import record  # noqa: E402
from read_recording import read_recording  # noqa: E402

# A class as a notebook defines it: its file is a cell that only linecache knows, so inspect.getsource
# fails on the class and the recorder must find the text through forward's code object.
CELL = '''import torch
import torch.nn as nn

class Head(nn.Module):
    def __init__(self, fail=False):
        super().__init__()
        self.W_query = nn.Linear(3, 2)
        self.fail = fail

    def forward(self, x):
        q = self.W_query(x)
        try:
            q.view(5, 7)
        except RuntimeError:
            pass
        self.attn = q.softmax(-1)
        if self.fail:
            q = q @ q
        return q, self.attn


class Pair(nn.Module):
    def __init__(self, fail=True):
        super().__init__()
        self.heads = nn.ModuleList([Head(), Head(fail)])

    def forward(self, x):
        outs = [h(x)[0] for h in self.heads]
        return None
'''


def notebook_classes():
    name = "<cell-7>"
    linecache.cache[name] = (len(CELL), None, CELL.splitlines(True), name)
    scope = {"__name__": "__main__"}
    exec(compile(CELL, name, "exec"), scope)
    return scope["Head"], scope["Pair"]


def check(condition, what):
    if not condition:
        print(f"FAIL  {what}")
        sys.exit(1)
    print(f"ok    {what}")


def refused(module, x):
    try:
        record(module, x)
    except ValueError as exc:
        return str(exc).count(". ") == 0 and str(exc).endswith(".")  # one sentence
    return False


def main():
    torch.set_num_threads(1)
    Head, Pair = notebook_classes()
    x = torch.rand(2, 4, 3)
    check(refused(42, x), "refuses what is not a module")
    check(refused(nn.Linear(3, 2), x), "refuses PyTorch's own classes")
    check(refused(torch.jit.script(nn.Sequential(nn.Linear(3, 2))), x), "refuses a scripted module")
    check(refused(Head(), [[1.0, 2.0, 3.0]]), "refuses an input that is not a tensor")
    check(refused(Head(), torch.ones(2, 3, dtype=torch.long)), "refuses token ids")

    head = Head().train()
    rec = record(head, x)
    scope = rec.scopes[0]
    check(scope["file"] == "<cell-7>" and scope["first_line"] == 4 and scope["source"].startswith("class Head"),
          "finds a notebook class's source through its cell")
    check(head.training, "restores train mode")
    names = [(e["variable"], e["line"]) for e in rec.events]
    check(names == [("q", 11), ("self.attn", 16), ("return[0]", 19), ("return[1]", 19)],
          "records locals, tensor attributes and each tensor of a returned tuple, not a caught error")
    check(rec.error is None, "an exception caught inside forward is no error")

    def tracer(frame, event, arg):
        return None
    sys.settrace(tracer)
    try:
        rec = record(Pair().double(), x.double())
    finally:
        restored = sys.gettrace() is tracer
        sys.settrace(None)
    check(restored and rec.problems, "puts a debugger's trace function back and says it was paused")
    check(rec.error["scope"] == "heads.1" and rec.error["line"] == 18 and rec.raised,
          "an error inside a head names the head and its line")
    check(rec.events[0]["dtype"] == "float64" and rec.tensors["rec.0000"].dtype == torch.float32,
          "keeps the original dtype's name and stores float32")

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "pair.safetensors")
        rec.save(path)
        back = read_recording(path)
        check(os.listdir(folder) == ["pair.safetensors"], "saves atomically, leaving no temporary file")
        check(back.meta["events"][-1]["kind"] == "error" and back.input.dtype == torch.float32,
              "a raising forward is still saved and reads back")
        record(Pair().heads[0], x).save(path)
        check(len(read_recording(path).events) == 4, "a second save replaces the file")
        try:
            rec.save(os.path.join(folder, "missing", "x.safetensors"))
        except OSError:
            pass
        check(os.listdir(folder) == ["pair.safetensors"], "a failed save leaves nothing behind")
    rec = record(Pair(fail=False), x)
    check(rec.events[-1]["variable"] == "return" and rec.events[-1]["tensor"] is None
          and rec.events[-1]["type"] == "NoneType" and rec.events[-1]["line"] == 29,
          "a forward returning no tensor still has its return event")


if __name__ == "__main__":
    main()

"""The book's chapter-3 modules, read from resources/pytorch/*.py (the project's only copy of them),
and a recorder that captures every stage of their forward under the canonical names of the golden
README without changing a line of the book's code.

The recorder follows the forward with sys.settrace: when a statement of a book file's `forward`
finishes, the variable it assigned (or changed in place) is the stage that statement produces. Which
statement produces which stage is read from the statement's text, so the book's order -- keys before
queries, the views with values before queries -- is the order the stages are recorded in.
"""
import ast
import os
import re
import sys

import torch
import torch.nn as nn

PYTORCH_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "pytorch")
BOOK_FILES = ["SimpleSelfAttention", "SelfAttention_v1", "SelfAttention_v2", "CausalAttention",
              "MultiHeadAttentionWrapper", "MultiHeadAttention", "GroupedQueryAttention"]


def load_modules():
    """Executes the book files in one namespace (the wrapper needs CausalAttention) and returns it."""
    namespace = {"torch": torch, "nn": nn}
    for name in BOOK_FILES:
        path = os.path.realpath(os.path.join(PYTORCH_DIR, name + ".py"))
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), namespace)
    return namespace


BOOK = load_modules()


def _statements(path):
    """For each `forward` of a file: statement start line -> (end line, whitespace-collapsed text)."""
    with open(path) as f:
        text = f.read()
    lines = text.splitlines()
    out = {}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef) and node.name == "forward":
            for st in node.body:
                src = " ".join(l.strip() for l in lines[st.lineno - 1:st.end_lineno])
                out[st.lineno] = src
    return out


ROLE = r"(queries|keys|values)"


def stage_of(statement):
    """(stage name, variable holding it) for one statement of a book forward, or None."""
    rules = [
        (ROLE + r" = (self\.W_\w+\(x\)|x @ self\.W_\w+)$", lambda m: (m[1], m[1])),
        (ROLE + r" = \1\.view\(", lambda m: (m[1] + ".view", m[1])),
        (ROLE + r" = \1\.transpose\(1, 2\)$", lambda m: (m[1] + ".heads", m[1])),
        (ROLE + r" = \1\.repeat_interleave\(", lambda m: (m[1] + ".repeated", m[1])),
        (r"attn_scores = ", lambda m: ("attn_scores", "attn_scores")),
        (r"attn_scores\.masked_fill_\(", lambda m: ("attn_scores.masked", "attn_scores")),
        (r"attn_weights = torch\.softmax\(", lambda m: ("attn_weights", "attn_weights")),
        (r"attn_weights = self\.dropout\(", lambda m: ("attn_weights.dropout", "attn_weights")),
        (r"context_vec = \(attn_weights @ values\)\.transpose\(1, 2\)$",
         lambda m: ("context.transposed", "context_vec")),
        (r"context_vec = attn_weights @ (values|x)$", lambda m: ("context", "context_vec")),
        (r"context_vec = context_vec\.contiguous\(\)\.view\(", lambda m: ("context.merged", "context_vec")),
        (r"context_vec = self\.out_proj\(", lambda m: ("output", "context_vec")),
    ]
    for pattern, make in rules:
        m = re.match(pattern, statement)
        if m:
            return make(m)
    return None


class StageRecorder:
    """Calls module(x) and returns {stage name: tensor} in the order the stages were produced."""

    def __init__(self, module):
        self.module = module
        self.prefix_of = {}
        if hasattr(module, "heads"):  # the wrapper: each head's stages are heads.{h}.<stage>
            self.prefix_of = {id(h): f"heads.{i}." for i, h in enumerate(module.heads)}
        self.statements = {}
        self.stages = {}

    def _statements_of(self, code):
        if code.co_filename not in self.statements:
            self.statements[code.co_filename] = _statements(code.co_filename)
        return self.statements[code.co_filename]

    def _finish(self, frame, lineno):
        statement = self._statements_of(frame.f_code).get(lineno)
        found = stage_of(statement) if statement else None
        if not found:
            return
        stage, var = found
        if stage == "attn_weights.dropout" and not (self_module(frame).training and self_module(frame).dropout.p > 0):
            return  # the identity in eval mode or at p = 0: the engine records no such stage then
        prefix = self.prefix_of.get(id(self_module(frame)), "")
        value = frame.f_locals[var]
        if stage == "context.transposed":  # the book's one statement makes two stages
            self.stages[prefix + "context.heads"] = value.transpose(1, 2).clone()
        self.stages[prefix + stage] = value.clone()

    def _tracer(self, frame, event, arg):
        if frame.f_code.co_name != "forward" or not frame.f_code.co_filename.startswith(os.path.realpath(PYTORCH_DIR)):
            return None
        current = {"line": None}

        def local(frame, event, arg):
            if event in ("line", "return"):
                starts = self._statements_of(frame.f_code)
                if current["line"] is not None and (event == "return" or frame.f_lineno in starts):
                    if frame.f_lineno != current["line"] or event == "return":
                        self._finish(frame, current["line"])
                if event == "line" and frame.f_lineno in starts:
                    current["line"] = frame.f_lineno
            return local

        return local(frame, event, arg)

    def __call__(self, x):
        self.stages = {"x": x.clone()}
        old = sys.gettrace()
        sys.settrace(self._tracer)
        try:
            out = self.module(x)
        finally:
            sys.settrace(old)
        if "output" not in self.stages and hasattr(self.module, "heads"):
            self.stages["output"] = out.clone()
        return out, self.stages


def self_module(frame):
    return frame.f_locals["self"]

#!/usr/bin/python3
"""Writes tests/data/gpt/head_measures.json: the four per-head measures of resources/training/
head_measures.py for the shipped models on the story's first sentence, every layer and head. The
app's core (core/gpt/head_measures.h) must give the same numbers from its own trace.

    /usr/bin/python3 tests/reference/make_head_measures.py
"""

import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "resources" / "training"))
sys.path.insert(0, str(ROOT / "tests" / "reference"))

from head_measures import measure_table  # noqa: E402
from make_gpt_reference import first_sentence, load_model  # noqa: E402
from simple_tokenizer import verdict_tokenizer  # noqa: E402


def main():
    torch.set_num_threads(1)
    text = first_sentence()
    ids = verdict_tokenizer().encode(text)
    out = {"text": text, "models": {}}
    for heads in (1, 2, 4, 8):
        model, _, _ = load_model(ROOT / "resources" / "models" / f"verdict-gpt-h{heads}.safetensors")
        out["models"][f"h{heads}"] = [{"layer": layer, "head": head, **m} for layer, head, m in measure_table(model, ids)]
    path = ROOT / "tests" / "data" / "gpt" / "head_measures.json"
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Writes tests/data/text/tokenizer_cases.json: the book's simple tokenizer (resources/training/
simple_tokenizer.py, the one the models were trained with) on the story and on texts with unknown
words and punctuation. The C++ tokenizer must give the same tokens and ids.

    /usr/bin/python3 tests/reference/make_tokenizer_cases.py
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "resources" / "training"))

from simple_tokenizer import read_story, split_text, verdict_tokenizer  # noqa: E402

TEXTS = {
    "first-sentence": None,  # filled with the story's first sentence
    "unknown-words": "Hello, do you like tea? In the sunlit terraces of the palace.",
    "punctuation": 'He said--"No!" (quite); then: _Gisburn_\'s... why?',
    "dashes": "a---b -- c--d - e",
    "whitespace": "  \tJack\n\nGisburn   \r\n was  ",
    "empty": "",
    "only-unknown": "Zebra quokka xylophone",
    "end-of-text-literal": "<|endoftext|> the <|unk|>",
}


def main():
    story = read_story()
    tokenizer = verdict_tokenizer()
    TEXTS["first-sentence"] = story[:story.index(".") + 1]
    cases = [{"name": name, "text": text, "tokens": split_text(text), "ids": tokenizer.encode(text),
              "decoded": tokenizer.decode(tokenizer.encode(text))}
             for name, text in TEXTS.items()]
    out = {
        "vocab_size": len(tokenizer.str_to_int),
        "story_ids": tokenizer.encode(story),
        "vocab_head": [tokenizer.int_to_str[i] for i in range(20)],
        "vocab_tail": [tokenizer.int_to_str[i] for i in range(len(tokenizer.str_to_int) - 5, len(tokenizer.str_to_int))],
        "cases": cases,
    }
    path = ROOT / "tests" / "data" / "text" / "tokenizer_cases.json"
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}: {len(cases)} cases, {len(out['story_ids'])} story ids, vocab {out['vocab_size']}")


if __name__ == "__main__":
    main()

"""The simple word tokenizer of chapter 2 of "Build a Large Language Model (From Scratch)".

Its vocabulary is the sorted unique tokens of "The Verdict" plus <|endoftext|> and <|unk|>:
1,130 + 2 = 1,132 ids. The C++ app rebuilds the same vocabulary from the same text, so the ids
here are the contract both sides share (run this file to print the counts and a round trip).
"""

import re
from pathlib import Path

# The book's split: punctuation, the double dash and whitespace are separate pieces (the capture
# group keeps them); whitespace pieces are then dropped.
SPLIT_PATTERN = r'([,.:;?_!"()\']|--|\s)'
# Decoding joins tokens with spaces, then removes the space before punctuation, as the book does.
DECODE_PATTERN = r'\s+([,.:;?!"()\'])'

END_OF_TEXT = "<|endoftext|>"
UNKNOWN = "<|unk|>"

STORY_PATH = Path(__file__).resolve().parent.parent / "text" / "the-verdict.txt"


def split_text(text):
    """The text's tokens as strings, in order (the book's preprocessing)."""
    pieces = re.split(SPLIT_PATTERN, text)
    return [piece.strip() for piece in pieces if piece.strip()]


def build_vocab(text):
    """Token -> id: the sorted unique tokens of `text`, then <|endoftext|> and <|unk|>."""
    all_tokens = sorted(set(split_text(text)))
    all_tokens.extend([END_OF_TEXT, UNKNOWN])
    return {token: i for i, token in enumerate(all_tokens)}


def read_story(path=STORY_PATH):
    return Path(path).read_text(encoding="utf-8")


class SimpleTokenizerV2:
    """The book's SimpleTokenizerV2: words it has not seen become <|unk|>."""

    def __init__(self, vocab):
        self.str_to_int = vocab
        self.int_to_str = {i: s for s, i in vocab.items()}

    def encode(self, text):
        tokens = [t if t in self.str_to_int else UNKNOWN for t in split_text(text)]
        return [self.str_to_int[t] for t in tokens]

    def decode(self, ids):
        text = " ".join(self.int_to_str[i] for i in ids)
        return re.sub(DECODE_PATTERN, r"\1", text)


def verdict_tokenizer(path=STORY_PATH):
    """The tokenizer whose vocabulary is built from "The Verdict" (1,132 ids)."""
    return SimpleTokenizerV2(build_vocab(read_story(path)))


if __name__ == "__main__":
    story = read_story()
    unique = len(set(split_text(story)))
    tokenizer = verdict_tokenizer()
    print(f"characters: {len(story)}")
    print(f"tokens in the story: {len(split_text(story))}")
    print(f"unique tokens: {unique}; vocabulary size: {len(tokenizer.str_to_int)}")
    sample = 'Hello, do you like tea? In the sunlit terraces of the palace.'
    ids = tokenizer.encode(sample)
    print(f"{sample!r} -> {ids}")
    print(f"decoded: {tokenizer.decode(ids)!r}")

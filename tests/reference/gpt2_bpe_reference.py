#!/usr/bin/python3
"""Writes tests/data/text/gpt2_bpe_cases.json: GPT-2's byte-level BPE, computed as OpenAI's encoder.py
(github.com/openai/gpt-2, src/encoder.py) computes it, on a corpus of texts, The Verdict, and a few decodes of
ids that cut a character. The C++ tokenizer (core/text/gpt2_tokenizer.h) must give the same ids on every text.

The algorithm is OpenAI's, restated: Python's `regex` module (Debian: python3-regex) with GPT-2's pattern cuts
the text into pieces; each piece's UTF-8 bytes are written with bytes_to_unicode(); the merges of vocab.bpe join
the lowest-ranked pair of neighbours, every occurrence of it left to right, until no pair has a rank.
"<|endoftext|>" is split off first when it is allowed, as tiktoken's allowed_special does.

    /usr/bin/python3 tests/reference/gpt2_bpe_reference.py [--out PATH]

ctest's gpt2_bpe_reference_current writes it elsewhere and compares: the committed file is what this script makes.
"""

import argparse
import json
import random
import unicodedata
from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parents[2]
FILES = ROOT / "resources" / "tokenizers" / "gpt2"
OUT = ROOT / "tests" / "data" / "text" / "gpt2_bpe_cases.json"
PATTERN = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")
END_OF_TEXT = "<|endoftext|>"


def bytes_to_unicode():
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    chars = printable[:]
    extra = 0
    for b in range(256):
        if b not in printable:
            printable.append(b)
            chars.append(256 + extra)
            extra += 1
    return {b: chr(c) for b, c in zip(printable, chars)}


class Encoder:
    def __init__(self):
        self.encoder = json.loads((FILES / "encoder.json").read_text(encoding="utf-8"))
        self.decoder = {i: t for t, i in self.encoder.items()}
        lines = (FILES / "vocab.bpe").read_text(encoding="utf-8").split("\n")[1:-1]
        self.ranks = {tuple(line.split()): rank for rank, line in enumerate(lines)}
        self.byte_encoder = bytes_to_unicode()
        self.byte_decoder = {c: b for b, c in self.byte_encoder.items()}
        self.cache = {}

    def bpe(self, token):
        if token in self.cache:
            return self.cache[token]
        word = tuple(token)
        while len(word) > 1:
            pairs = {(word[i], word[i + 1]) for i in range(len(word) - 1)}
            first, second = min(pairs, key=lambda pair: self.ranks.get(pair, float("inf")))
            if (first, second) not in self.ranks:
                break
            merged, i = [], 0
            while i < len(word):
                try:
                    j = word.index(first, i)
                except ValueError:
                    merged.extend(word[i:])
                    break
                merged.extend(word[i:j])
                i = j
                if i < len(word) - 1 and word[i + 1] == second:
                    merged.append(first + second)
                    i += 2
                else:
                    merged.append(word[i])
                    i += 1
            word = tuple(merged)
        self.cache[token] = word
        return word

    def encode_ordinary(self, text):
        ids = []
        for piece in PATTERN.findall(text):
            symbols = "".join(self.byte_encoder[b] for b in piece.encode("utf-8"))
            ids.extend(self.encoder[t] for t in self.bpe(symbols))
        return ids

    def encode(self, text, allow_special):
        if not allow_special:
            return self.encode_ordinary(text)
        ids = []
        for k, part in enumerate(text.split(END_OF_TEXT)):
            if k:
                ids.append(self.encoder[END_OF_TEXT])
            ids.extend(self.encode_ordinary(part))
        return ids

    def decode(self, ids):
        data = bytes(self.byte_decoder[c] for i in ids for c in self.decoder[i])
        return data.decode("utf-8", errors="replace")


BOOK = "Hello, do you like tea? <|endoftext|> In the sunlit terraces of someunknownPlace."

NAMED = {
    "book-chapter-2": (BOOK, True),
    "book-chapter-2-special-as-text": (BOOK, False),
    "empty": ("", False),
    "one-letter": ("a", False),
    "accented": ("Café naïve résumé, Ångström, Dvořák, façade, coöperate, São Paulo, Łódź, Øresund", False),
    "accented-decomposed": ("Cafe\u0301 nai\u0308ve, n\u0303, a\u030a", False),
    "digits": ("0 1 12 123 1234 12345 123456 9876543210 007 2024-01-31", False),
    "numbers-with-separators": ("1,234,567.89 and 1.234.567,89 and 10 000 and 1_000_000 and $3.50 or €12,00", False),
    "numbers-other-scripts": ("٣٤٥ ۱۲۳ १२३ 一二三 ² ³ ½ Ⅻ ⑤ 𝟙𝟚", False),
    "scientific": ("6.022e23, -1.5E-10, 0x1F, 3.14159265358979, 1/3, 50%", False),
    "emoji": ("I ❤️ tea 🍵! 😀😃😄 👍🏽 👨‍👩‍👧‍👦 🇫🇷🇯🇵 🏳️‍🌈", False),
    "emoji-run": ("🙂🙂🙂🙂🙂🙂🙂🙂", False),
    "contractions": ("it's we're they've I'm we'll he'd don't can't isn't y'all 'twas", False),
    "contractions-upper": ("IT'S WE'RE THEY'VE I'M WE'LL HE'D DON'T 'S 'T", False),
    "contractions-mixed-case": ("It'S she'S He'Ll we'Re", False),
    "contraction-at-start": ("'s 're 've 'm 'll 'd 't", False),
    "apostrophe-variants": ("it’s rock'n'roll o'clock ''quoted'' '''", False),
    "spaces-run": ("a  b   c    d     e      f", False),
    "spaces-many": ("x" + " " * 40 + "y", False),
    "spaces-only": ("     ", False),
    "space-single": (" ", False),
    "leading-spaces": ("   leading spaces", False),
    "trailing-spaces": ("trailing spaces   ", False),
    "leading-and-trailing": ("  both  ", False),
    "newlines": ("line one\nline two\n\nline four\n\n\n\nline eight", False),
    "newlines-only": ("\n\n\n", False),
    "newline-then-spaces": ("a\n    indented\n\tand tabbed\n", False),
    "crlf": ("windows\r\nline\r\n\r\nends\r\n", False),
    "tabs": ("\tone\t\ttwo\t \tthree\t", False),
    "mixed-whitespace": ("a \t\n b\u00a0c\u3000d\u2028e\u2029f\u0085g\u000bh\u000ci", False),
    "nbsp-and-thin-spaces": ("10\u00a0000 and 5\u202f%, em\u2003space, hair\u200aspace", False),
    "mongolian-vowel-separator": ("ᠮᠣᠩᠭᠣᠯ \u180e x\u180ey \u180e\u180e", False),
    "zero-width": ("zero\u200bwidth join\u200der non\u200cjoin\ufeffbom", False),
    "information-separators": ("a\x1cb\x1dc\x1ed\x1fe", False),
    "control-characters": ("nul\x00bell\x07del\x7fesc\x1b[0m", False),
    "cjk-chinese": ("我喜欢喝茶。你呢？今天天气很好，我们去公园散步吧！", False),
    "cjk-japanese": ("私はお茶が好きです。カタカナとひらがな、漢字。ｶﾀｶﾅ", False),
    "cjk-korean": ("나는 차를 좋아합니다. 한국어 텍스트입니다!", False),
    "mixed-scripts": ("English, Русский, Ελληνικά, العربية, עברית, हिन्दी, ไทย, ქართული, Հայերեն, 中文", False),
    "script-switch-in-word": ("abcабвαβγ中文abc123абв", False),
    "right-to-left": ("مرحبا بالعالم! שלום עולם? 123 مرحبا", False),
    "punctuation-runs": ("Wait... what?!?! No!!! (really) [yes] {no} <<>> --- *** ### @@@ ~~~ ``` ...", False),
    "punctuation-mixed": ("«Bonjour», „Hallo“, “quotes”, ‘single’, — dash – en-dash … ellipsis ¿qué? ¡sí!", False),
    "symbols": ("© ® ™ ° ± × ÷ ∞ ≈ ≠ ≤ ≥ √ ∑ ∫ π µ § ¶ † ‡ • ← → ↑ ↓ ♠ ♣ ♥ ♦ ★", False),
    "currency": ("$100 €50 £30 ¥1000 ₹500 ₿0.01 ¢99", False),
    "code": ("def f(x):\n    return x**2 + 1  # square\n\nif __name__ == '__main__':\n\tprint(f(3))\n", False),
    "json-like": ('{"key": [1, 2.5, "three"], "nested": {"a": null, "b": true}}', False),
    "url-and-email": ("See https://example.com/path?q=1&r=two#frag or mail someone@example.org.", False),
    "markdown": ("# Title\n\n* item one\n* item **two**\n\n> quote\n\n`code` and [link](http://x.y)", False),
    "hashtags-and-mentions": ("#MachineLearning @someone $TICKER %percent ^caret &amp;", False),
    "long-word": ("Pneumonoultramicroscopicsilicovolcanoconiosis supercalifragilisticexpialidocious", False),
    "long-run-letter": ("a" * 300, False),
    "long-run-digits": ("7" * 100, False),
    "long-run-spaces": (" " * 500 + "end", False),
    "long-run-newlines": ("\n" * 64 + "x", False),
    "repeated-word": ("the " * 50, False),
    "end-of-text-alone": ("<|endoftext|>", True),
    "end-of-text-twice": ("<|endoftext|><|endoftext|>", True),
    "end-of-text-in-word": ("before<|endoftext|>after", True),
    "end-of-text-spaced": (" <|endoftext|> ", True),
    "end-of-text-as-text": ("<|endoftext|>", False),
    "end-of-text-partial": ("<|endoftext| and <|endoftext and |endoftext|>", True),
    "end-of-text-newlines": ("first document\n<|endoftext|>\nsecond document", True),
    "upper-case": ("THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG", False),
    "title-case": ("The Quick Brown Fox Jumps Over The Lazy Dog", False),
    "dates-times": ("2024-03-15T12:34:56Z, 15/03/2024, 3:45pm, 12h30", False),
    "math": ("E = mc², a² + b² = c², ∀x ∈ ℝ: x² ≥ 0, f′(x) = 2x", False),
}

# Words of many scripts and kinds, joined at random into the "varied lines" below.
WORDS = """the of and to in is was that for it with as his on be at by I this had not are but from or have an
they which one you were her all she there would their we him been has when who will more no if out so said what
up its about into than them can only other new some could time these two may then do first any my now such like
tea sunlit terraces palace Gisburn Jack painting Rickham Stroud Riviera Monte Carlo picture portrait sketch
don't it's I'm we'll you've they'd she's can't won't isn't aren't DON'T IT'S Jack's Gisburn's
naïve café résumé über straße Ärger Öl Übung école garçon élève niño año señor corazón ação coração
Привет мир спасибо хорошо Москва Ελλάδα καλημέρα ευχαριστώ שלום תודה مرحبا شكرا नमस्ते धन्यवाद
你好 谢谢 中国 北京 上海 こんにちは ありがとう 東京 カタカナ 안녕하세요 감사합니다 서울
สวัสดี ขอบคุณ გამარჯობა Բարև ሰላም வணக்கம் ನಮಸ್ಕಾರ
😀 🍵 ❤️ 👍🏽 🇫🇷 🚀 ✨ 🎉 👨‍💻 🤖 ☕ 🌍 ½ ⅓ ² ³ ∞ π √ ≈ ≠ © ™ € £ ¥ $ % & @ # * + = < > | ~ ^
0 1 7 42 100 365 1024 2024 3.14 2.718 1,000 1,000,000 0.001 -5 +7 10^6 1e9 50% 24/7 9:30 007
( ) [ ] { } " ' ` , . ; : ! ? ... -- — – … « » „ “ ” ‘ ’ ¿ ¡ / \\ _""".split()

SEPARATORS = [" "] * 12 + ["  ", "   ", "\n", "\n\n", "\t", " \n", "\n ", ", ", ". ", "! ", "? ", ": ", "; ", "-",
                          "—", "/", "'", "'s ", "\u00a0", "\u3000", ""]

# Blocks random characters are drawn from: Latin, Greek, Cyrillic, Hebrew, Arabic, Devanagari, Thai, Hangul
# Jamo, punctuation, symbols, CJK, Hangul syllables, emoji, mathematical letters and digits.
BLOCKS = [(0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x590, 0x5FF), (0x600, 0x6FF),
          (0x900, 0x97F), (0xE00, 0xE7F), (0x1100, 0x11FF), (0x2000, 0x206F), (0x2070, 0x218F), (0x2190, 0x2BFF),
          (0x3000, 0x30FF), (0x4E00, 0x4FFF), (0xAC00, 0xAD00), (0xFF00, 0xFFEF), (0x1D400, 0x1D7FF),
          (0x1F300, 0x1F64F), (0x1F900, 0x1F9FF)]


def random_char(rng):
    while True:
        lo, hi = rng.choice(BLOCKS)
        c = chr(rng.randint(lo, hi))
        # Unassigned in this Python's Unicode database: the regex module may know a newer Unicode than PCRE2.
        if unicodedata.category(c) not in ("Cn", "Cs"):
            return c


def varied_lines(rng, count):
    lines = []
    for k in range(count):
        if k % 4 == 3:  # a line of characters drawn at random
            lines.append("".join(random_char(rng) for _ in range(rng.randint(1, 40))))
            continue
        parts = []
        for _ in range(rng.randint(1, 16)):
            parts.append(rng.choice(WORDS))
            parts.append(rng.choice(SEPARATORS))
        line = "".join(parts)
        if rng.random() < 0.2:
            line = line.upper()
        if rng.random() < 0.15:
            line = " " * rng.randint(1, 4) + line
        lines.append(line)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    out_path = parser.parse_args().out
    encoder = Encoder()
    rng = random.Random(20240531)
    cases = [{"name": name, "text": text, "allow_special": allow, "ids": encoder.encode(text, allow)}
             for name, (text, allow) in NAMED.items()]
    for k, line in enumerate(varied_lines(rng, 320)):
        cases.append({"name": f"varied-{k:03d}", "text": line, "allow_special": False,
                      "ids": encoder.encode(line, False)})
    story = (ROOT / "resources" / "text" / "the-verdict.txt").read_text(encoding="utf-8")
    # Whole texts cut after some tokens: the last character may be cut in the middle, decoded as U+FFFD.
    decodes = []
    for name in ("emoji", "cjk-chinese", "mixed-scripts", "accented", "emoji-run"):
        ids = encoder.encode(NAMED[name][0], False)
        for cut in range(1, min(len(ids), 12)):
            decodes.append({"name": f"{name}-first-{cut}", "ids": ids[:cut], "text": encoder.decode(ids[:cut])})
    out = {
        "tokenizer": "gpt2 (OpenAI's encoder.py algorithm, Python regex " + regex.__version__ + ")",
        "vocab_size": len(encoder.encoder),
        "merges": len(encoder.ranks),
        "verdict_ids": encoder.encode(story, False),
        "cases": cases,
        "decodes": decodes,
    }
    text = json.dumps(out, ensure_ascii=False, separators=(",", ":"))
    out_path.write_text(text.replace('},{"name"', '},\n{"name"') + "\n", encoding="utf-8")  # a case a line, for diffs
    print(f"wrote {out_path}: {len(cases)} texts, The Verdict as {len(out['verdict_ids'])} tokens, {len(decodes)} decodes")


if __name__ == "__main__":
    main()

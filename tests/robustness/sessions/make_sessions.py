#!/usr/bin/env python3
"""Writes the malformed session files of the robustness corpus (and one good one) into
tests/robustness/sessions/, and cases.tsv beside them: `file<TAB>phrase the refusal must contain`
(an empty phrase: the file opens). The files are committed; run this only to regenerate them.
Run by tests/ui/test_ui_session_corpus.cpp. Standard library only."""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

GOOD = {
    "format": "attention-lab-session",
    "version": 1,
    "settings": {
        "batch": 2,
        "call": "MultiHeadAttention(d_in=3, d_out=2, context_length=6, dropout=0.0, num_heads=2, qkv_bias=False)",
        "call_line": "MultiHeadAttention(3, 2, 6, 0.0, 2)",
        "input": "book",
        "memory_budget_bytes": 2147483648,
        "seed": 123,
        "tokens": 6,
        "training": False,
        "weights": {"source": "seeded"},
    },
    "view": {"batch_index": 1, "head": 1, "heatmap": "weights", "stage": "attn_weights", "tab": "heatmaps"},
}

cases = []


def raw(name, data, phrase):
    with open(os.path.join(HERE, name + ".attnlab.json"), "wb") as f:
        f.write(data)
    cases.append((name + ".attnlab.json", phrase))


def edited(name, phrase, edit):
    """GOOD with one edit applied; `edit` changes the copy in place."""
    s = copy.deepcopy(GOOD)
    edit(s)
    text = json.dumps(s, indent=4, sort_keys=True)
    if len(text) > 10000:  # the 30,000-element arrays: on one line, so the corpus stays small
        text = json.dumps(s, sort_keys=True)
    raw(name, text.encode() + b"\n", phrase)


def setting(key, value):
    return lambda s: s["settings"].__setitem__(key, value)


def view(key, value):
    return lambda s: s["view"].__setitem__(key, value)


def weights(**fields):
    return lambda s: s["settings"].__setitem__("weights", fields)


def without(*path):
    def edit(s):
        for key in path[:-1]:
            s = s[key]
        del s[path[-1]]
    return edit


good_bytes = json.dumps(GOOD, indent=4, sort_keys=True).encode() + b"\n"
raw("good", good_bytes, "")

# Not JSON at all, or cut short.
raw("empty", b"", "it is empty, so it holds no session")
raw("blank", b"  \n\t\n", "it is empty, so it holds no session")
raw("truncated", good_bytes[:len(good_bytes) // 2], "perhaps cut short")
raw("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "it is not valid JSON")
raw("non-utf8", good_bytes.replace(b'"MultiHeadAttention(3, 2, 6, 0.0, 2)"', b'"Multi\xff\xfeHead(3)"'),
    "not UTF-8 text")
raw("deep-nesting", b"[" * 5000 + b"]" * 5000, "nested too deeply")

# JSON, but not a session object.
raw("not-an-object-array", b"[1, 2, 3]\n", "its JSON is not an object")
raw("not-an-object-string", b'"attention-lab-session"\n', "its JSON is not an object")
raw("not-an-object-null", b"null\n", "its JSON is not an object")
raw("array-30000-elements", b"[" + b", ".join([b"1"] * 30000) + b"]\n", "its JSON is not an object")
edited("other-format", 'its "format" is not "attention-lab-session"', lambda s: s.__setitem__("format", "x"))
edited("no-format", "this is not an Attention Lab session", without("format"))
edited("newer-version", "written by a newer Attention Lab (format version 4)", lambda s: s.__setitem__("version", 4))

# Missing fields.
edited("missing-version", '"version" is missing; it must be a whole number', without("version"))
edited("missing-settings", '"settings" is missing; it must be an object', without("settings"))
edited("missing-view", '"view" is missing; it must be an object', without("view"))
edited("missing-call", '"call" is missing; it must be a string', without("settings", "call"))
edited("missing-tokens", '"tokens" is missing; it must be a whole number from 1', without("settings", "tokens"))
edited("missing-weights-source", '"source" is missing; it must be a string', weights())
edited("missing-weights-path", '"path" is missing; it must be a string', weights(source="file", layout="torch"))

# Wrong types.
edited("wrong-type-settings", '"settings" must be an object, not an array of 0 elements',
       lambda s: s.__setitem__("settings", []))
edited("wrong-type-batch", '"batch" must be a whole number from 1 to 9007199254740992, not the string "8"',
       setting("batch", "8"))
edited("wrong-type-call", '"call" must be a string, not the number 42', setting("call", 42))
edited("wrong-type-training", '"training" must be true or false, not the string "yes"', setting("training", "yes"))
edited("wrong-type-head", '"head" must be a whole number from 0 to 1048576, not the number 1.5', view("head", 1.5))
edited("wrong-type-stage", '"stage" must be a string, not null', view("stage", None))
edited("array-30000-batch", '"batch" must be a whole number from 1 to 9007199254740992, not an array of 30000',
       setting("batch", [1] * 30000))

# Numbers out of range: huge, overflowing, negative, zero, NaN-like strings.
raw("huge-tokens-1e400", good_bytes.replace(b'"tokens": 6', b'"tokens": 1e400'), "it is not valid JSON (illegal number at byte")
raw("huge-batch-20-digits", good_bytes.replace(b'"batch": 2', b'"batch": 99999999999999999999'),
    '"batch" must be a whole number from 1 to 9007199254740992, not the number 1e+20')
edited("huge-batch-index", '"batch_index" must be a whole number from 0 to 1048576', view("batch_index", 2**32))
edited("huge-version", '"version" must be a whole number', lambda s: s.__setitem__("version", 1e300))
edited("huge-layer", '"layer" must be a whole number from 0 to 10000',
       weights(source="file", path="/nonexistent.safetensors", layout="torch", layer=10**12))
edited("negative-batch", '"batch" must be a whole number from 1', setting("batch", -2))
edited("negative-seed", '"seed" must be a whole number from 0', setting("seed", -1))
edited("zero-tokens", '"tokens" must be a whole number from 1', setting("tokens", 0))
edited("zero-memory-budget", '"memory_budget_bytes" must be a whole number from 1', setting("memory_budget_bytes", 0))
edited("nan-string-tokens", '"tokens" must be a whole number from 1 to 9007199254740992, not the string "NaN"',
       setting("tokens", "NaN"))
edited("infinity-string-seed", 'not the string "Infinity"', setting("seed", "Infinity"))
edited("nan-in-call", "the session's \"call\" does not parse",
       setting("call", "MultiHeadAttention(d_in=3, d_out=2, context_length=6, dropout=nan, num_heads=2)"))
edited("overflow-in-call", "does not fit in 64 bits",
       setting("call", "MultiHeadAttention(d_in=99999999999999999999, d_out=2, context_length=6, dropout=0.0, "
                       "num_heads=2)"))

# Names the app does not know.
edited("unknown-module-class", "the session's \"call\" does not parse", setting("call", "Transformer(d_in=3)"))
edited("unknown-tab", '"tab" must be one of stepper, heatmaps, debug, designs, tradeoffs, overview … not the string "graphs"',
       view("tab", "graphs"))
edited("unknown-heatmap", '"heatmap" must be one of scores', view("heatmap", "probabilities"))
edited("unknown-input", '"input" must be "book", "random" or "text", not the string "file"', setting("input", "file"))
edited("unknown-weights-source", '"source" of "weights" must be "seeded" or "file", not the string "url"',
       weights(source="url"))
# A newline (or any control character) in a quoted value is escaped, so the refusal stays one line.
edited("newline-in-value", '"source" of "weights" must be "seeded" or "file", not the string "seeded\\x0a"',
       weights(source="seeded\n"))
edited("unknown-weights-layout", "unknown weight layout 'keras'",
       weights(source="file", path="/nonexistent.safetensors", layout="keras"))

# Files the session names, and the session path itself.
edited("weights-missing", "the weights file '/nonexistent/attention-lab/weights.safetensors' it names does not exist",
       weights(source="file", path="/nonexistent/attention-lab/weights.safetensors", layout="torch"))
edited("weights-directory", "the weights file '/' it names is a directory", weights(source="file", path="/",
                                                                                   layout="torch"))
edited("weights-empty-path", '"weights" has an empty "path"', weights(source="file", path="", layout="torch"))

# A sweep's kept models (features/tradeoffs/sweep_run_models.h): a model that cannot be read leaves only its run
# without one (the session opens; test_ui_session_models checks the sentence naming the run), while a "studied"
# that names no run is refused.
def with_sweep(model=None, studied=None):
    def edit(s):
        s["version"] = 3  # the sweep is version 3's, which also needs the Debugging tab's choices
        s["lessons"] = {"bug": "skip-head-transpose", "section": "contract",
                        "transfer": {"d_in": 3, "d_out": 2,
                                     "key": {"transpose": True, "written": True},
                                     "query": {"transpose": True, "written": True},
                                     "value": {"transpose": True, "written": True}}}
        run = {"heads": 2, "seed": 0, "steps_done": 4, "ms_per_step": 1.0, "finished": True,
               "evals": [[4, 2.5, 0.25]]}
        if model is not None:
            run["model"] = model
        sweep = {"settings": {"task": "induction", "vocab": 16, "context": 32, "emb": 8, "layers": 1, "heads": [2],
                              "seeds": 1, "steps": 4, "batch": 2, "lr": 0.003, "weight_decay": 0.01},
                 "runs": [run], "wall_seconds": 1.0, "cancelled": False}
        if studied is not None:
            sweep["studied"] = studied
        s["sweep"] = sweep
    return edit


edited("sweep-model-not-base64", "", with_sweep(model="not*base64!"))
edited("sweep-model-huge-header", "", with_sweep(model="AAAAAAAAABA="))  # a header length of 2^60
edited("sweep-studied-no-run", '"studied" must be a whole number from 0 to 0', with_sweep(studied=3))
os.makedirs(os.path.join(HERE, "a-directory.attnlab.json"), exist_ok=True)
with open(os.path.join(HERE, "a-directory.attnlab.json", "README"), "w") as f:
    f.write("A directory named like a session file: opening it must be refused.\n")
cases.append(("a-directory.attnlab.json", "it is a directory, not a session file"))

with open(os.path.join(HERE, "cases.tsv"), "w") as f:
    f.write("# Written by make_sessions.py; run by tests/ui/test_ui_session_corpus.cpp.\n")
    f.write("# file\tphrase the one-sentence refusal must contain, parts split by ' … ' in order (empty: the file opens)\n")
    for name, phrase in cases:
        f.write(f"{name}\t{phrase}\n")

#!/usr/bin/python3
"""Records every case of tests/data/student_modules/expected.json -- the book's five modules and the
learners' wrong ones -- with resources/pytorch/attention_lab_probe.py, reads each file back from its bytes
as the app will, and checks the reference matcher's first divergence against the case's expectation.

    /usr/bin/python3 tests/reference/make_student_recordings.py OUT_DIR [--only NAME ...]

OUT_DIR receives NAME.safetensors per case (a test runs this into a temporary folder; the files are also
the corpus for the C++ matcher). Exit 0 when every case matches, 1 with a line per mismatch otherwise.
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from book_stages import BOOK, REPO, book_classes, book_stages, load_source  # noqa: E402

sys.path.insert(0, BOOK)
import torch  # noqa: E402
from attention_lab_probe import record  # noqa: E402
from first_divergence import first_divergence  # noqa: E402
from read_recording import read_recording  # noqa: E402

EXPECTED = os.path.join(REPO, "tests", "data", "student_modules", "expected.json")


def module_class(case, classes):
    path = os.path.join(REPO, case["file"])
    if os.path.dirname(path) == BOOK:  # the book's one copy, imported once with its head class
        return classes[case["class"]]
    return getattr(load_source(path, "student_" + case["name"]), case["class"])


def make_input(spec, embeddings):
    x = torch.tensor(embeddings, dtype=torch.float32)
    return torch.stack([x] * spec["batch"]) if spec.get("batch") else x


def describe(result):
    if result is None:
        return "no divergence"
    scope = f" in {result['scope']}" if result.get("scope") else ""
    return f"{result['stage']} ({result['kind']}) at line {result['line']}{scope}"


def run_case(case, classes, embeddings, out_dir):
    torch.manual_seed(case["seed"])  # the weights the book's chapter gets for this seed and call
    module = module_class(case, classes)(**case["args"])
    rec = record(module, make_input(case["input"], embeddings))
    path = os.path.join(out_dir, case["name"] + ".safetensors")
    rec.save(path)
    recording = read_recording(path)
    return first_divergence(recording, book_stages(recording, classes))


def matches(got, want):
    if want is None or got is None:
        return want is None and got is None
    return all(got.get(key) == value for key, value in want.items())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", help="folder for the recordings (created if missing)")
    parser.add_argument("--only", nargs="*", help="run only these case names")
    parser.add_argument("--expected", default=EXPECTED, help="the cases (default: %(default)s)")
    args = parser.parse_args()
    torch.set_num_threads(1)  # the reference machines are small and shared
    os.makedirs(args.out_dir, exist_ok=True)
    with open(args.expected) as f:
        spec = json.load(f)
    classes, failed, passed = book_classes(), [], 0
    for case in spec["cases"]:
        if args.only and case["name"] not in args.only:
            continue
        got = run_case(case, classes, spec["embeddings"], args.out_dir)
        if matches(got, case["expected"]):
            passed += 1
            print(f"ok    {case['name']}: {describe(got)}")
        else:
            failed.append(f"{case['name']}: expected {describe(case['expected'])}, the matcher found {describe(got)}")
            print(f"FAIL  {failed[-1]}")
    print(f"{passed} passed, {len(failed)} failed")
    if failed:
        print(f"the first divergence differs from {args.expected} for:\n  " + "\n  ".join(failed),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

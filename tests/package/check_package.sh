#!/usr/bin/env bash
# `make package-check`: what a learner gets from `apt-get install ./attention-lab_*.deb`, checked without
# installing it. The package must hold every file below, depend on the libraries its binaries link, unpack
# into a temporary root whose programs run from there (the CLI on a call and on a shipped model, the GUI
# offscreen, the recorder in PyTorch when it is installed), and apt must resolve its dependencies here.
# Usage: check_package.sh attention-lab_<version>_<arch>.deb
set -euo pipefail
deb=$(realpath "$1")
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=$root/runtime
mkdir -m 700 "$XDG_RUNTIME_DIR"
fail() {
    echo "FAIL: $*"
    exit 1
}
step() { echo "-- $*"; }

step "files in $(basename "$deb")"
listing=$(dpkg-deb -c "$deb" | awk '{ print $NF }')
expected=(
    usr/bin/attention-lab usr/bin/attention-lab-cli
    usr/share/applications/io.github.attention_lab.AttentionLab.desktop
    usr/share/icons/hicolor/scalable/apps/io.github.attention_lab.AttentionLab.svg
    usr/share/metainfo/io.github.attention_lab.AttentionLab.metainfo.xml
    usr/share/man/man1/attention-lab.1.gz usr/share/man/man1/attention-lab-cli.1.gz
    usr/share/attention-lab/attention_lab_probe.py usr/share/attention-lab/load_safetensors.py
    usr/share/attention-lab/pytorch/MultiHeadAttention.py usr/share/attention-lab/pytorch/CausalAttention.py
    usr/share/attention-lab/pytorch/GroupedQueryAttention.py
    usr/share/attention-lab/models/verdict-gpt-h1.safetensors usr/share/attention-lab/models/verdict-gpt-h2.safetensors
    usr/share/attention-lab/models/verdict-gpt-h4.safetensors usr/share/attention-lab/models/verdict-gpt-h8.safetensors
    usr/share/attention-lab/models/induction-gpt-h4.safetensors
    usr/share/attention-lab/training/train_verdict_gpt.py usr/share/attention-lab/text/the-verdict.txt
    usr/share/attention-lab/tokenizers/gpt2/encoder.json usr/share/attention-lab/tokenizers/gpt2/vocab.bpe
    usr/share/attention-lab/tokenizers/gpt2/LICENSE usr/share/attention-lab/tokenizers/gpt2/README.md
    usr/share/doc/attention-lab/README.md usr/share/doc/attention-lab/docs/README.md
)
# The manual: every page of the source tree's docs/, where the man pages' SEE ALSO says it is.
tree=$(cd "$(dirname "$0")/../.." && pwd)
for page in "$tree"/docs/*.md; do
    expected+=("usr/share/doc/attention-lab/docs/$(basename "$page")")
done
for path in "${expected[@]}"; do
    grep -qxF "./$path" <<<"$listing" || fail "the package has no /$path."
done
echo "all ${#expected[@]} expected files present, $(grep -vc '/$' <<<"$listing") files in all"

step "control fields"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# dpkg-shlibdeps' work: the Qt, OpenBLAS and C++ runtime libraries the binaries link, with versions.
names=$(tr ',|' '\n\n' <<<"$depends" | awk '{ print $1 }')
for library in libc6 libstdc++6 libqt6core6 libqt6gui6 libqt6widgets6 libqt6svg6 qt6-qpa-plugins; do
    grep -qxF "$library" <<<"$names" || fail "Depends does not name $library: $depends"
done
grep -q '^libopenblas' <<<"$names" || fail "Depends does not name OpenBLAS: $depends"
grep -q '^libpcre2-8' <<<"$names" || fail "Depends does not name PCRE2 (GPT-2's pre-tokenizer): $depends"
[ "$(dpkg-deb -f "$deb" Package)" = attention-lab ] || fail "the package is not called attention-lab."
version=$(dpkg-deb -f "$deb" Version)

step "the programs, run from a temporary root"
dpkg -x "$deb" "$root"
cli=$root/usr/bin/attention-lab-cli gui=$root/usr/bin/attention-lab
[ "$("$cli" --version | head -n1)" = "attention-lab-cli ${version%-*}" ] || fail "attention-lab-cli --version is not ${version%-*}."
"$cli" --version | grep -q '^matrix products: ' || fail "attention-lab-cli --version does not name the matrix-product kernel."
# Read whole first: grep -q stops at its match, and the rest of a long help would die of SIGPIPE under pipefail.
help=$("$cli" --help)
grep -q '^  validate --call' <<<"$help" || fail "attention-lab-cli --help does not list validate."
"$cli" validate --call "MultiHeadAttention(768, 768, 1024, 0.0, 12)" --json | grep -q '"head_dim": 64,' ||
    fail "validate does not give head_dim 64 for GPT-2 small."
set +e
refusal=$("$cli" validate --call "MultiHeadAttention(768, 770, 1024, 0.0, 12)" 2>&1)
status=$?
set -e
[ "$status" = 1 ] && grep -q 770 <<<"$refusal" || fail "validate of d_out 770 over 12 heads did not refuse it (status $status)."
# The shipped models: by path in the unpacked root, and by name, which looks beside bin/ first.
"$cli" run --model "$root/usr/share/attention-lab/models/verdict-gpt-h4.safetensors" --dump "$root/h4.safetensors" \
    --json | grep -q '"model": "verdict-gpt-h4"' || fail "run --model on the installed verdict-gpt-h4 failed."
[ -s "$root/h4.safetensors" ] || fail "run --model wrote no dump."
"$cli" run --model induction-h4 --dump "$root/induction.safetensors" --json |
    grep -q '"model": "induction-gpt-h4"' || fail "run --model induction-h4 did not find the installed model."
set +e
searched=$("$cli" run --model h3 --dump "$root/h3.safetensors" 2>&1)
set -e
grep -qF "no model 'h3' in $root/usr/share/attention-lab/models," <<<"$searched" ||
    fail "run --model does not look in the installed share/attention-lab/models first: $searched"
# GPT-2's tokenizer files, found beside bin/ before the source tree the package was built from.
tokenized=$("$cli" tokenize --tokenizer gpt2 --text "Hello, do you like tea?" --json)
grep -qF "\"vocab\": \"$root/usr/share/attention-lab/tokenizers/gpt2/encoder.json\"" <<<"$tokenized" ||
    fail "tokenize --tokenizer gpt2 does not read the installed share/attention-lab/tokenizers/gpt2: $tokenized"
[ "$(tr -d ' \n' <<<"$tokenized" | grep -o '"ids":\[[0-9,]*\]')" = '"ids":[15496,11,466,345,588,8887,30]' ] ||
    fail "tokenize --tokenizer gpt2 does not give GPT-2's ids for the book's example: $tokenized"
"$cli" trace --call "MultiHeadAttention(3, 2, 6, 0.0, 2)" --tokens 6 | grep -q '^context.merged ' ||
    fail "trace of the book's example lists no context.merged stage."
"$gui" --version | grep -q "${version%-*}" || fail "attention-lab --version is not ${version%-*}."
grep -q -- '--screenshot' <<<"$("$gui" --help)" || fail "attention-lab --help does not list --screenshot."
"$gui" --preset book --screenshot "$root/book.png"
[ "$(head -c 8 "$root/book.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "attention-lab --screenshot wrote no PNG."
echo "CLI: --version, --help, validate (valid and refused), run --model (path, name lookup), tokenize --tokenizer gpt2, trace; GUI: --version, --help, --screenshot"

step "desktop entry, metainfo, man pages"
desktop-file-validate "$root/usr/share/applications/io.github.attention_lab.AttentionLab.desktop"
appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.attention_lab.AttentionLab.metainfo.xml" >/dev/null ||
    fail "appstreamcli rejects the installed metainfo."
for page in "$root"/usr/share/man/man1/*.1.gz; do
    warnings=$(zcat "$page" | LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z 2>&1)
    [ -z "$warnings" ] || fail "groff warns about $(basename "$page"): $warnings"
    # SEE ALSO names the manual's index: it must be a file the package installs.
    manual=$(zcat "$page" | sed 's/\\-/-/g' | grep -o '/usr/share/doc/attention-lab/[^ ]*\.md' | head -n1 || true)
    [ -n "$manual" ] && [ -f "$root$manual" ] ||
        fail "$(basename "$page") names no installed manual in SEE ALSO (${manual:-none})."
done

step "the Python files"
# Debian's python3, whose python3-torch the recorder runs in (a python3 earlier on PATH may lack torch).
python=$(command -v /usr/bin/python3 || command -v python3)
"$python" -m py_compile "$root"/usr/share/attention-lab/*.py "$root"/usr/share/attention-lab/pytorch/*.py \
    "$root"/usr/share/attention-lab/training/*.py
find "$root/usr/share/attention-lab" -name __pycache__ -prune -exec rm -rf {} +
if "$python" -c 'import torch' 2>/dev/null; then
    # The recorder as the man page says to use it, on the book's module as installed; then the installed CLI
    # compares the recording with its own stages.
    OMP_NUM_THREADS=1 "$python" - "$root/usr/share/attention-lab" "$root/mine.safetensors" <<'EOF'
import sys, torch
share, out = sys.argv[1], sys.argv[2]
sys.path.append(share)
from attention_lab_probe import record
namespace = {"torch": torch, "nn": torch.nn}
source = f"{share}/pytorch/MultiHeadAttention.py"
exec(compile(open(source).read(), source, "exec"), namespace)
torch.manual_seed(123)
module = namespace["MultiHeadAttention"](3, 2, 6, 0.0, 2)
record(module, torch.rand(1, 6, 3)).save(out)
EOF
    compared=$("$cli" compare "$root/mine.safetensors")
    grep -q '^No divergence' <<<"$compared" || fail "compare of the book's own module: $compared"
    echo "recorded the installed MultiHeadAttention.py with the installed recorder; compare: $(tail -n1 <<<"$compared")"
    # The training script as installed (it finds ../pytorch and ../text beside it): two steps of one variant.
    OMP_NUM_THREADS=1 "$python" "$root/usr/share/attention-lab/training/train_verdict_gpt.py" --steps 2 --seeds 0 \
        --variants 1 --threads 1 --out "$root/trained" >/dev/null
    "$cli" run --model "$root/trained/verdict-gpt-h1.safetensors" --dump "$root/trained/dump.safetensors" >/dev/null
    echo "the installed training script trained two steps; the CLI ran what it wrote"
else
    echo "(no torch here: the recorder was only compiled)"
fi

step "apt-get install --simulate"
simulated=$(apt-get install --simulate "$deb" 2>&1) || fail "apt cannot install the package here: $simulated"
grep -E '^(Inst|Conf) ' <<<"$simulated" | head -n 20
grep -q '^Inst attention-lab ' <<<"$simulated" || fail "apt's simulation does not install attention-lab: $simulated"

if command -v lintian >/dev/null; then
    step "lintian (information only)"
    lintian --no-tag-display-limit "$deb" || true
fi
echo "package check: $(basename "$deb") is complete, runs from its root and installs here."

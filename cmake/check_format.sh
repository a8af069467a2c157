#!/usr/bin/env bash
# The C++ sources as .clang-format lays them out: lists every file clang-format would change and fails,
# so a layout slip is caught in CI instead of in the next person's diff. `clang-format -i FILE` fixes one.
set -euo pipefail
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-clang-format}
bad=()
while IFS= read -r f; do
    "$format" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files '*.cpp' '*.h' ':!:tests/data/**')
if ((${#bad[@]})); then
    echo "clang-format would change ${#bad[@]} file(s); run: clang-format -i ${bad[*]}" >&2
    exit 1
fi
echo "format check: $(git ls-files '*.cpp' '*.h' ':!:tests/data/**' | wc -l) files as .clang-format lays them out"

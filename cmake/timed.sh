#!/usr/bin/env bash
# The Makefile's phases, timed, so a first `make run` on a fresh machine says where its minutes go.
#   timed.sh NAME COMMAND...          runs COMMAND, then prints "[time] NAME: 12.3 s"
#   timed.sh --build DIR [TARGET...]  builds TARGETs (everything when none) in the Ninja tree DIR and says
#                                     how many build steps that took, beside the count for everything
set -uo pipefail

seconds_since() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

if [ "${1:-}" = --build ]; then
    dir=$2
    shift 2
    targets=()
    [ $# -eq 0 ] || targets=(--target "$@")
    # Ninja's dry run lists the steps still to do ("[k/n] ..."), without running them.
    steps=$(cmake --build "$dir" "${targets[@]}" -- -n | grep -c '^\[')
    all=$(cmake --build "$dir" -- -n | grep -c '^\[')
    what=${*:-everything}
    echo "Building $what: $steps steps to do (all of this tree: $all)."
    start=$(date +%s.%N)
    cmake --build "$dir" "${targets[@]}"
    status=$?
    echo "[time] build ($what): $(seconds_since "$start") s for $steps steps"
    exit $status
fi

name=$1
shift
start=$(date +%s.%N)
"$@"
status=$?
echo "[time] $name: $(seconds_since "$start") s"
exit $status

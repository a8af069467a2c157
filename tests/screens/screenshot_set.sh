#!/usr/bin/env bash
# A fixed set of window pictures -- every tab on the presets the README shows, the themes, presentation mode at
# 1280x720, and every step of every guided lesson -- made with the GUI's own --screenshot, so two builds (before and
# after a restructuring) can be compared picture by picture: tests/screens/compare_sets.sh OLD NEW.
#   tests/screens/screenshot_set.sh build/app/attention-lab OUTDIR
# Each picture runs in a fresh X server (xvfb-run) with a throwaway HOME, so no remembered state leaks in.
set -uo pipefail
app=$(realpath "$1")
out=$2
mkdir -p "$out"
cd "$(dirname "$0")/../.."
models=resources/models
shot() { # NAME SCREEN ARGS...
    local name=$1 screen=$2
    shift 2
    local home
    home=$(mktemp -d)
    HOME=$home XDG_CONFIG_HOME=$home/.config timeout 300 xvfb-run -a -s "-screen 0 ${screen}x24" \
        "$app" "$@" --screenshot "$out/$name.png" >/dev/null 2>"$out/$name.log" || echo "failed: $name" >&2
    rm -rf "$home"
}
big=1600x1000
small=1280x720
for preset in book gpt2-small book-3.6-wrapper; do
    shot "stepper-$preset" $big --preset "$preset"
    shot "heatmaps-$preset" $big --preset "$preset" --view heatmaps
    shot "designs-$preset" $big --preset "$preset" --view designs
    shot "tradeoffs-$preset" $big --preset "$preset" --view tradeoffs
done
shot stepper-queries-view $big --preset gpt2-small --stage queries.view
shot stepper-not-contiguous $big --preset gpt2-small --stage context.transposed
shot heatmaps-16 $big --preset gpt2-small --tokens 16 --stage attn_weights
shot debug-contract $big --preset book --view debug --lesson contract
shot debug-bugs $big --preset book --view debug --lesson bugs --bug skip-contiguous
shot debug-transfer $big --preset book --view debug --lesson transfer --no-transpose key
shot invalid-call $small --call "MultiHeadAttention(768, 770, 1024, 0.0, 12)" --presentation
for theme in dark high-contrast; do
    shot "stepper-$theme" $big --preset gpt2-small --stage queries.view --theme "$theme"
    shot "heatmaps-$theme" $big --preset book --stage attn_weights --theme "$theme"
done
shot presentation $small --preset gpt2-small --stage queries.heads --presentation
shot overview-h4 $big --model h4 --view overview
shot overview-induction-h4 $big --model induction-h4 --view overview
shot text-h4 $big --model h4 --stage attn_weights
for lesson in resources/lessons/*.md; do
    id=$(basename "$lesson" .md)
    steps=$(grep -c '^## ' "$lesson")
    for ((step = 1; step <= steps; step++)); do
        shot "lesson-$id-$step" $big --guide "$id" --guide-step "$step"
        shot "lesson-$id-$step-presenting" $small --guide "$id" --guide-step "$step" --presentation
    done
done
ls "$out"/*.png 2>/dev/null | wc -l

#!/usr/bin/env bash
# Keeps a man page true to its program: every --option the program's --help lists appears in the page, and
# every --option the page names is one --help lists (or one of the extras given: options a program accepts
# without listing them, such as attention-lab-cli's --version). With --commands, the same for the commands
# --help lists (lines "  name ..." indented by two spaces): each must start a ".B name" entry in the page.
# With --same-text OPTION, the page's formatted text says what --help says of OPTION, word for word: for
# lists the program builds (the views --view takes come from the page registry), so the page's list can
# never fall behind. groff must also format the page without a warning.
# Usage: check_man_options.sh [--commands] [--same-text OPTION]... PROGRAM PAGE.1 [EXTRA_OPTION...]
set -euo pipefail
check_commands=0
same_text=()
while [ $# -gt 0 ]; do
    case "$1" in
    --commands) check_commands=1; shift ;;
    --same-text) same_text+=("$2"); shift 2 ;;
    *) break ;;
    esac
done
program=$1 page=$2
shift 2
extras=("$@")

help=$("$program" --help)
# The page's text without comments, escapes or font changes: "\-\-call" and "\fB\-\-call\fR" read "--call".
text=$(grep -v '^\.\\"' "$page" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(..//g')

options_in() { grep -oE -- '--[a-z][a-z0-9-]*[a-z0-9]' | sort -u; }
help_options=$(options_in <<<"$help")
page_options=$(options_in <<<"$text")
[ -n "$help_options" ] || { echo "$program --help lists no --option; is it the right program?"; exit 1; }

failures=0
for option in $help_options; do
    if ! grep -qxF -- "$option" <<<"$page_options"; then
        echo "$page does not document $option, which '$program --help' lists."
        failures=$((failures + 1))
    fi
done
for option in $page_options; do
    if ! grep -qxF -- "$option" <<<"$help_options" && ! printf '%s\n' "${extras[@]}" | grep -qxF -- "$option"; then
        echo "$page documents $option, which '$program --help' does not list; remove it or list it in --help."
        failures=$((failures + 1))
    fi
done
if [ "$check_commands" = 1 ]; then
    commands=$(grep -oE '^  [a-z][a-z-]*( |$)' <<<"$help" | tr -d ' ' | sort -u)
    [ -n "$commands" ] || { echo "$program --help lists no command."; exit 1; }
    for command in $commands; do
        if ! grep -qE "^\.B $command( |$)" <<<"$text"; then
            echo "$page has no entry (.B $command ...) for the command '$command' that '$program --help' lists."
            failures=$((failures + 1))
        fi
    done
fi

# --help's description of an option: its line and the indented lines that continue it, less the option
# column; both texts with their white space folded, as groff justifies and --help wraps.
fold_space() { tr -s ' \n' '  ' | sed -e 's/^ //' -e 's/ $//'; }
description_of() {
    awk -v opt="$1" '
        found && /^ *-/ { exit }
        found { print; next }
        $1 ~ "^"opt"$" || $1 ~ "^"opt"," || $2 ~ "^"opt"$" { found = 1; sub(/^ *[^ ]+( <[^>]*>)?/, ""); print }
    ' <<<"$help" | fold_space
}
if [ ${#same_text[@]} -gt 0 ]; then
    formatted=$(LC_ALL=C.UTF-8 groff -man -Tascii -P-cbou "$page" 2>/dev/null | fold_space)
    for option in "${same_text[@]}"; do
        said=$(description_of "$option")
        if [ -z "$said" ]; then
            echo "'$program --help' has no description of $option."
            failures=$((failures + 1))
        elif ! grep -qF -- "$said" <<<"$formatted"; then
            echo "$page does not say what '$program --help' says of $option: \"$said\"."
            failures=$((failures + 1))
        fi
    done
fi

warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1 || true)
if [ -n "$warnings" ]; then
    echo "groff warns about $page: $warnings"
    failures=$((failures + 1))
fi

count=$(wc -w <<<"$help_options")
what="all $count options"
[ "$check_commands" = 0 ] || what="$what and $(wc -w <<<"$commands") commands"
if [ "$failures" -gt 0 ]; then
    echo "$failures problem(s) between $page and '$program --help'."
    exit 1
fi
echo "$page documents $what of '$program --help', and no other option."

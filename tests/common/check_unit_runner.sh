#!/bin/sh
# check_unit_runner.sh PROGRAM: a program of several test units (common/unit_main.h) runs the unit it is given,
# that unit alone, and refuses a name that is no unit of it, or none, rather than pass having run nothing.
set -u
program=$1
fail() {
    echo "$1"
    exit 1
}
out=$("$program" test_utf8 2>&1) || fail "$out
test_utf8 failed"
case $out in *"Start testing of TestUtf8 "*) ;; *) fail "$out
test_utf8 did not run TestUtf8" ;; esac
[ "$(printf '%s\n' "$out" | grep -c 'Start testing of')" -eq 1 ] || fail "$out
more than one test class ran"
"$program" test_no_such_unit >/dev/null 2>&1
status=$?
[ $status -eq 2 ] || fail "an unknown unit exited with $status, not 2"
"$program" >/dev/null 2>&1
status=$?
[ $status -eq 2 ] || fail "no unit named exited with $status, not 2"
"$program" --list | grep -qx test_tensor || fail "--list does not name test_tensor"
echo "the named unit ran alone; an unknown name and none were refused"

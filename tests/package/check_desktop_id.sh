#!/usr/bin/env bash
# The desktop id is one name: the desktop file is <id>.desktop and names the icon <id>, the metainfo is
# <id>.metainfo.xml with <id> and launches <id>.desktop, the window sets <id> as its desktop file name, and the
# id is reverse-DNS outside the namespaces reserved for examples (example.org, .com, .net).
# Usage: check_desktop_id.sh SOURCE_DIR ID
set -euo pipefail
src=$1 id=$2
fail() { echo "desktop id: $*" >&2; exit 1; }

[[ $id =~ ^[a-z][a-z0-9]*(\.[A-Za-z_][A-Za-z0-9_]*){2,}$ ]] ||
    fail "'$id' is not a reverse-DNS id (at least three parts, letters, digits and '_')."
case "${id,,}" in org.example.* | com.example.* | net.example.*)
    fail "'$id' is in a namespace reserved for examples; use the reverse-DNS of the project's real home." ;;
esac

desktop="$src/resources/$id.desktop" metainfo="$src/resources/$id.metainfo.xml"
[ -f "$desktop" ] || fail "resources/ has no $id.desktop."
[ -f "$metainfo" ] || fail "resources/ has no $id.metainfo.xml."
others=$(find "$src/resources" -maxdepth 1 \( -name '*.desktop' -o -name '*.metainfo.xml' \) \
    ! -name "$id.desktop" ! -name "$id.metainfo.xml" -printf '%f ')
[ -z "$others" ] || fail "resources/ also holds $others, named after another id."

grep -qx "Icon=$id" "$desktop" || fail "$id.desktop names the icon '$(sed -n 's/^Icon=//p' "$desktop")', not $id."
grep -q "<id>$id</id>" "$metainfo" || fail "the metainfo's <id> is not $id."
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" ||
    fail "the metainfo does not launch $id.desktop."
! grep -qiE 'example\.(org|com|net)' "$metainfo" "$desktop" ||
    fail "the metainfo or the desktop file still points at a reserved example domain."
grep -q "RENAME \${ATTNLAB_APP_ID}.svg" "$src/app/CMakeLists.txt" ||
    fail "app/CMakeLists.txt does not install the icon as \${ATTNLAB_APP_ID}.svg."
grep -q 'setDesktopFileName(QStringLiteral(ATTNLAB_APP_ID))' "$src/app/gui/gui_main.cpp" ||
    fail "the window does not give the desktop its id (QGuiApplication::setDesktopFileName)."
echo "desktop id $id: desktop file, icon, metainfo and window agree"

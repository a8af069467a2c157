#!/usr/bin/env bash
# Compares two picture sets of tests/screens/screenshot_set.sh pixel by pixel (the PNGs' decoded pixels, not their
# bytes): prints each picture that differs with the number of pixels that differ, and one that is missing on a side.
#   tests/screens/compare_sets.sh OLD NEW
set -uo pipefail
old=$1 new=$2 differ=0
for a in "$old"/*.png; do
    name=$(basename "$a")
    b=$new/$name
    if [ ! -f "$b" ]; then echo "missing in $new: $name"; differ=1; continue; fi
    n=$(python3 - "$a" "$b" <<'PY'
import sys, zlib, struct
def pixels(path):
    data = open(path, 'rb').read()
    pos, chunks, w, h = 8, [], 0, 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR': w, h = struct.unpack('>II', body[:8])
        if kind == b'IDAT': chunks.append(body)
        pos += 12 + length
    return w, h, zlib.decompress(b''.join(chunks))
wa, ha, a = pixels(sys.argv[1]); wb, hb, b = pixels(sys.argv[2])
if (wa, ha) != (wb, hb): print('size %dx%d vs %dx%d' % (wa, ha, wb, hb))
elif a == b: print(0)
else: print('%d bytes' % sum(1 for x, y in zip(a, b) if x != y))
PY
)
    if [ "$n" != 0 ]; then echo "differs: $name ($n)"; differ=1; fi
done
for b in "$new"/*.png; do [ -f "$old/$(basename "$b")" ] || { echo "new in $new: $(basename "$b")"; differ=1; }; done
[ $differ = 0 ] && echo "all $(ls "$old"/*.png | wc -l) pictures are pixel-identical"
exit $differ

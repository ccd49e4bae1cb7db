#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# abi-symbols.sh: the functions libchessdata.so exports (nm -D
# --defined-only), the names of the version script lib/libchessdata.map
# and the CD_API declarations of the public headers are the same three
# sets; each name found in one and missing from another is named.
# Where the build linked with the script (VERSION_SCRIPT_LDFLAGS), every
# exported function carries a version of the map, and the map's nodes
# are CHESSDATA_MAJOR.MINOR.
set -u
: "${top_srcdir:?}" "${top_builddir:?}"
NAME=abi-symbols
. "$top_srcdir/tests/testlib.sh"

so="$top_builddir/lib/.libs/libchessdata.so"
map="$top_srcdir/lib/libchessdata.map"
[ -f "$so" ] || { echo "SKIP: no shared library (lib/.libs/libchessdata.so)"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm is not installed"; exit 77; }

# The headers: every CD_API prototype, whatever its line breaks (as
# man-api.sh reads them).
cat "$top_srcdir"/lib/chessdata/*.h | tr '\n' ' ' | tr ';' '\n' |
    sed -n 's/.*CD_API[^(]*[^a-z0-9_]\(cd_[a-z0-9_]*\) *(.*/\1/p' |
    sort -u >"$T/headers"

# The map: comments out, then the names of the global: parts of every
# node; and the nodes' names.
tr '\n' ' ' <"$map" |
    awk '{ gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, ""); print }' >"$T/map.flat"
tr '{};' '\n\n\n' <"$T/map.flat" | sed 's/^[ 	]*//; s/[ 	]*$//' |
    awk '/^global:/ { g = 1; sub(/^global:[ \t]*/, "") }
	/^local:/ { g = 0 }
	g && $0 != "" { print }' | sort >"$T/map.all"
sort -u "$T/map.all" >"$T/map"
uniq -d "$T/map.all" | while read -r s; do
	echo "FAIL: $s: named more than once in lib/libchessdata.map" >&2
	echo x
done >"$T/dups"
[ -s "$T/dups" ] && status=1
tr '}' '\n' <"$T/map.flat" | sed -n 's/^[ ;]*\([A-Za-z0-9_.]*\) *{.*/\1/p' \
    >"$T/nodes"
[ -s "$T/nodes" ] || fail "lib/libchessdata.map has no version node"
while read -r node; do
	case $node in
	CHESSDATA_[0-9]*.[0-9]*) ;;
	*) fail "$node: a version node not named CHESSDATA_MAJOR.MINOR" ;;
	esac
done <"$T/nodes"
grep -q 'local:[[:space:]]*\*[[:space:]]*;' "$T/map.flat" ||
    fail "lib/libchessdata.map has no local: *; (every other name hidden)"

# The library: its defined dynamic symbols but the version nodes'
# (absolute, type A), each with its version when it has one.
nm -D --defined-only "$so" >"$T/nm" || { fail "nm -D $so"; exit 1; }
awk '$2 != "A" { print $3 }' "$T/nm" | sort >"$T/so.versioned"
sed 's/@.*//' "$T/so.versioned" | sort -u >"$T/so"
[ -s "$T/so" ] || fail "nm -D found no symbol in $so"

# name_diff A B WHAT-A WHAT-B: each name of A that B lacks
name_diff() {
	comm -23 "$T/$1" "$T/$2" >"$T/diff"
	while read -r s; do
		fail "$s: $3, but $4"
	done <"$T/diff"
}
name_diff so map "exported by libchessdata.so" "not in lib/libchessdata.map"
name_diff map so "in lib/libchessdata.map" "not exported by libchessdata.so"
name_diff so headers "exported by libchessdata.so" \
    "not declared CD_API in lib/chessdata/*.h"
name_diff headers so "declared CD_API in lib/chessdata/*.h" \
    "not exported by libchessdata.so"
name_diff map headers "in lib/libchessdata.map" \
    "not declared CD_API in lib/chessdata/*.h"
name_diff headers map "declared CD_API in lib/chessdata/*.h" \
    "not in lib/libchessdata.map"

# Linked with the script: every symbol with one of its versions.
if grep -q '^VERSION_SCRIPT_LDFLAGS = .*--version-script' \
    "$top_builddir/Makefile"; then
	while read -r s; do
		v=${s#*@@}
		case $s in
		*@@*) grep -qx "$v" "$T/nodes" ||
		    fail "$s: a version that lib/libchessdata.map has no node for" ;;
		*) fail "$s: exported without a version (the version script was not used)" ;;
		esac
	done <"$T/so.versioned"
fi

n=$(wc -l <"$T/so")
[ "$status" -eq 0 ] && echo "ok: $n exported functions, the same in the library, the map and the headers"
exit $status

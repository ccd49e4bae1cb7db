#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# man-api.sh: libchessdata(3) documents every exported function (CD_API
# in lib/chessdata/*.h) in its SYNOPSIS and in FUNCTIONS, and no function
# that is not exported.
set -u
: "${top_srcdir:?}"
page="$top_srcdir/man/libchessdata.3"
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
# every CD_API prototype, whatever its line breaks: the name before "("
cat "$top_srcdir"/lib/chessdata/*.h | tr '\n' ' ' | tr ';' '\n' |
    sed -n 's/.*CD_API[^(]*[^a-z0-9_]\(cd_[a-z0-9_]*\) *(.*/\1/p' |
    sort -u >"$T/api"
n=$(wc -l <"$T/api")
[ "$n" -gt 100 ] || { echo "FAIL: only $n exported functions found" >&2; exit 1; }
sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /s/^\.Fn \(cd_[a-z0-9_]*\).*/\1/p' "$page" |
    sort -u >"$T/synopsis"
sed -n '/^\.Sh FUNCTIONS/,/^\.Sh /s/^\.It Fn \(cd_[a-z0-9_]*\).*/\1/p' "$page" |
    sort -u >"$T/functions"
status=0
for part in synopsis functions; do
	if ! cmp -s "$T/api" "$T/$part"; then
		echo "FAIL: $part of libchessdata(3) and the exported functions differ" \
		    "(< exported only, > documented only):" >&2
		diff "$T/api" "$T/$part" | grep '^[<>]' >&2
		status=1
	fi
done
[ "$status" -ne 0 ] || echo "$n exported functions documented"
exit $status

#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# man-lint.sh: every man page in man/ through "groff -mdoc -ww -z": any
# warning or error fails.  Skipped (77) when configure found no groff.
set -u
NAME=man-lint
. "${top_srcdir:?}/tests/testlib.sh"
[ -n "${GROFF:-}" ] || skip "no groff"
n=0
for page in "$top_srcdir"/man/*.[1-9]; do
	[ -f "$page" ] || continue
	n=$((n + 1))
	out=$("$GROFF" -mdoc -ww -z "$page" 2>&1)
	st=$?
	if [ "$st" -ne 0 ] || [ -n "$out" ]; then
		fail "$page (exit $st):"
		printf '%s\n' "$out" >&2
	fi
done
[ "$n" -gt 0 ] || fatal "no man pages in $top_srcdir/man"
echo "$n man pages checked"
finish

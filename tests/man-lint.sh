#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# man-lint.sh: every man page in man/ through "groff -mdoc -ww -z": any
# warning or error fails.  Skipped (77) when configure found no groff.
set -u
: "${top_srcdir:?}"
[ -n "${GROFF:-}" ] || { echo "SKIP: no groff"; exit 77; }
status=0
n=0
for page in "$top_srcdir"/man/*.[1-9]; do
	[ -f "$page" ] || continue
	n=$((n + 1))
	out=$("$GROFF" -mdoc -ww -z "$page" 2>&1)
	st=$?
	if [ "$st" -ne 0 ] || [ -n "$out" ]; then
		echo "FAIL: $page (exit $st):" >&2
		printf '%s\n' "$out" >&2
		status=1
	fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no man pages in $top_srcdir/man" >&2; exit 1; }
echo "$n man pages checked"
exit $status

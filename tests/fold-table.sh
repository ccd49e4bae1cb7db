#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fold-table.sh: lib/data/fold_table.c (how pgn-dedup folds players' names,
# committed) is what lib/data/gen-fold.py writes.  Skipped (77) without
# python3, or when python3's Unicode data is another version than the
# table's (gen-fold.py would then write another table: say so).
set -u
: "${top_srcdir:?}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
tab="$top_srcdir/lib/data/fold_table.c"
have=$(sed -n 's/^const char cd__fold_unicode\[\] = "\(.*\)";$/\1/p' "$tab")
[ -n "$have" ] || { echo "FAIL: no Unicode version in $tab" >&2; exit 1; }
py=$(python3 -c 'import unicodedata; print(unicodedata.unidata_version)') ||
    { echo "SKIP: python3 has no unicodedata"; exit 77; }
[ "$py" = "$have" ] || {
	echo "SKIP: python3 has Unicode $py, the table $have"
	exit 77
}
T=$(mktemp -d "${TMPDIR:-/tmp}/foldtab.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
python3 "$top_srcdir/lib/data/gen-fold.py" >"$T/fold_table.c" ||
    { echo "FAIL: gen-fold.py" >&2; exit 1; }
cmp "$T/fold_table.c" "$tab" || {
	echo "FAIL: lib/data/fold_table.c is not what lib/data/gen-fold.py writes" \
	    "(python3 lib/data/gen-fold.py > lib/data/fold_table.c)" >&2
	exit 1
}
exit 0

#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# fold-table.sh: lib/data/fold_table.c (how pgn-dedup folds players' names,
# committed) is what lib/data/gen-fold.py writes.  Skipped (77) without
# python3, or when python3's Unicode data is another version than the
# table's (gen-fold.py would then write another table: say so).
set -u
NAME=foldtab
. "${top_srcdir:?}/tests/testlib.sh"
command -v python3 >/dev/null 2>&1 || skip "no python3"
tab="$top_srcdir/lib/data/fold_table.c"
have=$(sed -n 's/^const char cd__fold_unicode\[\] = "\(.*\)";$/\1/p' "$tab")
[ -n "$have" ] || fatal "no Unicode version in $tab"
py=$(python3 -c 'import unicodedata; print(unicodedata.unidata_version)') ||
    skip "python3 has no unicodedata"
[ "$py" = "$have" ] || skip "python3 has Unicode $py, the table $have"
python3 "$top_srcdir/lib/data/gen-fold.py" >"$T/fold_table.c" ||
    fatal "gen-fold.py"
cmp "$T/fold_table.c" "$tab" ||
    fail "lib/data/fold_table.c is not what lib/data/gen-fold.py writes" \
	"(python3 lib/data/gen-fold.py > lib/data/fold_table.c)"
finish

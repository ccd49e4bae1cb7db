#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# layers.sh: the library and the command-line layer are built in
# layers, and this test proves it on the objects of the build.
#
# 1. Calls: every object of libchessdata.la (lib/*/) and of
#    src/libcli.la (src/cli/) is read with nm(1): a file calls another
#    when it leaves undefined a symbol that the other defines.  The
#    graph of those calls has no cycle (no two files call each other,
#    not even round a longer circle); a cycle fails the test, named
#    file by file.
# 2. Includes: the graph of `#include "..."` between the .c and .h
#    files of lib/ and src/cli/ has no cycle either.
# 3. Folders: calls and includes go down this order only, never up:
#        common < core < pgn, epd, pgc, stream < data < cli
#    (the four folders of the middle rank may call one another, as
#    long as the file graph keeps no cycle); lib/core/gen-tables.c,
#    the program that writes lib/core/tables.c at build time, may
#    include the lexer's private header to compute its byte classes.
# The checks first run on planted faults (a circle of three files, a
# header loop, a call up the order) and must fail on them, naming
# each; then on the build.
#
# `tests/layers.sh --draw` (with top_srcdir and top_builddir set, as
# make check sets them; by default the current directory for both)
# prints the folders in their layers, which folder calls which, and
# with --draw=files each file's calls, and checks as ever.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
draw=
case ${1-} in
--draw) draw=folders ;;
--draw=files) draw=files ;;
--draw=folders) draw=folders ;;
'') ;;
*) echo "usage: layers.sh [--draw | --draw=files]" >&2; exit 2 ;;
esac
command -v nm >/dev/null 2>&1 || { echo "layers.sh: no nm" >&2; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT

# The objects: each .lo names its object (the PIC one in .libs, or the
# plain one in a static-only build); a .lo left over from a source
# that no longer exists is passed over.  The file is named by its
# source: lib/stream/libchessdata_la-frames.lo is lib/stream/frames.c.
n=0
for lo in "$top_builddir"/lib/*/*.lo "$top_builddir"/src/cli/*.lo; do
	[ -f "$lo" ] || continue
	dir=${lo%/*}
	rel=${dir#"$top_builddir"/}
	base=${lo##*/}
	base=${base%.lo}
	base=${base#*_la-}
	src=$rel/$base.c
	[ -f "$top_srcdir/$src" ] || [ -f "$top_builddir/$src" ] || continue
	obj=$(sed -n "s/^pic_object='\(.*\)'\$/\1/p" "$lo")
	[ -n "$obj" ] && [ "$obj" != none ] ||
	    obj=$(sed -n "s/^non_pic_object='\(.*\)'\$/\1/p" "$lo")
	[ -f "$dir/$obj" ] || { echo "FAIL: $lo: no object $obj" >&2; exit 1; }
	nm -P -g "$dir/$obj" >"$T/nm" || { echo "FAIL: nm $dir/$obj" >&2; exit 1; }
	awk -v f="$src" '
	NF < 2 { next }
	$2 == "U" || $2 == "w" || $2 == "v" { print "U", f, $1; next }
	{ print "D", f, $1 }' "$T/nm" >>"$T/syms"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "layers.sh: no objects in $top_builddir" >&2; exit 77; }

# The includes: "x.h" is looked for beside the file, then below lib/
# (-I lib); an include found in neither (config.h, in the build
# directory) is no file of these graphs.
(cd "$top_srcdir" && ls lib/*.h lib/*/*.h lib/*/*.c src/cli/*.c \
    src/cli/*.h 2>/dev/null) >"$T/files"
while read -r f; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
	    "$top_srcdir/$f" | while read -r h; do
		d=${f%/*}
		if [ -f "$top_srcdir/$d/$h" ]; then
			echo "$f $d/$h"
		elif [ -f "$top_srcdir/lib/$h" ]; then
			echo "$f lib/$h"
		fi
	done
done <"$T/files" >"$T/includes"

# graphs DRAW OBJECTS SYMS INCLUDES: the checks (and the drawing)
prog='
# the rank of a folder in the stated order; a folder not named here
# fails the test, so that a new folder is given its place
function rank(p) {
	if (p ~ /^lib\/common\//) return 0
	if (p ~ /^lib\/core\//) return 1
	if (p ~ /^lib\/(pgn|epd|pgc|stream)\//) return 2
	if (p ~ /^lib\/data\//) return 3
	if (p ~ /^src\/cli\//) return 4
	if (p ~ /^lib\/[^\/]*$/ || p ~ /^lib\/chessdata\//) return 5
	return -1
}
function folder(p,    a) {
	if (p ~ /^src\/cli\//) return "cli"
	if (p ~ /^lib\/chessdata\// || p ~ /^lib\/[^\/]*$/) return "public"
	split(p, a, "/")
	return a[2]
}
# depth-first search from v over the graph g (adjacency in adj[g, v],
# a space-separated list); a grey node met again closes a cycle
function dfs(g, v,    list, k, i, w, c, j) {
	color[g, v] = 1
	stack[++sp] = v
	k = split(adj[g, v], list, " ")
	for (i = 1; i <= k; i++) {
		w = list[i]
		if (color[g, w] == 1) {
			c = w
			for (j = sp; j >= 1 && stack[j] != w; j--)
				;
			c = ""
			for (; j <= sp; j++)
				c = c stack[j] " -> "
			print "FAIL: " g " cycle: " c w
			bad = 1
		} else if (color[g, w] == 0)
			dfs(g, w)
	}
	sp--
	color[g, v] = 2
}
function edge(g, a, b) {
	if (a == b || (g SUBSEP a SUBSEP b) in seen)
		return
	seen[g, a, b] = 1
	adj[g, a] = adj[g, a] " " b
	if (!((g SUBSEP a) in isnode)) { isnode[g, a] = 1; nodes[g, ++nn[g]] = a }
	if (!((g SUBSEP b) in isnode)) { isnode[g, b] = 1; nodes[g, ++nn[g]] = b }
}
FILENAME ~ /syms$/ && $1 == "D" { def[$3] = $2; next }
FILENAME ~ /syms$/ && $1 == "U" { und[++nu] = $2 SUBSEP $3; next }
FILENAME ~ /includes$/ { edge("include", $1, $2); next }
END {
	for (i = 1; i <= nu; i++) {
		split(und[i], a, SUBSEP)
		if (a[2] in def && def[a[2]] != a[1]) {
			edge("call", a[1], def[a[2]])
			why[a[1], def[a[2]]] = a[2]
		}
	}
	for (gi = 1; gi <= 2; gi++) {
		g = gi == 1 ? "call" : "include"
		for (i = 1; i <= nn[g]; i++)
			if (color[g, nodes[g, i]] == 0)
				dfs(g, nodes[g, i])
	}
	# the order of the folders
	for (k in seen) {
		split(k, a, SUBSEP)
		g = a[1]; f = a[2]; t = a[3]
		rf = rank(f); rt = rank(t)
		if (rf < 0 || rt < 0) {
			print "FAIL: " (rf < 0 ? f : t) ": a folder with no place in the order"
			bad = 1
			continue
		}
		if (g == "call" && rt > rf) {
			print "FAIL: " f " (" folder(f) ") calls " t " (" folder(t) "): " why[f, t]
			bad = 1
		}
		if (g == "include" && rt > rf && rt < 5 && \
		    f != "lib/core/gen-tables.c") {
			print "FAIL: " f " (" folder(f) ") includes " t " (" folder(t) ")"
			bad = 1
		}
		if (g == "call" && folder(f) != folder(t))
			fcall[folder(f), folder(t)] = 1
		if (g == "call") {
			out[f] = out[f] " " t
			calls++
		}
	}
	if (objects > 0 && calls == 0) {
		print "FAIL: no call read between the objects (nm read nothing)"
		bad = 1
	}
	if (draw != "") {
		nf = split("cli data pgn epd pgc stream core common", fo, " ")
		print "The layers (a folder calls only those on its line and below;"
		print objects " objects, " calls " calls between files):"
		for (i = 1; i <= nf; i++) {
			line = ""
			for (j = 1; j <= nf; j++)
				if ((fo[i] SUBSEP fo[j]) in fcall)
					line = line " " fo[j]
			r = rank(fo[i] == "cli" ? "src/cli/x" : "lib/" fo[i] "/x")
			printf "  %d %-7s ->%s\n", r, fo[i], line == "" ? " (nothing)" : line
		}
		if (draw == "files")
			for (i = 1; i <= nn["call"]; i++) {
				f = nodes["call", i]
				if (f in out)
					print f " ->" out[f]
			}
	}
	exit bad
}'
graphs() {
	awk -v draw="$1" -v objects="$2" "$prog" "$3" "$4"
}

# First the checks on planted faults, which they must find and name:
# a circle of three files, a header loop, and common calling stream.
cat >"$T/plant-syms" <<'EOF'
D lib/stream/a.c f1
U lib/stream/a.c f2
D lib/stream/b.c f2
U lib/stream/b.c f3
D lib/stream/c.c f3
U lib/stream/c.c f1
U lib/common/util.c f3
EOF
cat >"$T/plant-includes" <<'EOF'
lib/pgn/x.c lib/pgn/x.h
lib/pgn/x.h lib/pgn/y.h
lib/pgn/y.h lib/pgn/x.h
EOF
if graphs "" 4 "$T/plant-syms" "$T/plant-includes" >"$T/plant"; then
	echo "FAIL: the planted faults pass" >&2
	exit 1
fi
for want in \
    'call cycle: lib/stream/a.c -> lib/stream/b.c -> lib/stream/c.c -> lib/stream/a.c' \
    'include cycle: lib/pgn/x.h -> lib/pgn/y.h -> lib/pgn/x.h' \
    'lib/common/util.c (common) calls lib/stream/c.c (stream): f3'; do
	grep -qF "FAIL: $want" "$T/plant" ||
	    { echo "FAIL: planted, not found: $want" >&2; cat "$T/plant" >&2; exit 1; }
done

# Then the build's.
graphs "$draw" "$n" "$T/syms" "$T/includes"

#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# man-api.sh: the section 3 pages document every exported function
# (CD_API in lib/chessdata/*.h) on exactly one page, and no function
# that is not exported: in that page's SYNOPSIS, in its NAME (a group
# page: every page but libchessdata(3)) and once as an ".It Fn" entry of
# its DESCRIPTION.  Every page has the sections of a library page;
# libchessdata(3) lists every group page, and Makefile.am installs every
# page.
set -u
NAME=man-api
. "${top_srcdir:?}/tests/testlib.sh"
# every CD_API prototype, whatever its line breaks: the name before "("
cat "$top_srcdir"/lib/chessdata/*.h | tr '\n' ' ' | tr ';' '\n' |
    sed -n 's/.*CD_API[^(]*[^a-z0-9_]\(cd_[a-z0-9_]*\) *(.*/\1/p' |
    sort -u >"$T/api"
n=$(wc -l <"$T/api")
[ "$n" -gt 100 ] || fatal "only $n exported functions found"
# the pages Makefile.am installs
sed -n '/^dist_man_MANS *+*=/,/[^\\]$/p' "$top_srcdir/Makefile.am" |
    tr ' \t\\' '\n\n\n' | sed -n 's|^man/\(.*\.3\)$|\1|p' | sort -u \
    >"$T/installed"
overview="$top_srcdir/man/libchessdata.3"
[ -f "$overview" ] || fatal "no libchessdata.3"
sed -n '/^\.Sh DESCRIPTION/,/^\.Sh /s/^\.It Xr \([a-z_0-9]*\) 3.*/\1/p' \
    "$overview" | sort >"$T/listed"
: >"$T/synopsis"
: >"$T/functions"
pages=0
for page in "$top_srcdir"/man/*.3; do
	p=${page##*/}
	name=${p%.3}
	pages=$((pages + 1))
	grep -qx "$p" "$T/installed" || fail "Makefile.am does not install $p"
	# the sections of a library page, in mdoc's order
	want="NAME,LIBRARY,SYNOPSIS,DESCRIPTION,RETURN VALUES,EXAMPLES,SEE ALSO,"
	secs=$(sed -n 's/^\.Sh //p' "$page" | while read -r s; do
		case ",$want" in *",$s,"*) printf '%s,' "$s" ;; esac
	done)
	[ "$secs" = "$want" ] ||
	    fail "$p: sections $want in this order wanted, not $secs"
	sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /s/^\.F[no] \(cd_[a-z0-9_]*\).*/\1/p' \
	    "$page" | sort >"$T/syn.$name"
	sed -n '/^\.Sh DESCRIPTION/,/^\.Sh /s/^\.It Fn \(cd_[a-z0-9_]*\).*/\1/p' \
	    "$page" | sort >"$T/fn.$name"
	cat "$T/syn.$name" >>"$T/synopsis"
	cat "$T/fn.$name" >>"$T/functions"
	# each function of the page once in its SYNOPSIS and its DESCRIPTION
	for part in syn fn; do
		d=$(uniq -d "$T/$part.$name" | tr '\n' ' ')
		[ -z "$d" ] || fail "$p: more than once in its $part: $d"
	done
	cmp -s "$T/syn.$name" "$T/fn.$name" || {
		fail "$p: SYNOPSIS and DESCRIPTION differ (< SYNOPSIS only," \
		    "> DESCRIPTION only):"
		diff "$T/syn.$name" "$T/fn.$name" | grep '^[<>]' >&2
	}
	[ "$name" = libchessdata ] && continue
	[ -s "$T/syn.$name" ] || fail "$p: no function in its SYNOPSIS"
	grep -qx "$name" "$T/listed" || fail "libchessdata(3) does not list $name(3)"
	sed -n '/^\.Sh NAME/,/^\.Sh /s/^\.Nm \(cd_[a-z0-9_]*\).*/\1/p' \
	    "$page" | sort >"$T/nm.$name"
	cmp -s "$T/syn.$name" "$T/nm.$name" || {
		fail "$p: NAME and SYNOPSIS differ (< SYNOPSIS only," \
		    "> NAME only):"
		diff "$T/syn.$name" "$T/nm.$name" | grep '^[<>]' >&2
	}
done
while read -r l; do
	[ -f "$top_srcdir/man/$l.3" ] ||
	    fail "libchessdata(3) lists $l(3), which is not there"
done <"$T/listed"
# across the pages: every exported function on exactly one page
for part in synopsis functions; do
	d=$(sort "$T/$part" | uniq -d | tr '\n' ' ')
	[ -z "$d" ] || fail "on more than one page's $part: $d"
	sort -u "$T/$part" >"$T/$part.u"
	if ! cmp -s "$T/api" "$T/$part.u"; then
		fail "the pages' $part and the exported functions differ" \
		    "(< exported only, > documented only):"
		diff "$T/api" "$T/$part.u" | grep '^[<>]' >&2
	fi
done
[ "$status" -ne 0 ] || echo "$n exported functions documented on $pages pages"
finish

# SPDX-License-Identifier: BSD-2-Clause
# tests/npm-lib.sh: the npm packages that tests compare with (chessops)
# or load data into (@duckdb/node-api), each installed once into a
# directory of the build tree.  Sourced with top_builddir set; sets
# CHESSOPS (the package and version) and CHESSOPS_D (CHESSOPS_DIR, or
# $top_builddir/tests/chessops), and defines npm_package.
CHESSOPS=chessops@0.15.1
CHESSOPS_D="${CHESSOPS_DIR:-$top_builddir/tests/chessops}"

# npm_package NAME@VERSION DIR: DIR/node_modules holds the package, and
# node is there to run it; npm installs it into DIR the first time (a
# package.json of its own, so that npm installs right there).  Else
# false, and why in npm_why.
npm_package() {
	npm_name=${1%@*}
	command -v node >/dev/null 2>&1 ||
	    { npm_why="node is not installed"; return 1; }
	[ -f "$2/.installed" ] && return 0
	command -v npm >/dev/null 2>&1 ||
	    { npm_why="npm is not installed ($npm_name needed)"; return 1; }
	# Tests run side by side: one installs while the others wait for
	# it (flock); DIR/.installed says that the install is whole, and
	# under the lock a package there (DIR given ready) is whole too.
	mkdir -p "$2" && (
		flock 9 || exit 1
		[ -f "$2/.installed" ] ||
		    [ -f "$2/node_modules/$npm_name/package.json" ] && exit 0
		cd "$2" && echo '{"private": true}' >package.json &&
		    timeout 300 npm install --no-save --no-audit --no-fund \
		    "$1" >npm.log 2>&1 && : >.installed
	) 9>"$2.lock" ||
	    { npm_why="npm install $npm_name failed (see $2/npm.log)"; return 1; }
}

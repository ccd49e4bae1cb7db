# SPDX-License-Identifier: BSD-2-Clause
# tests/chessops-lib.sh: what the tests that compare with chessops (npm)
# share.  Sourced with top_builddir set: sets D to a directory with
# node_modules/chessops, CHESSOPS_DIR or $top_builddir/tests/chessops
# where npm installs it the first time; exits 77 (skip) without node,
# npm or a successful install.
command -v node >/dev/null 2>&1 || { echo "SKIP: node is not installed"; exit 77; }
D="${CHESSOPS_DIR:-$top_builddir/tests/chessops}"
if [ ! -f "$D/node_modules/chessops/package.json" ]; then
	command -v npm >/dev/null 2>&1 ||
	    { echo "SKIP: npm is not installed (chessops needed)"; exit 77; }
	# a package.json of its own, so that npm installs right there
	mkdir -p "$D" && (cd "$D" && echo '{"private": true}' >package.json &&
	    timeout 300 npm install --no-save \
	    --no-audit --no-fund chessops@0.15.1 >npm.log 2>&1) ||
	    { echo "SKIP: npm install chessops failed (see $D/npm.log)"; exit 77; }
fi

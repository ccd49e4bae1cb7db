# SPDX-License-Identifier: BSD-2-Clause
# tests/chessops-lib.sh: what the tests that compare with chessops (npm)
# share.  Sourced after tests/testlib.sh: sets D to a directory with
# node_modules/chessops, CHESSOPS_DIR or $top_builddir/tests/chessops
# where npm installs it the first time (tests/npm-lib.sh); exits 77
# (skip) without node, npm or a successful install.
. "$top_srcdir/tests/npm-lib.sh"
D=$CHESSOPS_D
npm_package "$CHESSOPS" "$D" || skip "$npm_why"

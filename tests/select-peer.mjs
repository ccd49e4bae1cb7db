// SPDX-License-Identifier: BSD-2-Clause
//
// select-peer.mjs: the counts pgn-select must find, computed
// independently with chessops (npm), for tests/cli-pgn-select-corpus.sh.
//
//   node select-peer.mjs CHESSOPS_DIR FEN MATERIAL < games.pgn
//
// Replays the main line of every game of standard input and prints, as
// "name count" lines: games, bad (games chessops cannot read), position
// (games whose main line reaches FEN: pieces, side, castling rights,
// en passant only when legal), material (games whose main line reaches
// exactly MATERIAL, like KRkr), and for each ending of man pgn-select
// the games whose final position has it: checkmate and stalemate (no
// legal move; nothing else then counts), dead (no pawn, rook or queen,
// and at most one minor piece, or bishops only, all on one colour),
// threefold and fivefold (the final position, compared as its EPD
// fields, occurs 3 or 5 times in the line), fifty and seventyfive (the
// halfmove clock reaches 100 or 150).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const dir = process.argv[2];
const load = (m) => import(pathToFileURL(join(dir, 'node_modules',
    'chessops', 'dist', 'esm', m)).href);
const { PgnParser, startingPosition } = await load('pgn.js');
const { parseSan } = await load('san.js');
const { makeFen, parseFen } = await load('fen.js');
const { Chess } = await load('chess.js');

const key = (pos) => makeFen(pos.toSetup(), { epd: true });
const target = key(Chess.fromSetup(parseFen(process.argv[3]).unwrap())
    .unwrap());
const roles = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen',
    k: 'king' };

function materialOf(pos) {
	let s = '';
	for (const color of ['white', 'black'])
		for (const r of 'kqrbnp') {
			const n = pos.board[color].intersect(pos.board[roles[r]])
			    .size();
			s += (color === 'white' ? r.toUpperCase() : r).repeat(n);
		}
	return s;
}
function canon(spec) {
	const w = [], b = [];
	for (const ch of spec) (ch === ch.toUpperCase() ? w : b).push(ch);
	const order = (c) => 'kqrbnp'.indexOf(c.toLowerCase());
	w.sort((x, y) => order(x) - order(y));
	b.sort((x, y) => order(x) - order(y));
	return w.join('') + b.join('');
}
const wantMaterial = canon(process.argv[4]);

function dead(pos) {
	const bd = pos.board;
	if (bd.pawn.union(bd.rook).union(bd.queen).nonEmpty())
		return false;
	const minors = bd.knight.union(bd.bishop);
	if (minors.size() <= 1)
		return true;
	if (bd.knight.nonEmpty())
		return false;
	let light = 0, dark = 0;
	for (const sq of bd.bishop) {
		if (((sq & 7) + (sq >> 3)) % 2 === 0) dark++; else light++;
	}
	return light === 0 || dark === 0;
}

const count = { games: 0, bad: 0, position: 0, material: 0, checkmate: 0,
    stalemate: 0, dead: 0, fivefold: 0, seventyfive: 0, threefold: 0,
    fifty: 0 };

function game(g) {
	count.games++;
	const start = startingPosition(g.headers);
	if (start.isErr) { count.bad++; return; }
	const pos = start.unwrap();
	const seen = new Map();
	let k = key(pos), reached = k === target;
	let mat = materialOf(pos) === wantMaterial;
	seen.set(k, 1);
	for (const node of g.moves.mainline()) {
		const move = parseSan(pos, node.san);
		if (!move) { count.bad++; return; }
		pos.play(move);
		k = key(pos);
		seen.set(k, (seen.get(k) || 0) + 1);
		if (k === target) reached = true;
		if (!mat && materialOf(pos) === wantMaterial) mat = true;
	}
	if (reached) count.position++;
	if (mat) count.material++;
	const ctx = pos.ctx();
	if (!pos.hasDests(ctx)) {
		if (pos.isCheck()) count.checkmate++; else count.stalemate++;
		return;
	}
	const reps = seen.get(k);
	if (dead(pos)) count.dead++;
	if (reps >= 5) count.fivefold++;
	if (reps >= 3) count.threefold++;
	if (pos.halfmoves >= 150) count.seventyfive++;
	if (pos.halfmoves >= 100) count.fifty++;
}

const parser = new PgnParser(game);
process.stdin.setEncoding('latin1');
process.stdin.on('data', (chunk) => parser.parse(chunk, { stream: true }));
process.stdin.on('end', () => {
	parser.parse('');
	for (const [name, n] of Object.entries(count))
		console.log(name + ' ' + n);
});

// SPDX-License-Identifier: BSD-2-Clause
//
// select-peer.mjs: the counts pgn-select must find, computed
// independently with chessops (npm), for tests/cli-pgn-select-corpus.sh.
//
//   node select-peer.mjs CHESSOPS_DIR FEN MATERIAL [MATERIAL2 PREFIX
//       PLACEMENT] < games.pgn
//
// Replays the main line of every game of standard input and prints, as
// "name count" lines: games, bad (games chessops cannot read; their
// numbers, from 1, on a last line "bad_games N,N" or "bad_games -"), position
// (games whose main line reaches FEN: pieces, side, castling rights,
// en passant only when legal), material (games whose main line reaches
// exactly MATERIAL, like KRkr), and for each ending of man pgn-select
// the games whose final position has it: checkmate and stalemate (no
// legal move; nothing else then counts), dead (no pawn, rook or queen,
// and at most one minor piece, or bishops only, all on one colour),
// threefold and fivefold (the final position, compared as its EPD
// fields, occurs 3 or 5 times in the line), fifty and seventyfive (the
// halfmove clock reaches 100 or 150).  With the optional arguments
// also: material_any (games reaching MATERIAL or MATERIAL2), prefix
// (games from the standard start whose main line begins with the SAN
// moves of PREFIX, move numbers allowed), placement (games reaching the
// piece placement PLACEMENT, `?` any square), occ_threefold,
// occ_fivefold, occ_fifty, occ_seventyfive, occ_check,
// occ_underpromotion (that event anywhere in the main line), wrong (a
// result the final position contradicts: mate scored otherwise than a
// win for the mating side but as `*`, a decisive result in stalemate, a
// dead position, a fivefold repetition or at 150 half-moves, a win on
// time (Termination) for a side that chessops's hasInsufficientMaterial
// says cannot mate).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const dir = process.argv[2];
const load = (m) => import(pathToFileURL(join(dir, 'node_modules',
    'chessops', 'dist', 'esm', m)).href);
const { PgnParser, startingPosition } = await load('pgn.js');
const { parseSan } = await load('san.js');
const { makeFen, parseFen } = await load('fen.js');
const { Chess } = await load('chess.js');
const { makeUci } = await load('util.js');

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
const more = process.argv.length > 5;
const wantMaterial2 = more ? canon(process.argv[5]) : null;
let prefix = [], placement = null;
if (more) {
	const p = Chess.default();
	for (const w of process.argv[6].split(/\s+/)) {
		const san = w.replace(/^[0-9]+\.+/, '');
		if (san === '') continue;
		const m = parseSan(p, san);
		if (!m) throw new Error('bad prefix move ' + w);
		prefix.push(makeUci(m));
		p.play(m);
	}
	placement = [];
	for (const rank of process.argv[7].split('/').reverse())
		for (const ch of rank) {
			if (ch >= '1' && ch <= '8')
				for (let k = 0; k < +ch; k++) placement.push('.');
			else placement.push(ch);
		}
}
const startKey = key(Chess.default());
const letter = (pc) => pc === undefined ? '.' :
    (pc.color === 'white' ? ({ pawn: 'P', knight: 'N', bishop: 'B',
    rook: 'R', queen: 'Q', king: 'K' })[pc.role] : ({ pawn: 'p',
    knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' })[pc.role]);
function placed(pos) {
	for (let sq = 0; sq < 64; sq++)
		if (placement[sq] !== '?' && placement[sq] !== letter(pos.board.get(sq)))
			return false;
	return true;
}

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
if (more)
	Object.assign(count, { material_any: 0, prefix: 0, placement: 0,
	    occ_threefold: 0, occ_fivefold: 0, occ_fifty: 0,
	    occ_seventyfive: 0, occ_check: 0, occ_underpromotion: 0,
	    wrong: 0 });

const badGames = [];
function bad() {
	count.bad++;
	badGames.push(count.games);
}

function game(g) {
	count.games++;
	const start = startingPosition(g.headers);
	if (start.isErr) { bad(); return; }
	const pos = start.unwrap();
	const seen = new Map();
	let k = key(pos), reached = k === target;
	let mat = materialOf(pos) === wantMaterial;
	let mat2 = more && materialOf(pos) === wantMaterial2;
	let pre = more && k === startKey, n = 0;
	let pl = more && placed(pos);
	const occ = new Set();
	if (pos.halfmoves >= 100) occ.add('fifty');
	if (pos.halfmoves >= 150) occ.add('seventyfive');
	seen.set(k, 1);
	for (const node of g.moves.mainline()) {
		const move = parseSan(pos, node.san);
		if (!move) { bad(); return; }
		if (pre && n < prefix.length && makeUci(move) !== prefix[n])
			pre = false;
		n++;
		pos.play(move);
		k = key(pos);
		seen.set(k, (seen.get(k) || 0) + 1);
		if (k === target) reached = true;
		if (!mat && materialOf(pos) === wantMaterial) mat = true;
		if (more) {
			if (!mat2 && materialOf(pos) === wantMaterial2) mat2 = true;
			if (!pl && placed(pos)) pl = true;
			if (pos.isCheck()) occ.add('check');
			if (move.promotion && move.promotion !== 'queen')
				occ.add('underpromotion');
			if (pos.halfmoves >= 100) occ.add('fifty');
			if (pos.halfmoves >= 150) occ.add('seventyfive');
			if (seen.get(k) >= 3) occ.add('threefold');
			if (seen.get(k) >= 5) occ.add('fivefold');
		}
	}
	if (reached) count.position++;
	if (mat) count.material++;
	if (more) {
		if (mat || mat2) count.material_any++;
		if (pre && n >= prefix.length) count.prefix++;
		if (pl) count.placement++;
		for (const e of occ) count['occ_' + e]++;
	}
	const ctx = pos.ctx();
	const r = g.headers.get('Result');
	const winner = r === '1-0' ? 'white' : r === '0-1' ? 'black' :
	    r === '1/2-1/2' ? 'none' : null;
	if (!pos.hasDests(ctx)) {
		if (pos.isCheck()) {
			count.checkmate++;
			if (more && winner !== null && winner !== (pos.turn ===
			    'white' ? 'black' : 'white'))
				count.wrong++;
		} else {
			count.stalemate++;
			if (more && winner !== null && winner !== 'none')
				count.wrong++;
		}
		return;
	}
	const reps = seen.get(k);
	if (dead(pos)) count.dead++;
	if (reps >= 5) count.fivefold++;
	if (reps >= 3) count.threefold++;
	if (pos.halfmoves >= 150) count.seventyfive++;
	if (pos.halfmoves >= 100) count.fifty++;
	if (more && winner !== null && winner !== 'none' &&
	    (dead(pos) || reps >= 5 || pos.halfmoves >= 150 ||
	    (onTime(g) && pos.hasInsufficientMaterial(winner))))
		count.wrong++;
}

// Whether the game was lost on time by its Termination tag (FIDE 6.9
// then draws against a side that cannot mate; a resignation does not):
// "time forfeit", or chess.com's "... won on time".
function onTime(g) {
	const t = (g.headers.get('Termination') || '').toLowerCase();
	return t === 'time forfeit' || t.endsWith(' on time');
}

const parser = new PgnParser(game);
process.stdin.setEncoding('latin1');
process.stdin.on('data', (chunk) => parser.parse(chunk, { stream: true }));
process.stdin.on('end', () => {
	parser.parse('');
	for (const [name, n] of Object.entries(count))
		console.log(name + ' ' + n);
	console.log('bad_games ' + (badGames.join(',') || '-'));
});

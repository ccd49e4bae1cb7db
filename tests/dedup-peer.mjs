// SPDX-License-Identifier: BSD-2-Clause
//
// dedup-peer.mjs: the groups pgn-dedup must find, computed independently
// with chessops (npm), for tests/cli-pgn-dedup.sh.
//
//   node dedup-peer.mjs CHESSOPS_DIR BY:KEEP:INCLUDED... < games.pgn
//
// BY: game, moves or text; KEEP: first, last or most-tags; INCLUDED: 0
// or 1.  For each mode given (the games are read once for all), prints
// a line "mode BY:KEEP:INCLUDED", what pgn-dedup --by=BY --keep=KEEP
// [--included] --groups=FILE writes to FILE (see man pgn-dedup), then
// the lines "written N" (the games kept) and "rejected N" (the games
// chessops cannot read).  Games are compared as strings, not
// hashes: the start position as EPD (chessops), the main line as UCI
// moves (each SAN replayed with chessops), the players' surnames
// (Unicode NFD without its combining marks, own table for the letters
// NFD leaves alone), the result; --by=text compares the tags (the seven
// of the roster with their defaults, the others by name, the last value
// of a name), the start position and the whole move tree with canonical
// SAN, NAGs and comments with their white space folded.  A game that
// chessops cannot replay is a rejected game: no line, not counted.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const dir = process.argv[2];
const modes = process.argv.slice(3);
const load = (m) => import(pathToFileURL(join(dir, 'node_modules',
    'chessops', 'dist', 'esm', m)).href);
const { PgnParser, startingPosition } = await load('pgn.js');
const { parseSan, makeSan } = await load('san.js');
const { makeFen } = await load('fen.js');
const { makeUci } = await load('util.js');

// letters NFD does not split, as base letters
const extra = { 'ß': 'ss', 'æ': 'ae', 'ø': 'o', 'œ': 'oe', 'þ': 'th',
    'ð': 'd', 'đ': 'd', 'ħ': 'h', 'ı': 'i', 'ĳ': 'ij', 'ĸ': 'k', 'ŀ': 'l',
    'ł': 'l', 'ŉ': 'n', 'ŋ': 'n', 'ŧ': 't', 'ſ': 's' };

function surname(name) {
	let s = name;
	const comma = s.indexOf(',');
	if (comma >= 0)
		s = s.slice(0, comma);
	else {
		const words = s.split(' ').filter((w) => w !== '');
		while (words.length > 1 &&
		    /^([A-Za-z][.-]*)+$/.test(words[words.length - 1]) &&
		    !/[A-Za-z][A-Za-z]/.test(words[words.length - 1]))
			words.pop();
		s = words.join(' ');
	}
	let out = '';
	for (const ch of s) {
		const cp = ch.codePointAt(0);
		if (cp < 0x80) {
			if (/[A-Za-z0-9]/.test(ch))
				out += ch.toLowerCase();
		} else if (cp >= 0xc0 && cp <= 0x17f) {
			if (cp === 0xd7 || cp === 0xf7)
				continue;
			const low = ch.toLowerCase();
			if (extra[low] !== undefined)
				out += extra[low];
			else
				out += low.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
		} else if (cp > 0x17f)
			out += ch;
	}
	return out;
}

const roster = [['Event', '?'], ['Site', '?'], ['Date', '????.??.??'],
    ['Round', '?'], ['White', '?'], ['Black', '?']];
const fold = (c) => c.replace(/[\s\x00-\x1f\x7f]+/g, ' ').trim();

// the move tree below node from pos, as a string: each move (canonical
// SAN, its NAGs, comments before and after it) and what follows it,
// the alternatives to a move after it
function tree(node, pos) {
	return '[' + node.children.map((c) => {
		const d = c.data;
		const p = pos.clone();
		const m = parseSan(p, d.san);
		if (!m)
			throw new Error('illegal');
		const s = (d.startingComments || []).map(fold)
		    .filter((x) => x !== '').join('|') + '<' + makeSan(p, m) +
		    '$' + [...(d.nags || [])].sort((x, y) => x - y).join(',') +
		    '{' + (d.comments || []).map(fold).filter((x) => x !== '')
		    .join('|') + '}';
		p.play(m);
		return s + tree(c, p);
	}).join('|') + ']';
}

const games = [];
function game(g) {
	const index = games.length;
	const rec = { index, rejected: true };
	games.push(rec);
	const start = startingPosition(g.headers);
	if (start.isErr)
		return;
	const pos = start.unwrap();
	const epd = makeFen(pos.toSetup(), { epd: true });
	let text;
	try {
		// control bytes in a tag value are spaces (pgn(5))
		const value = (v) => v.replace(/[\x00-\x1f\x7f]/g, ' ');
		const tags = roster.map(([n, d]) => value(g.headers.get(n) ?? d));
		const others = [...g.headers.entries()].map(([n, v]) =>
		    [n, value(v)]).filter(([n]) =>
		    !roster.some(([r]) => r === n) && n !== 'Result' &&
		    n !== 'SetUp' && n !== 'FEN').sort(([a], [b]) =>
		    Buffer.compare(Buffer.from(a, 'latin1'),
		    Buffer.from(b, 'latin1')));
		text = JSON.stringify([tags, g.headers.get('Result') ?? '*',
		    others, epd,
		    (g.comments || []).map(fold).filter((c) => c !== ''),
		    tree(g.moves, pos.clone())]);
	} catch (e) {
		return;
	}
	const moves = [];
	for (const node of g.moves.mainline()) {
		const m = parseSan(pos, node.san);
		if (!m)
			return;
		moves.push(makeUci(m));
		pos.play(m);
	}
	const result = g.headers.get('Result') ?? '*';
	const players = surname(g.headers.get('White') ?? '') + '\t' +
	    surname(g.headers.get('Black') ?? '');
	Object.assign(rec, { rejected: false, epd, moves, result, players,
	    text });
	rec.line = (k) => epd + '\t' + players + '\t' + moves.slice(0, k)
	    .join(' ');
	rec.key = { text, moves: epd + '\t' + moves.join(' '),
	    game: rec.line(moves.length) + '\t' + result };
}

// Each game's bytes are read as UTF-8, a line that is not as Latin-1.
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
	const dec = new TextDecoder('utf-8', { fatal: true });
	const text = Buffer.concat(chunks).toString('latin1').split('\n')
	    .map((l) => {
		try {
			return dec.decode(Buffer.from(l, 'latin1'));
		} catch (e) {
			return l;
		}
	    }).join('\n');
	const parser = new PgnParser(game);
	parser.parse(text);
	// the tags a game has (chessops adds the roster's): counted in its
	// text, a game beginning at a tag line after a line that is not one
	const blocks = [];
	let prevTag = false;
	for (const line of text.split('\n')) {
		const t = line.trim();
		if (t === '')
			continue;
		const m = /^\[([A-Za-z0-9_]+)[ \t]/.exec(t);
		if (m && !prevTag)
			blocks.push(new Set());
		if (m)
			blocks[blocks.length - 1].add(m[1]);
		prevTag = m !== null;
	}
	if (blocks.length !== games.length)
		throw new Error(`${blocks.length} tag sections, ${games.length} games`);
	blocks.forEach((b, i) => { games[i].ntags = b.size; });
	for (const m of modes) {
		const [by, keep, included] = m.split(':');
		if (!['game', 'moves', 'text'].includes(by))
			throw new Error('bad mode ' + m);
		console.log('mode ' + m);
		report(by, keep, included === '1');
	}
});

function report(by, keep, included) {
	const leaderOf = new Map();	// key -> first game
	const members = new Map();	// leader -> games
	for (const g of games) {
		if (g.rejected)
			continue;
		if (!leaderOf.has(g.key[by])) {
			leaderOf.set(g.key[by], g.index);
			members.set(g.index, []);
		}
		g.leader = leaderOf.get(g.key[by]);
		members.get(g.leader).push(g.index);
	}
	const kept = new Set();
	for (const [l, ms] of members) {
		let best = ms[0];
		for (const m of ms.slice(1))
			if (keep === 'last' || (keep === 'most-tags' &&
			    games[m].ntags > games[best].ntags))
				best = m;
		kept.add(best);
	}
	// --included: the first game each leader's line is a strict
	// beginning of (one move or more)
	const container = new Map();
	if (included) {
		const firstWith = new Map();
		for (const g of games) {
			if (g.rejected)
				continue;
			for (let k = 1; k < g.moves.length; k++) {
				const p = g.line(k);
				if (!firstWith.has(p))
					firstWith.set(p, g.index);
			}
		}
		for (const l of members.keys()) {
			const g = games[l];
			const c = firstWith.get(g.line(g.moves.length));
			if (g.moves.length > 0 && c !== undefined)
				container.set(l, c);
		}
	}
	const root = (i) => {
		let l = games[i].leader;
		while (container.has(l))
			l = games[container.get(l)].leader;
		return l;
	};
	const grouped = new Set();
	for (const [l, ms] of members)
		if (ms.length > 1 || container.has(l)) {
			grouped.add(root(l));
		}
	let written = 0;
	const out = [];
	for (const g of games) {
		if (g.rejected)
			continue;
		const r = root(g.index);
		const inc = r !== g.leader;
		const drop = inc || !kept.has(g.index);
		if (!drop)
			written++;
		if (grouped.has(r))
			out.push([r + 1, g.index + 1, drop ? 'dropped' : 'kept',
			    inc ? 'included' : drop ? by : keep].join('\t'));
	}
	out.push('written ' + written);
	out.push('rejected ' + games.filter((g) => g.rejected).length);
	console.log(out.join('\n'));
}

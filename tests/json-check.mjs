// SPDX-License-Identifier: BSD-2-Clause
//
// json-check.mjs: an independent check of pgn2json.  Reads a PGN file
// with chessops (its own PGN parser, SAN, FEN and UCI), reads the
// [%clk], [%emt] and [%eval] commands of its comments with a reader of
// its own (regular expressions, nothing of libchessdata), and compares
// game by game with the NDJSON that pgn2json wrote for the same file:
// the SAN moves, the UCI moves, the final FEN, the clocks, elapsed
// times and evaluations.
//
// usage: node json-check.mjs CHESSOPS_DIR FILE.pgn FILE.ndjson
// CHESSOPS_DIR: a directory with node_modules/chessops.
// Prints one summary line; exits 1 on any difference (the first ones
// are printed), 2 on a usage error.

import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, pgnFile, jsonFile] = process.argv.slice(2);
if (!jsonFile) {
  console.error('usage: node json-check.mjs CHESSOPS_DIR FILE.pgn FILE.ndjson');
  process.exit(2);
}
const mod = (name) => import(pathToFileURL(
  path.resolve(dir, 'node_modules/chessops/dist/esm', name + '.js')).href);
const { parsePgn, startingPosition } = await mod('pgn');
const { parseSan, makeSanAndPlay } = await mod('san');
const { makeFen } = await mod('fen');
const { makeUci, squareFile, squareRank } = await mod('util');

// Our own reader of comment commands.
const lastCmd = (text, name) => {
  const re = new RegExp('\\[%' + name + '\\s+([^\\]]*?)\\s*\\]', 'g');
  let m, v;
  while ((m = re.exec(text)) !== null) v = m[1];
  return v;
};
const readTime = (s) => {
  const m = /^(-?)(?:(\d+):)?(?:(\d\d):)?(\d+(?:\.\d+)?)$/.exec(s);
  if (!m) return undefined;
  const h = m[2] === undefined ? 0 : Number(m[2]);
  const mi = m[3] === undefined ? 0 : Number(m[3]);
  // "MM:SS": one colon means minutes
  let secs = m[3] === undefined && m[2] !== undefined ?
    h * 60 + Number(m[4]) : h * 3600 + mi * 60 + Number(m[4]);
  return m[1] ? -secs : secs;
};
const readEval = (s) => {
  const [v, depth] = s.split(',').map((x) => x.trim());
  let e;
  if (/^#[-+]?\d+$/.test(v)) e = { mate: Number(v.slice(1)) };
  else if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(v)) {
    const cp = Math.round(Math.abs(Number(v)) * 100);
    e = { cp: v.startsWith('-') && cp !== 0 ? -cp : cp };
  } else return undefined;
  if (depth !== undefined) {
    if (!/^\d+$/.test(depth)) return undefined;
    e.depth = Number(depth);
  }
  return e;
};

// chessops ends a game at a blank line: some exports have none before
// the next game's tags
const text = readFileSync(pgnFile, 'utf8').replace(/\r?\n(?=\[Event )/g, '\n\n');
const games = parsePgn(text);
const ours = new Map();
for (const line of readFileSync(jsonFile, 'utf8').split('\n')) {
  if (line === '') continue;
  const o = JSON.parse(line);
  ours.set(o.game, o);
}

let compared = 0, plies = 0, clocks = 0, evals = 0, emts = 0, skipped = 0;
const bad = [];
const differ = (n, what, a, b) => {
  bad.push(`game ${n}: ${what}: pgn2json ${JSON.stringify(a)}, chessops ${JSON.stringify(b)}`);
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

games.forEach((g, i) => {
  const n = i + 1, o = ours.get(n);
  const start = startingPosition(g.headers);
  const variant = (g.headers.get('Variant') || 'standard').toLowerCase();
  if (start.isErr || !['standard', 'chess960', 'from position', 'fischerandom'].includes(variant)) {
    if (o) differ(n, 'a game chessops cannot start', true, false);
    else skipped++;
    return;
  }
  const pos = start.value;
  const chess960 = variant === 'chess960' || variant === 'fischerandom';
  const san = [], uci = [], ck = [], em = [], ev = [];
  let lastDouble = null, ok = true;
  for (const node of g.moves.mainline()) {
    const mv = parseSan(pos, node.san);
    if (!mv) { ok = false; break; }
    const from = mv.from, piece = pos.board.get(from);
    let u = makeUci(mv);
    if (piece && piece.role === 'king' && !chess960 && pos.board.get(mv.to)?.role === 'rook' &&
        pos.board.get(mv.to)?.color === piece.color) {
      // standard chess writes castling as the king's two-square move
      const f = squareFile(mv.to) > squareFile(from) ? 'g' : 'c';
      u = u.slice(0, 2) + f + u[3];
    }
    lastDouble = piece && piece.role === 'pawn' &&
      Math.abs(squareRank(mv.to) - squareRank(from)) === 2 ?
      'abcdefgh'[squareFile(from)] + ((squareRank(from) + squareRank(mv.to)) / 2 + 1) : null;
    san.push(makeSanAndPlay(pos, mv));
    uci.push(u);
    const c = (node.comments || []).join(' ');
    const t1 = lastCmd(c, 'clk'), t2 = lastCmd(c, 'emt'), t3 = lastCmd(c, 'eval');
    ck.push(t1 === undefined ? null : readTime(t1) ?? null);
    em.push(t2 === undefined ? null : readTime(t2) ?? null);
    ev.push(t3 === undefined ? null : readEval(t3) ?? null);
  }
  if (!ok) {
    if (o) differ(n, 'a game chessops cannot replay', true, false);
    else skipped++;
    return;
  }
  if (!o) {
    differ(n, 'a game chessops reads', 'rejected', san.join(' '));
    return;
  }
  compared++;
  plies += san.length;
  if (!same(o.moves, san)) differ(n, 'moves', o.moves, san);
  if (!same(o.uci, uci)) differ(n, 'uci', o.uci, uci);
  if (o.plies !== san.length) differ(n, 'plies', o.plies, san.length);
  // chessops writes an en passant square only when a capture is
  // possible; the standard writes it after every double push
  const f = makeFen(pos.toSetup()).split(' ');
  const of = o.final.split(' ');
  if (san.length > 0) f[3] = lastDouble ?? '-';
  else of[3] = f[3];
  if (!same(of, f)) differ(n, 'final', o.final, f.join(' '));
  const cmp = (key, mine) => {
    const has = mine.some((x) => x !== null);
    if (!has) {
      if (o[key] !== undefined) differ(n, key, o[key], 'absent');
      return 0;
    }
    if (o[key] === undefined || o[key].length !== mine.length) {
      differ(n, key, o[key], mine);
      return 0;
    }
    let k = 0;
    mine.forEach((x, j) => {
      const y = o[key][j];
      const eq = typeof x === 'number' ? typeof y === 'number' && Math.abs(x - y) < 1e-6 : same(x, y);
      if (!eq && bad.length < 1000) differ(n, `${key}[${j}]`, y, x);
      if (x !== null) k++;
    });
    return k;
  };
  clocks += cmp('clocks', ck);
  // without [%emt]: the time each move took from the clocks and a
  // TimeControl of one period (BASE or BASE+INC), worked out here alike
  const tc = /^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$/.exec(o.tags.TimeControl ?? '');
  if (!em.some((x) => x !== null) && tc && ck.some((x) => x !== null)) {
    const base = Number(tc[1]), inc = Number(tc[2] ?? 0);
    const prev = [base, base], known = [true, true];
    const black = o.start.split(' ')[1] === 'b' ? 1 : 0;
    ck.forEach((x, j) => {
      const s = (j + black) % 2, ok = known[s];
      const before = prev[s] + inc;
      known[s] = false;
      if (x === null) return;
      prev[s] = x;
      known[s] = true;
      em[j] = ok ? before - x : null;
    });
  }
  emts += cmp('emt', em);
  evals += cmp('evals', ev);
});
if (ours.size > games.length)
  differ(0, 'games', ours.size, games.length);

console.log(`${path.basename(pgnFile)}: ${games.length} games, ${compared} compared ` +
  `(${skipped} neither reads), ${plies} plies, ${clocks} clocks, ${emts} emt, ` +
  `${evals} evals, ${bad.length} differences`);
for (const b of bad.slice(0, 10)) console.log('  ' + b);
process.exit(bad.length ? 1 : 0);

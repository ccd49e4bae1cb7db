// SPDX-License-Identifier: BSD-2-Clause
//
// bench/json-chessops.mjs: what pgn2json writes, done with chessops
// (npm), for bench/json: one JSON line per game with the tags, the
// start FEN, SAN and UCI moves, plies, result, final FEN, termination
// (checkmate, stalemate, dead by material, fivefold, seventy-five,
// threefold, fifty) and the [%clk]/[%emt]/[%eval] arrays.
//
// usage: node json-chessops.mjs CHESSOPS_DIR FILE.pgn > out.ndjson

import { pathToFileURL } from 'node:url';
import { readFileSync, writeSync } from 'node:fs';
import path from 'node:path';

const [dir, file] = process.argv.slice(2);
const mod = (name) => import(pathToFileURL(
  path.resolve(dir, 'node_modules/chessops/dist/esm', name + '.js')).href);
const { parsePgn, startingPosition } = await mod('pgn');
const { parseSan, makeSanAndPlay } = await mod('san');
const { makeFen } = await mod('fen');
const { makeUci } = await mod('util');

const cmd = (text, name) => {
  const m = text.match(new RegExp('\\[%' + name + '\\s+([^\\]]*?)\\s*\\]'));
  return m ? m[1] : undefined;
};
const time = (s) => {
  const p = s.split(':').map(Number);
  return p.reduce((a, x) => a * 60 + x, 0);
};
const evalOf = (s) => {
  const v = s.split(',')[0];
  return v.startsWith('#') ? { mate: Number(v.slice(1)) } :
    { cp: Math.round(Number(v) * 100) };
};

const text = readFileSync(file, 'latin1');
let out = [], n = 0;
for (const g of parsePgn(text)) {
  n++;
  const start = startingPosition(g.headers);
  if (start.isErr) continue;
  const pos = start.value;
  const o = { game: n, tags: Object.fromEntries(g.headers),
    start: makeFen(pos.toSetup()), moves: [], uci: [] };
  const clocks = [], emt = [], evals = [];
  const seen = new Map();
  const key = () => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
  seen.set(key(), 1);
  let ok = true, half = pos.halfmoves;
  for (const node of g.moves.mainline()) {
    const mv = parseSan(pos, node.san);
    if (!mv) { ok = false; break; }
    o.uci.push(makeUci(mv));
    o.moves.push(makeSanAndPlay(pos, mv));
    if (pos.halfmoves === 0) seen.clear();
    const k = key();
    seen.set(k, (seen.get(k) || 0) + 1);
    const c = (node.comments || []).join(' ');
    const a = cmd(c, 'clk'), b = cmd(c, 'emt'), e = cmd(c, 'eval');
    clocks.push(a === undefined ? null : time(a));
    emt.push(b === undefined ? null : time(b));
    evals.push(e === undefined ? null : evalOf(e));
  }
  if (!ok) continue;
  const reps = seen.get(key()) || 1;
  o.plies = o.moves.length;
  o.result = g.headers.get('Result') || '*';
  o.final = makeFen(pos.toSetup());
  o.termination = pos.isCheckmate() ? 'checkmate' : pos.isStalemate() ?
    'stalemate' : pos.isInsufficientMaterial() ? 'dead' : reps >= 5 ?
    'fivefold' : pos.halfmoves >= 150 ? 'seventyfive' : reps >= 3 ?
    'threefold' : pos.halfmoves >= 100 ? 'fifty' : null;
  if (clocks.some((x) => x !== null)) o.clocks = clocks;
  if (emt.some((x) => x !== null)) o.emt = emt;
  if (evals.some((x) => x !== null)) o.evals = evals;
  out.push(JSON.stringify(o));
  if (out.length === 1000) {
    writeSync(1, out.join('\n') + '\n');
    out = [];
  }
}
if (out.length) writeSync(1, out.join('\n') + '\n');

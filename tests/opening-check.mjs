// SPDX-License-Identifier: BSD-2-Clause
//
// opening-check.mjs: an independent opening classification, to compare
// with pgn2tsv -f @game,@eco,@opening,@opening_ply.  Reads the tables
// (the lichess TSV form: a header naming eco, name and pgn; or PGN
// games with ECO, Opening, Variation, SubVariation tags) and the games
// with chessops (npm: its own PGN parser, SAN and FEN), takes the EPD
// of every position (placement, side to move, castling, en passant
// only where a capture is legal: chessops' toSetup), indexes the
// tables' final positions (the first line of a position wins), and
// classifies each game by the last position of its main line, after
// at least one move, that a table line ends in.  Nothing of
// libchessdata is used, and no position is skipped.
//
// usage: node opening-check.mjs CHESSOPS_DIR GAMES.pgn TABLE...
// Writes one row per game that chessops reads, as pgn2tsv -H writes
// it: game number (in the file, from 1), ECO, name, ply (empty fields
// when no line matches).  A game whose moves chessops rejects gets no
// row (pgn2tsv rejects it too).  Exit 2 on a usage or table error.

import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, gamesFile, ...tables] = process.argv.slice(2);
if (tables.length === 0) {
  console.error('usage: node opening-check.mjs CHESSOPS_DIR GAMES.pgn TABLE...');
  process.exit(2);
}
const mod = (name) => import(pathToFileURL(
  path.resolve(dir, 'node_modules/chessops/dist/esm', name + '.js')).href);
const { parsePgn, startingPosition } = await mod('pgn');
const { parseSan } = await mod('san');
const { makeFen } = await mod('fen');
const { Chess } = await mod('chess');

const epd = (pos) => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
const index = new Map();
const add = (key, line) => { if (!index.has(key)) index.set(key, line); };

// Play SAN moves from pos; the position after them, or null.
const play = (pos, sans) => {
  for (const san of sans) {
    const m = parseSan(pos, san);
    if (!m) return null;
    pos.play(m);
  }
  return pos;
};

for (const t of tables) {
  const text = readFileSync(t, 'utf8');
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const head = lines[0].split('\t');
  if (head.includes('eco') && head.includes('name') && head.includes('pgn')) {
    const [ce, cn, cp] = ['eco', 'name', 'pgn'].map((c) => head.indexOf(c));
    lines.slice(1).forEach((l, i) => {
      if (l === '') return;
      const f = l.split('\t');
      const sans = f[cp].split(/\s+/).map((w) => w.replace(/^\d+\.+/, ''))
        .filter((w) => w !== '' && !/^(\*|1-0|0-1|1\/2-1\/2)$/.test(w));
      if (sans.length === 0) return;
      const pos = play(Chess.default(), sans);
      if (!pos) {
        console.error(`${t}:${i + 2}: a move does not read`);
        process.exit(2);
      }
      add(epd(pos), { eco: f[ce], name: f[cn], plies: sans.length });
    });
  } else {
    for (const g of parsePgn(text)) {
      const h = (n) => g.headers.get(n) || '';
      const sans = [...g.moves.mainline()].map((n) => n.san);
      if (sans.length === 0) continue;
      const pos = play(Chess.default(), sans);
      if (!pos) {
        console.error(`${t}: game ${h('ECO')} ${h('Opening')}: a move does not read`);
        process.exit(2);
      }
      const parts = [h('Opening'), h('Variation'), h('SubVariation')]
        .filter((s) => s !== '');
      const name = parts.slice(0, 2).join(': ') +
        (parts.length > 2 ? ', ' + parts.slice(2).join(', ') : '');
      add(epd(pos), { eco: h('ECO'), name, plies: sans.length });
    }
  }
}

const out = [];
let number = 0;
for (const g of parsePgn(readFileSync(gamesFile, 'latin1'))) {
  number++;
  const start = startingPosition(g.headers);
  if (start.isErr) continue;
  const pos = start.value;
  let found = null, ply = 0, bad = false;
  for (const n of g.moves.mainline()) {
    const m = parseSan(pos, n.san);
    if (!m) { bad = true; break; }
    pos.play(m);
    ply++;
    const line = index.get(epd(pos));
    if (line) found = { ...line, ply };
  }
  if (bad) continue;
  out.push(found ? `${number}\t${found.eco}\t${found.name}\t${found.ply}` :
    `${number}\t\t\t`);
}
process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));

// SPDX-License-Identifier: BSD-2-Clause
// positions-duckdb.mjs DIR TSV PARQUET KEY: the recipe of pgn2tsv(1)
// --positions in DuckDB (npm's @duckdb/node-api, installed under DIR):
// load the TSV once with read_csv, write it to Parquet with COPY, then
// query by key; print, one "name value" a line, the games reaching the
// position KEY (in the table and in the Parquet file), the moves played
// from it with their games ("move NAME N", by games then name), and on
// standard error the times taken.
import { createRequire } from 'node:module';
import path from 'node:path';

const [dir, tsv, parquet, key] = process.argv.slice(2);
const require = createRequire(path.join(dir, 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRows();
const q = (s) => `'${s.replaceAll("'", "''")}'`;
const ms = (t) => `${(performance.now() - t).toFixed(1)} ms`;

let t = performance.now();
await con.run(`CREATE TABLE p AS SELECT * FROM read_csv(${q(tsv)}, delim = '\\t',
    header = true, quote = '', escape = '', columns = {'game': 'BIGINT',
    'ply': 'INTEGER', 'key': 'VARCHAR', 'epd': 'VARCHAR', 'move': 'VARCHAR',
    'result': 'VARCHAR', 'white_elo': 'INTEGER', 'black_elo': 'INTEGER'})`);
const load = ms(t);
t = performance.now();
await con.run(`COPY p TO ${q(parquet)} (FORMAT parquet)`);
const copy = ms(t);
t = performance.now();
const games = (await rows(`SELECT count(DISTINCT game) FROM p WHERE key = ${q(key)}`))[0][0];
const query = ms(t);
const pq = (await rows(`SELECT count(DISTINCT game) FROM ${q(parquet)} WHERE key = ${q(key)}`))[0][0];
const n = (await rows('SELECT count(*) FROM p'))[0][0];
console.log(`rows ${n}`);
console.log(`games ${games}`);
console.log(`parquet_games ${pq}`);
for (const [m, g] of await rows(`SELECT move, count(*) AS g FROM p
    WHERE key = ${q(key)} AND move IS NOT NULL GROUP BY move ORDER BY g DESC, move`))
  console.log(`move ${m} ${g}`);
console.error(`load ${load}, parquet ${copy}, query by key ${query}`);

// SPDX-License-Identifier: BSD-2-Clause
// duckdb-check.mjs DIR TSV NDJSON PARQUET SQL: load pgn2tsv output (TSV,
// RFC 4180 quotes) with read_csv and pgn2json output with read_json
// into DuckDB (npm's @duckdb/node-api, installed under DIR), write
// Parquet with COPY and read it back, and run pgn2tsv --sql's script;
// print what the shell test compares with awk and jq, one "name value"
// a line.
import { createRequire } from 'node:module';
import path from 'node:path';
import { readFileSync } from 'node:fs';

// duckdb-check.mjs DIR --rows SQL: run the script SQL (pgn2tsv --sql,
// either dialect) and print the table games ordered by its first
// column, a row a line, the values separated by tabs, NULL as @NULL@.
// duckdb-check.mjs DIR --types TSV: load TSV with read_csv as
// pgn2tsv(1) says and print each column's name and type, one a line.
// duckdb-check.mjs DIR --cli [DATABASE] -c SQL: what the duckdb CLI's
// `duckdb [DATABASE] -c SQL` does, for a machine without it
// (tests/readme-cookbook.sh): run SQL, print the last statement's
// result as CSV with a header row (duckdb -csv), NULL as NULL.

const [dir, tsv, ndjson, parquet, sql] = process.argv.slice(2);
const require = createRequire(path.join(dir, 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');
if (tsv === '--cli') {
  const args = process.argv.slice(4);
  const c = args.indexOf('-c');
  if (c < 0 || c > 1 || c + 2 !== args.length)
    throw new Error('usage: --cli [DATABASE] -c SQL');
  const cdb = await DuckDBInstance.create(c === 1 ? args[0] : ':memory:');
  const r = await (await cdb.connect()).runAndReadAll(args[c + 1]);
  const csv = (v) => v === null ? 'NULL' : /[",\n]/.test(String(v)) ?
    `"${String(v).replaceAll('"', '""')}"` : String(v);
  const lines = [r.columnNames().map(csv).join(',')].concat(r.getRows().map(
    (row) => row.map(csv).join(',')));
  await new Promise((done) =>
    process.stdout.write(lines.map((l) => l + '\n').join(''), done));
  process.exit(0);
}
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
const one = async (sql) => (await con.runAndReadAll(sql)).getRows()[0][0];
const q = (s) => `'${s.replaceAll("'", "''")}'`;
const readCsv = (file) => `read_csv(${q(file)}, delim = '\\t',
    header = true, quote = '"', escape = '"', nullstr = ['?', '????.??.??'])`;

if (tsv === '--rows') {
  await con.run(readFileSync(ndjson, 'utf8'));
  const r = await con.runAndReadAll('SELECT * FROM games ORDER BY 1');
  const lines = r.getRows().map((row) => row.map((v) => v === null ?
    '@NULL@' : String(v)).join('\t'));
  await new Promise((done) =>
    process.stdout.write(lines.map((l) => l + '\n').join(''), done));
  process.exit(0);
}
if (tsv === '--types') {
  const r = await con.runAndReadAll(`DESCRIBE SELECT * FROM ${readCsv(ndjson)}`);
  await new Promise((done) => process.stdout.write(r.getRows().map((row) =>
    `${row[0]} ${row[1]}\n`).join(''), done));
  process.exit(0);
}

// the examples of pgn2tsv(1) and pgn2json(1)
await con.run(`CREATE TABLE t AS SELECT * FROM ${readCsv(tsv)}`);
await con.run(`CREATE TABLE j AS SELECT * FROM read_json(${q(ndjson)},
    format = 'newline_delimited')`);
await con.run(`COPY (SELECT game, tags.White AS white, plies, clocks FROM j)
    TO ${q(parquet)} (FORMAT parquet)`);
// pgn2tsv --sql's script as it is (the table games)
await con.run(readFileSync(sql, 'utf8'));
const out = {
  tsv_rows: await one('SELECT count(*) FROM t'),
  tsv_elo_type: await one('SELECT typeof(any_value(WhiteElo)) FROM t'),
  tsv_elo2000: await one('SELECT count(*) FROM t WHERE WhiteElo > 2000'),
  tsv_plies100: await one('SELECT count(*) FROM t WHERE "@plies" > 100'),
  tsv_quoted: await one(`SELECT count(*) FROM t WHERE White = '"Q" Smith'`),
  tsv_tab: await one(`SELECT count(*) FROM t WHERE "@file" LIKE '%' || chr(9) || '%'`),
  sql_rows: await one('SELECT count(*) FROM games'),
  sql_elo2000: await one('SELECT count(*) FROM games WHERE WhiteElo > 2000'),
  sql_plies100: await one('SELECT count(*) FROM games WHERE _plies > 100'),
  sql_types: await one(`SELECT typeof(any_value(WhiteElo)) || ' ' || typeof(any_value(_plies)) FROM games`),
  json_rows: await one('SELECT count(*) FROM j'),
  json_plies100: await one('SELECT count(*) FROM j WHERE plies > 100'),
  json_clocks: await one('SELECT count(*) FROM (SELECT unnest(clocks) AS c FROM j) WHERE c IS NOT NULL'),
  parquet_rows: await one(`SELECT count(*) FROM ${q(parquet)}`),
  parquet_plies: await one(`SELECT sum(plies) FROM ${q(parquet)}`),
  parquet_quoted: await one(`SELECT count(*) FROM ${q(parquet)} WHERE white = '"Q" Smith'`),
};
for (const [k, v] of Object.entries(out)) console.log(`${k} ${v}`);

// SPDX-License-Identifier: MIT
// DuckDB reading what `fxt sql --export DIR` wrote, as it is: every DIR/TABLE.csv (or .jsonl)
// becomes a view named TABLE, then each QUERY runs and its rows print as CSV lines (no header,
// NULL empty: the shape of `fxt sql --csv` minus its header line), then a line "--".
//   node query.mjs DIR QUERY...
// Exit 0, 1 on a DuckDB error (message on stderr), 77 when @duckdb/node-api is not installed
// (`npm ci` here).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

let duckdb;
try {
  duckdb = await import('@duckdb/node-api');
} catch (e) {
  console.log('SKIP: @duckdb/node-api not installed (cd tests/sql/duckdb && npm ci): ' + e.message.split('\n')[0]);
  process.exit(77);
}
const [dir, ...queries] = process.argv.slice(2);
const inst = await duckdb.DuckDBInstance.create(':memory:');
const con = await inst.connect();
const q = (s) => "'" + s.replaceAll("'", "''") + "'";
for (const f of readdirSync(dir)) {
  const m = /^(\w+)\.(csv|jsonl)$/.exec(f);
  if (!m) continue;
  const read = m[2] === 'csv' ? `read_csv(${q(join(dir, f))}, header = true, allow_quoted_nulls = false)` : `read_json(${q(join(dir, f))}, format = 'newline_delimited')`;
  await con.run(`CREATE VIEW "${m[1]}" AS SELECT * FROM ${read}`);
}
const cell = (v) => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) || s === '' ? '"' + s.replaceAll('"', '""') + '"' : s;
};
for (const query of queries) {
  try {
    const r = await con.runAndReadAll(query);
    for (const row of r.getRowsJS()) process.stdout.write(row.map(cell).join(',') + '\n');
    process.stdout.write('--\n');
  } catch (e) {
    console.error('duckdb: ' + e.message);
    process.exit(1);
  }
}

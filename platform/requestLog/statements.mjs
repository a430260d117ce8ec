// The request log's SQL, the same for the writer on the event loop (SQLite) and in its thread
// (PostgreSQL). Plain JavaScript (JSDoc-typed, checked by tsc), so that the thread loads it too.

/**
 * Statements of these many rows only, largest first: a batch is written by a few of them, and the
 * SQL texts stay few, so that they keep their place among the statements prepared once per
 * connection, rather than one text per batch size.
 */
export const STATEMENT_ROWS = [64, 16, 4, 1];

/** The body table's columns, in the order of storedBodies.mjs's body rows. */
export const BODY_COLUMNS = ['provider_id', 'body_key', 'body_text', 'truncated', 'last_seen_at'];

/**
 * Where rows go: the entries' table and columns (in the order of a row's values), the bodies'.
 * @typedef {{ table: string, columns: string[], bodyTable: string }} LogTables
 */

/**
 * The statements of `count` rows, as [first row, rows] pairs, largest statements first.
 * @param {number} count
 * @returns {Array<[number, number]>}
 */
export function statementsOf(count) {
  /** @type {Array<[number, number]>} */
  const statements = [];
  let start = 0;
  for (const size of STATEMENT_ROWS) {
    while (count - start >= size) {
      statements.push([start, size]);
      start += size;
    }
  }
  return statements;
}

/**
 * @param {string} table
 * @param {string[]} columns
 * @param {number} size rows
 * @param {(index: number) => string} placeholder the n-th parameter's, from 1
 */
function valuesSql(table, columns, size, placeholder) {
  const width = columns.length;
  const tuples = Array.from(
    { length: size },
    (_, row) => `(${columns.map((_, column) => placeholder(row * width + column + 1)).join(', ')})`,
  );
  return `insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`;
}

/** @param {LogTables} tables @param {number} size @param {(index: number) => string} placeholder */
export function entriesSql(tables, size, placeholder) {
  return valuesSql(tables.table, tables.columns, size, placeholder);
}

/**
 * A body already stored (the same answer again) only has its last-seen time moved on, never back:
 * a process may write a batch older than another's after it, and the retention counts on the
 * newest time of any entry that carries the body (retention.ts).
 * @param {LogTables} tables @param {number} size @param {(index: number) => string} placeholder
 */
export function bodiesSql(tables, size, placeholder) {
  return (
    `${valuesSql(tables.bodyTable, BODY_COLUMNS, size, placeholder)} ` +
    `on conflict (provider_id, body_key) do update set last_seen_at = case ` +
    `when excluded.last_seen_at > ${tables.bodyTable}.last_seen_at then excluded.last_seen_at ` +
    `else ${tables.bodyTable}.last_seen_at end`
  );
}

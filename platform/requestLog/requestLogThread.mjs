// The request log's inserts, in a thread of their own with a database connection of their own
// (writerThread.ts, decision 028). On SQLite the driver is synchronous: on the event loop, a
// second's worth of recorded requests held every request back while libsql bound the text, wrote
// the pages and synced the file. On PostgreSQL the driver turns every body into protocol bytes on
// the event loop, in one piece per statement. Plain JavaScript (JSDoc-typed, checked by tsc), so
// that the thread loads the same file from the sources under vitest as from dist/.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'libsql';
import pg from 'pg';
import { keptBody } from './keptBody.mjs';

/**
 * @typedef {object} ThreadSettings
 * @property {{ kind: 'sqlite', path: string, busyTimeoutMs: number } | { kind: 'postgresql', url: string }} database
 * @property {string} table
 * @property {string[]} columns in the order of a written row, the bodies' four last (writer.ts)
 */

/**
 * A batch to write: each row as the writer caught it, its last two values the request's and the
 * answer's bodies, not yet text.
 * @typedef {{ id: number, rows: unknown[][] }} WriteMessage
 */

/**
 * What the thread answers once a batch is written: rows written, and the first error of the
 * statements that failed (their rows are lost, as a failed batch was on the event loop).
 * @typedef {{ id: number, written: number, failed: number, error: string | null }} WrittenMessage
 */

/**
 * Statements of these many rows only, largest first, prepared once per connection. Each commits
 * on its own: on SQLite a write of the server waits for the thread's at most one statement long
 * (a few ms for 64 rows of 30 KB bodies), and a refused row loses its statement's rows only.
 */
const STATEMENT_ROWS = [64, 16, 4, 1];

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const settings = threadSettings(workerData);
const insert = settings.database.kind === 'sqlite' ? onSqlite(settings.database) : await onPostgres(settings.database);

/** @param {unknown} data what writerThread.ts started the thread with @returns {ThreadSettings} */
function threadSettings(data) {
  return /** @type {ThreadSettings} */ (data);
}

/** @param {(index: number) => string} placeholder @param {number} size */
function insertSql(placeholder, size) {
  const width = settings.columns.length;
  const tuples = Array.from(
    { length: size },
    (_, row) => `(${settings.columns.map((_, column) => placeholder(row * width + column + 1)).join(', ')})`,
  );
  return `insert into ${settings.table} (${settings.columns.join(', ')}) values ${tuples.join(', ')}`;
}

/**
 * @typedef {object} Inserter
 * @property {(size: number, params: unknown[]) => Promise<void> | void} run one statement of `size` rows
 * @property {(truncated: boolean) => unknown} flag a cut flag as the driver binds it
 * @property {() => Promise<void> | void} close
 */

/**
 * Its own libsql connection on the file the server opened in WAL (server/db/orm.ts): its commits
 * never stop the server's reads, and they sync the file at checkpoints only.
 * @param {{ path: string, busyTimeoutMs: number }} database
 * @returns {Inserter}
 */
function onSqlite({ path, busyTimeoutMs }) {
  const connection = new Database(path, { timeout: busyTimeoutMs });
  connection.exec('pragma synchronous = normal');
  const statements = new Map(STATEMENT_ROWS.map((size) => [size, connection.prepare(insertSql(() => '?', size))]));
  return {
    run: (size, params) => void statements.get(size)?.run(params),
    flag: (truncated) => (truncated ? 1 : 0),
    close: () => void connection.close(),
  };
}

/**
 * One client of its own: named statements, parsed and planned once on its connection.
 * @param {{ url: string }} database
 * @returns {Promise<Inserter>}
 */
async function onPostgres({ url }) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const texts = new Map(STATEMENT_ROWS.map((size) => [size, insertSql((index) => `$${index}`, size)]));
  return {
    run: async (size, params) =>
      void (await client.query({ name: `request_log_insert_${size}`, text: texts.get(size) ?? '', values: params })),
    flag: (truncated) => truncated,
    close: () => client.end(),
  };
}

/** @param {unknown[]} row @returns {unknown[]} the row's values to bind, bodies as text with their cut flags */
function bound(row) {
  const request = keptBody(/** @type {Uint8Array | string | null} */ (row[row.length - 2]));
  const response = keptBody(/** @type {Uint8Array | string | null} */ (row[row.length - 1]));
  return [
    ...row.slice(0, -2),
    request.text,
    insert.flag(request.truncated),
    response.text,
    insert.flag(response.truncated),
  ];
}

/** @param {WriteMessage} message @returns {Promise<WrittenMessage>} */
async function write({ id, rows }) {
  let written = 0;
  /** @type {string | null} */
  let error = null;
  let start = 0;
  for (const size of STATEMENT_ROWS) {
    while (rows.length - start >= size) {
      /** @type {unknown[]} */
      const params = [];
      for (let index = start; index < start + size; index += 1) params.push(...bound(rows[index]));
      try {
        await insert.run(size, params);
        written += size;
      } catch (caught) {
        error ??= caught instanceof Error ? caught.message : String(caught);
      }
      start += size;
    }
  }
  return { id, written, failed: rows.length - written, error };
}

/** Batches one after the other, in the order they came: rows are numbered as written. */
let queue = Promise.resolve();
port.on('message', (/** @type {WriteMessage | 'close'} */ message) => {
  queue = queue.then(async () => {
    if (message !== 'close') return port.postMessage(await write(message));
    await insert.close();
    port.close();
  });
});

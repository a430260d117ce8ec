// The request log's inserts on PostgreSQL, in a thread of their own with a connection of their own
// (writerThread.ts, decision 028): on the event loop, the driver turns every body into protocol
// bytes, in one piece per statement. Plain JavaScript (JSDoc-typed, checked by tsc), so that the
// thread loads the same file from the sources under vitest as from dist/.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { keptBody } from './keptBody.mjs';

/**
 * @typedef {object} ThreadSettings
 * @property {{ kind: 'postgresql', url: string }} database
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
 * statements that failed (their rows are lost, as a failed batch was on the event loop). When the
 * connection to the database was lost (it restarts), the thread stops at the statement that found
 * it so: `keptFrom` is the first row not written, and that row and the rest are the writer's to
 * keep for later (writer.ts); null when the connection held.
 * @typedef {{ id: number, written: number, failed: number, error: string | null, keptFrom: number | null }} WrittenMessage
 */

/**
 * Statements of these many rows only, largest first, prepared once per connection. Each commits
 * on its own: a refused row loses its statement's rows only.
 */
const STATEMENT_ROWS = [64, 16, 4, 1];

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const settings = threadSettings(workerData);
const insert = onPostgres(settings.database);

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
 * @property {() => Promise<void>} connect opens the connection if it is not open (again)
 * @property {(size: number, params: unknown[]) => Promise<void>} run one statement of `size` rows
 * @property {() => Promise<boolean>} lost whether the connection died (a failed statement then says nothing of its rows)
 * @property {() => Promise<void>} close
 */

/**
 * One client of its own: named statements, parsed and planned once on its connection. A client
 * whose connection died (PostgreSQL restarted) is replaced at the next batch: its `error` is heard
 * here, not thrown in the thread.
 * @param {{ url: string }} database
 * @returns {Inserter}
 */
function onPostgres({ url }) {
  /** @type {pg.Client | null} */
  let client = null;
  let dead = false;
  const texts = new Map(STATEMENT_ROWS.map((size) => [size, insertSql((index) => `$${index}`, size)]));
  return {
    async connect() {
      if (client && !dead) return;
      client?.end().catch(() => undefined);
      const opened = new pg.Client({ connectionString: url });
      dead = false;
      client = opened;
      const markDead = () => {
        if (client === opened) dead = true;
      };
      opened.on('error', markDead);
      opened.on('end', markDead);
      try {
        await opened.connect();
      } catch (error) {
        markDead();
        throw error;
      }
    },
    run: async (size, params) => {
      if (!client) throw new Error('not connected');
      await client.query({ name: `request_log_insert_${size}`, text: texts.get(size) ?? '', values: params });
    },
    // The client hears of its connection's end just after the statement that found it fails.
    lost: () => new Promise((resolve) => setImmediate(() => resolve(dead))),
    close: async () => {
      await client?.end().catch(() => undefined);
    },
  };
}

/** @param {unknown[]} row @returns {unknown[]} the row's values to bind, bodies as text with their cut flags */
function bound(row) {
  const request = keptBody(/** @type {Uint8Array | string | null} */ (row[row.length - 2]));
  const response = keptBody(/** @type {Uint8Array | string | null} */ (row[row.length - 1]));
  return [...row.slice(0, -2), request.text, request.truncated, response.text, response.truncated];
}

/** @param {unknown} caught @returns {string} */
const messageOf = (caught) => (caught instanceof Error ? caught.message : String(caught));

/** @param {WriteMessage} message @returns {Promise<WrittenMessage>} */
async function write({ id, rows }) {
  try {
    await insert.connect();
  } catch (caught) {
    return { id, written: 0, failed: 0, error: messageOf(caught), keptFrom: 0 };
  }
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
        if (await insert.lost())
          return { id, written, failed: start - written, error: messageOf(caught), keptFrom: start };
        error ??= messageOf(caught);
      }
      start += size;
    }
  }
  return { id, written, failed: rows.length - written, error, keptFrom: null };
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

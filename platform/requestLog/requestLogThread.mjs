// The request log's inserts on PostgreSQL, in a thread of their own with a connection of their own
// (writerThread.ts, decision 028): on the event loop, the driver turns every body into protocol
// bytes, in one piece per statement. Plain JavaScript (JSDoc-typed, checked by tsc), so that the
// thread loads the same file from the sources under vitest as from dist/.
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { bodiesSql, entriesSql, statementsOf } from './statements.mjs';
import { separateBodies } from './storedBodies.mjs';

/**
 * @typedef {object} ThreadSettings
 * @property {{ kind: 'postgresql', url: string }} database
 * @property {import('./statements.mjs').LogTables} tables
 * @property {number} seenAt the index of an entry's time among its values (writer.ts)
 */

/**
 * A batch to write: each row as the writer caught it, its last two values the request's and the
 * answer's bodies, not yet text.
 * @typedef {{ id: number, rows: unknown[][] }} WriteMessage
 */

/**
 * What the thread answers once a batch is written: entries written, and the first error of the
 * statements that failed (their entries are lost, as a failed batch was on the event loop). When
 * the connection to the database was lost (it restarts), the thread stops at the statement that
 * found it so: `keptFrom` is the first entry not written, and that entry and the rest are the
 * writer's to keep for later (writer.ts); null when the connection held.
 * @typedef {{ id: number, written: number, failed: number, error: string | null, keptFrom: number | null }} WrittenMessage
 */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const settings = threadSettings(workerData);
const insert = onPostgres(settings.database);

/** @param {unknown} data what writerThread.ts started the thread with @returns {ThreadSettings} */
function threadSettings(data) {
  return /** @type {ThreadSettings} */ (data);
}

/** @typedef {'entries' | 'bodies'} Statement */

/**
 * @typedef {object} Inserter
 * @property {() => Promise<void>} connect opens the connection if it is not open (again)
 * @property {(statement: Statement, size: number, params: unknown[]) => Promise<void>} run one statement of `size` rows
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
  /** @param {number} index */
  const numbered = (index) => `$${index}`;
  /** @type {Map<string, string>} */
  const texts = new Map();
  /** @param {Statement} statement @param {number} size */
  const textOf = (statement, size) => {
    const name = `request_log_${statement}_${size}`;
    if (!texts.has(name))
      texts.set(name, (statement === 'entries' ? entriesSql : bodiesSql)(settings.tables, size, numbered));
    return { name, text: /** @type {string} */ (texts.get(name)) };
  };
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
    run: async (statement, size, params) => {
      if (!client) throw new Error('not connected');
      await client.query({ ...textOf(statement, size), values: params });
    },
    // The client hears of its connection's end just after the statement that found it fails.
    lost: () => new Promise((resolve) => setImmediate(() => resolve(dead))),
    close: async () => {
      await client?.end().catch(() => undefined);
    },
  };
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
  const { entries, bodies } = separateBodies(rows, settings.seenAt);
  /** @type {string | null} */
  let error = null;
  // Bodies first, so that an entry never refers to a body still to come. A failed statement of
  // bodies loses those bodies only: their entries are written, and show no body.
  for (const [start, size] of statementsOf(bodies.length)) {
    try {
      await insert.run('bodies', size, bodies.slice(start, start + size).flat());
    } catch (caught) {
      if (await insert.lost()) return { id, written: 0, failed: 0, error: messageOf(caught), keptFrom: 0 };
      error ??= messageOf(caught);
    }
  }
  let written = 0;
  for (const [start, size] of statementsOf(entries.length)) {
    try {
      await insert.run('entries', size, entries.slice(start, start + size).flat());
      written += size;
    } catch (caught) {
      if (await insert.lost())
        return { id, written, failed: start - written, error: messageOf(caught), keptFrom: start };
      error ??= messageOf(caught);
    }
  }
  return { id, written, failed: entries.length - written, error, keptFrom: null };
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

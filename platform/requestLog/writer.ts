import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { isDatabaseUnavailable } from '../sql/databaseUnavailable.js';
import { selectRows } from '../sql/sqlText.js';
import { type CaughtBody, boundedBody, caughtBytes } from './bodyText.js';
import { RequestLogBody } from './RequestLogBody.js';
import { RequestLogEntry } from './RequestLogEntry.js';
import { bodiesSql, entriesSql, type LogTables, statementsOf } from './statements.mjs';
import { bodyKeyOf, type KeyedBody, separateBodies } from './storedBodies.mjs';
import { RequestLogThread, threadDatabaseOf } from './writerThread.js';

/** A request as the recorder caught it, before its bodies are turned into text (off the request path). */
export interface CaughtRequest {
  providerId: number;
  apiKeyId: number;
  apiKeyPrefix: string;
  requestId: string;
  createdAt: Date;
  method: string;
  path: string;
  query: string | null;
  operationId: string | null;
  status: number;
  durationMs: number;
  requestBody: CaughtBody | null;
  responseBody: CaughtBody | null;
}

/** An entry as the buffer holds it: each body by its key, its bytes only while they are still to be stored. */
type BufferedRequest = Omit<CaughtRequest, 'requestBody' | 'responseBody'> & {
  requestBody: KeyedBody | null;
  responseBody: KeyedBody | null;
};

export interface WriterLogger {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface RequestLogWriterOptions {
  orm: MikroORM;
  logger: WriterLogger;
  /** How often the buffer is written, whatever it holds. */
  flushIntervalMs?: number;
  /** Rows per insert; a buffer that reaches it is written at once. */
  batchSize?: number;
  /** Entries the buffer holds at most while the database is slow or away. */
  capacity?: number;
  /** Bytes of bodies the buffer holds at most (each body is already cut to 64 KB). */
  capacityBytes?: number;
}

export const REQUEST_LOG_FLUSH_INTERVAL_MS = 1_000;
/**
 * Large, so that a busy process commits about once a second: on SQLite the driver is synchronous
 * and each commit syncs the file while the event loop waits; with 200 a batch, GET provider at
 * 3,500 requests a second lost a tenth of its throughput to 17 commits a second (`npm run bench`).
 */
export const REQUEST_LOG_BATCH_SIZE = 2_000;
export const REQUEST_LOG_BUFFER_CAPACITY = 10_000;
export const REQUEST_LOG_BUFFER_BYTES = 64 * 1024 * 1024;
/**
 * For this long after a body was stored, an entry that carries it again holds its key only: the
 * buffer then keeps no copy of a repeated answer (2,000 answers of 29 KB held a second cost more
 * in garbage collection than their write), and the write sends no text for it. The retention keeps
 * a body this much longer than the entries that carry it (retention.ts).
 */
export const REQUEST_LOG_BODY_REUSE_MS = 60_000;
/** Bodies remembered as stored, at most: the oldest are forgotten first (and stored again if they come back). */
const STORED_BODIES_REMEMBERED = 10_000;

/**
 * Records requests off the request path: the middleware hands an entry to {@link record}, which
 * only appends it to a buffer in memory; the buffer is written by multi-row inserts every
 * `flushIntervalMs`, as soon as it holds `batchSize` entries, and once more on close.
 *
 * The buffer is bounded: when the database cannot keep up (or is away), the oldest entries are
 * dropped to make room for the new ones, rather than let the process's memory grow with the
 * traffic. A request log is a diagnostic aid, not a ledger: losing its oldest lines under
 * pressure is better than slowing or killing the API. Drops are counted and logged.
 *
 * On PostgreSQL the inserts run in a thread of their own with a connection of their own
 * (writerThread.ts, decision 028): on the event loop, the driver turned every body into protocol
 * bytes. SQLite is written here, by the server's own connection: a second writing connection made
 * the API's own transactions fail (threadDatabaseOf).
 *
 * A batch the database refused for want of a connection (it restarts) goes back to the head of the
 * buffer and is written once it answers: the buffer's bounds still hold, so an outage longer than
 * the buffer holds loses the oldest entries only. A batch refused for any other reason is dropped.
 */
export class RequestLogWriter {
  private readonly orm: MikroORM;
  private readonly logger: WriterLogger;
  private readonly flushIntervalMs: number;
  private readonly batchSize: number;
  private readonly capacity: number;
  private readonly capacityBytes: number;
  private buffer: BufferedRequest[] = [];
  /** `<provider> <key>` of the bodies written lately, with the newest time of the entries that carried them. */
  private readonly storedBodies = new Map<string, number>();
  private bufferedBytes = 0;
  /** Entries dropped (a full buffer, a failed insert) since the last log line that said so. */
  private dropped = 0;
  private draining = false;
  /** Set while the database does not answer, so that the outage is logged once, and its end. */
  private awaitingDatabase = false;
  private tail: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private readonly thread: RequestLogThread | null;

  constructor(options: RequestLogWriterOptions) {
    this.orm = options.orm;
    this.logger = options.logger;
    this.flushIntervalMs = options.flushIntervalMs ?? REQUEST_LOG_FLUSH_INTERVAL_MS;
    this.batchSize = options.batchSize ?? REQUEST_LOG_BATCH_SIZE;
    this.capacity = options.capacity ?? REQUEST_LOG_BUFFER_CAPACITY;
    this.capacityBytes = options.capacityBytes ?? REQUEST_LOG_BUFFER_BYTES;
    const database = threadDatabaseOf(this.orm);
    this.thread = database ? new RequestLogThread({ database, tables: tablesOf(this.orm.em), seenAt: SEEN_AT }) : null;
  }

  /**
   * Keeps an entry for the next write: no I/O, no promise. Called once the answer is sent; each
   * body is cut to 64 KB and hashed (about 20 µs for 30 KB), and a body stored a moment ago is
   * kept by its key alone.
   */
  record(entry: CaughtRequest): void {
    this.push({
      ...entry,
      requestBody: this.keyed(entry, entry.requestBody),
      responseBody: this.keyed(entry, entry.responseBody),
    });
  }

  private keyed(entry: CaughtRequest, caught: CaughtBody | null): KeyedBody | null {
    if (caught === null || caught.length === 0) return null;
    const body = boundedBody(caught);
    const key = bodyKeyOf(body);
    const storedAt = this.storedBodies.get(`${entry.providerId} ${key}`);
    const reusable = storedAt !== undefined && storedAt >= entry.createdAt.getTime() - REQUEST_LOG_BODY_REUSE_MS;
    return { key, body: reusable ? null : body };
  }

  private push(entry: BufferedRequest): void {
    const bytes = bufferedBytesOf(entry);
    while (
      this.buffer.length > 0 &&
      (this.buffer.length >= this.capacity || this.bufferedBytes + bytes > this.capacityBytes)
    ) {
      const oldest = this.buffer.shift() as BufferedRequest;
      this.bufferedBytes -= bufferedBytesOf(oldest);
      this.dropped += 1;
    }
    this.buffer.push(entry);
    this.bufferedBytes += bytes;
    if (this.buffer.length >= this.batchSize && !this.draining) void this.flush();
  }

  /** The bodies a batch wrote, remembered as stored, so that the next entries that carry them hold their keys only. */
  private rememberStored(batch: readonly BufferedRequest[]): void {
    for (const entry of batch) {
      for (const body of [entry.requestBody, entry.responseBody]) {
        if (body === null || body.body === null) continue;
        const id = `${entry.providerId} ${body.key}`;
        const seen = Math.max(entry.createdAt.getTime(), this.storedBodies.get(id) ?? 0);
        // Deleted first, so that the map's order stays the order of the last writes: the oldest go first.
        this.storedBodies.delete(id);
        this.storedBodies.set(id, seen);
      }
    }
    for (const id of this.storedBodies.keys()) {
      if (this.storedBodies.size <= STORED_BODIES_REMEMBERED) break;
      this.storedBodies.delete(id);
    }
  }

  /** Writes periodically from now on; the timer never keeps the process alive on its own. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.buffer.length > 0 && !this.draining) void this.flush();
    }, this.flushIntervalMs);
    this.timer.unref();
  }

  /** Writes everything recorded so far (tests call it before they read the table back). */
  flush(): Promise<void> {
    this.tail = this.tail.then(() => this.drain());
    return this.tail;
  }

  /** Stops the timer and writes what is left: the process's shutdown calls it before the database closes. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
    await this.thread?.close();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.buffer.length > 0) {
        const batch = this.buffer.splice(0, this.batchSize);
        for (const entry of batch) this.bufferedBytes -= bufferedBytesOf(entry);
        try {
          const unwritten = this.thread
            ? await this.writeInThread(this.thread, batch)
            : await this.orm.em
                .fork()
                .transactional((em) => insertRows(em, batch))
                .then(() => this.rememberStored(batch))
                .then(() => null);
          if (unwritten) {
            this.keepForLater(unwritten.rows, unwritten.reason);
            return;
          }
          if (this.awaitingDatabase) {
            this.awaitingDatabase = false;
            this.logger.warn(
              { entries: this.buffer.length + batch.length },
              'request log: database back, writing again',
            );
          }
        } catch (error) {
          if (isDatabaseUnavailable(error)) {
            this.keepForLater(batch, error);
            return;
          }
          // Not put back: a database that refuses the batch would refuse it again, and the buffer must stay bounded.
          this.dropped += batch.length;
          this.logger.error(
            { err: error instanceof Error ? error.message : String(error), entries: batch.length },
            'request log: write failed',
          );
        }
      }
    } finally {
      this.draining = false;
      if (this.dropped > 0) {
        this.logger.warn({ dropped: this.dropped }, 'request log: entries dropped (buffer full or write failed)');
        this.dropped = 0;
      }
    }
  }

  /** Back at the head of the buffer, in order, for the next write; the buffer's bounds still apply. */
  private keepForLater(batch: BufferedRequest[], error: unknown): void {
    if (!this.awaitingDatabase) {
      this.awaitingDatabase = true;
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error), entries: this.buffer.length + batch.length },
        'request log: database unavailable, entries kept until it answers',
      );
    }
    const newer = this.buffer;
    this.buffer = [];
    this.bufferedBytes = 0;
    for (const entry of [...batch, ...newer]) this.push(entry);
  }

  /**
   * A failed statement of the thread loses its rows only; the others of the batch are written. A
   * connection lost on the way leaves the rest of the batch unwritten: those rows are returned.
   */
  private async writeInThread(
    thread: RequestLogThread,
    batch: readonly BufferedRequest[],
  ): Promise<{ rows: BufferedRequest[]; reason: string } | null> {
    const outcome = await thread.write(caughtRowsOf(this.orm.em, batch));
    // Only a batch written whole tells which bodies are stored: a failed statement may have held bodies.
    if (outcome.error === null) this.rememberStored(batch);
    if (outcome.failed > 0) {
      this.dropped += outcome.failed;
      this.logger.error({ err: outcome.error, entries: outcome.failed }, 'request log: write failed');
    }
    if (outcome.keptFrom === null) return null;
    return { rows: batch.slice(outcome.keptFrom), reason: outcome.error ?? 'the connection was lost' };
  }
}

/** What an entry holds of bodies still to be stored, for the buffer's bound. */
function bufferedBytesOf(entry: BufferedRequest): number {
  return caughtBytes(entry.requestBody?.body) + caughtBytes(entry.responseBody?.body);
}

/** The columns written, in the order of {@link caughtRowsOf}: the bodies' keys last, as storedBodies.mjs expects them. */
const PROPERTIES = [
  'providerId',
  'apiKeyId',
  'apiKeyPrefix',
  'requestId',
  'createdAt',
  'method',
  'path',
  'query',
  'operationId',
  'status',
  'durationMs',
  'requestBodyKey',
  'responseBodyKey',
] as const;

/** Where an entry's time is among its values: its bodies' last-seen time. */
const SEEN_AT = PROPERTIES.indexOf('createdAt');

function tablesOf(em: EntityManager): LogTables {
  const metadata = em.getMetadata();
  const meta = metadata.get(RequestLogEntry.name);
  return {
    table: meta.tableName,
    columns: PROPERTIES.map((property) => meta.properties[property].fieldNames[0]),
    bodyTable: metadata.get(RequestLogBody.name).tableName,
  };
}

/** Each entry's values as the database binds them (dates by its platform), then its two bodies as caught. */
function caughtRowsOf(em: EntityManager, batch: readonly BufferedRequest[]): unknown[][] {
  const platform = em.getPlatform();
  return batch.map((entry) => [
    entry.providerId,
    entry.apiKeyId,
    entry.apiKeyPrefix,
    entry.requestId,
    platform.processDateProperty(entry.createdAt),
    entry.method,
    entry.path,
    entry.query,
    entry.operationId,
    entry.status,
    entry.durationMs,
    entry.requestBody,
    entry.responseBody,
  ]);
}

/**
 * The bodies, each once, then the entries, by multi-row statements with bound parameters through
 * the prepared statements of the SQL helpers: MikroORM's insertMany writes every value into the
 * SQL text, escaping up to 128 KB of bodies a row on the event loop, and builds its query anew for
 * each batch. In the transaction of `em`: on SQLite, one commit a batch.
 */
async function insertRows(em: EntityManager, batch: readonly BufferedRequest[]): Promise<void> {
  const tables = tablesOf(em);
  const { entries, bodies } = separateBodies(caughtRowsOf(em, batch), SEEN_AT);
  // Every statement answers rows (`returning`): the prepared statements' path reads them.
  for (const [start, size] of statementsOf(bodies.length))
    await selectRows(
      em,
      `${bodiesSql(tables, size, () => '?')} returning provider_id`,
      bodies.slice(start, start + size).flat(),
    );
  for (const [start, size] of statementsOf(entries.length))
    await selectRows(
      em,
      `${entriesSql(tables, size, () => '?')} returning id`,
      entries.slice(start, start + size).flat(),
    );
}

import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { isDatabaseUnavailable } from '../sql/databaseUnavailable.js';
import { selectRows } from '../sql/sqlText.js';
import { type CaughtBody, boundedBody, caughtBytes, keptBody } from './bodyText.js';
import { RequestLogEntry } from './RequestLogEntry.js';
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
  private buffer: CaughtRequest[] = [];
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
    this.thread = database
      ? new RequestLogThread({
          database,
          table: this.orm.getMetadata().get(RequestLogEntry.name).tableName,
          columns: columnsOf(this.orm.em),
        })
      : null;
  }

  /** Keeps an entry for the next write: no I/O, no promise, on the request path. */
  record(entry: CaughtRequest): void {
    if (entry.requestBody !== null) entry.requestBody = boundedBody(entry.requestBody);
    if (entry.responseBody !== null) entry.responseBody = boundedBody(entry.responseBody);
    const bytes = caughtBytes(entry.requestBody) + caughtBytes(entry.responseBody);
    while (
      this.buffer.length > 0 &&
      (this.buffer.length >= this.capacity || this.bufferedBytes + bytes > this.capacityBytes)
    ) {
      const oldest = this.buffer.shift() as CaughtRequest;
      this.bufferedBytes -= caughtBytes(oldest.requestBody) + caughtBytes(oldest.responseBody);
      this.dropped += 1;
    }
    this.buffer.push(entry);
    this.bufferedBytes += bytes;
    if (this.buffer.length >= this.batchSize && !this.draining) void this.flush();
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
        for (const entry of batch)
          this.bufferedBytes -= caughtBytes(entry.requestBody) + caughtBytes(entry.responseBody);
        try {
          const unwritten = this.thread
            ? await this.writeInThread(this.thread, batch)
            : await this.orm.em
                .fork()
                .transactional((em) => insertRows(em, batch))
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
  private keepForLater(batch: CaughtRequest[], error: unknown): void {
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
    for (const entry of [...batch, ...newer]) this.record(entry);
  }

  /**
   * A failed statement of the thread loses its rows only; the others of the batch are written. A
   * connection lost on the way leaves the rest of the batch unwritten: those rows are returned.
   */
  private async writeInThread(
    thread: RequestLogThread,
    batch: readonly CaughtRequest[],
  ): Promise<{ rows: CaughtRequest[]; reason: string } | null> {
    const platform = this.orm.em.getPlatform();
    const outcome = await thread.write(
      batch.map((entry) => [
        ...caughtValuesOf(entry).map((value) => (value instanceof Date ? platform.processDateProperty(value) : value)),
        entry.requestBody,
        entry.responseBody,
      ]),
    );
    if (outcome.failed > 0) {
      this.dropped += outcome.failed;
      this.logger.error({ err: outcome.error, entries: outcome.failed }, 'request log: write failed');
    }
    if (outcome.keptFrom === null) return null;
    return { rows: batch.slice(outcome.keptFrom), reason: outcome.error ?? 'the connection was lost' };
  }
}

/** The columns written, in the order of {@link valuesOf}: the bodies' four last, as the thread expects them. */
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
  'requestBody',
  'requestBodyTruncated',
  'responseBody',
  'responseBodyTruncated',
] as const;

/**
 * Statements of these many rows only, largest first: a batch is written by a few of them, and the
 * SQL texts stay four, so that they keep their place among the statements prepared once per
 * connection (preparedStatements.ts) beside the reads', rather than one text per batch size.
 */
const STATEMENT_ROWS = [64, 16, 4, 1];

/**
 * Multi-row inserts with bound parameters, through the prepared statements of the SQL helpers:
 * MikroORM's insertMany writes every value into the SQL text, escaping up to 128 KB of bodies a
 * row on the event loop, and its query is built anew for each batch.
 */
function columnsOf(em: EntityManager): string[] {
  const meta = em.getMetadata().get(RequestLogEntry.name);
  return PROPERTIES.map((property) => meta.properties[property].fieldNames[0]);
}

async function insertRows(em: EntityManager, batch: readonly CaughtRequest[]): Promise<void> {
  const meta = em.getMetadata().get(RequestLogEntry.name);
  const platform = em.getPlatform();
  const columns = columnsOf(em).join(', ');
  const tuple = `(${PROPERTIES.map(() => '?').join(', ')})`;
  let start = 0;
  for (const size of STATEMENT_ROWS) {
    while (batch.length - start >= size) {
      const params: unknown[] = [];
      for (const entry of batch.slice(start, start + size)) {
        for (const value of valuesOf(entry))
          params.push(value instanceof Date ? platform.processDateProperty(value) : value);
      }
      const sql = `insert into ${meta.tableName} (${columns}) values ${tuple}${`, ${tuple}`.repeat(size - 1)} returning id`;
      await selectRows(em, sql, params);
      start += size;
    }
  }
}

function valuesOf(entry: CaughtRequest): unknown[] {
  const request = keptBody(entry.requestBody);
  const response = keptBody(entry.responseBody);
  return [...caughtValuesOf(entry), request.text, request.truncated, response.text, response.truncated];
}

/** Every value but the bodies', in the order of {@link PROPERTIES}. */
function caughtValuesOf(entry: CaughtRequest): unknown[] {
  return [
    entry.providerId,
    entry.apiKeyId,
    entry.apiKeyPrefix,
    entry.requestId,
    entry.createdAt,
    entry.method,
    entry.path,
    entry.query,
    entry.operationId,
    entry.status,
    entry.durationMs,
  ];
}

import { Worker } from 'node:worker_threads';
import type { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlConnection } from '@mikro-orm/knex';
import type { LogTables } from './statements.mjs';

/** The database the thread connects to: PostgreSQL only (threadDatabaseOf). */
export interface ThreadDatabase {
  kind: 'postgresql';
  url: string;
}

/** Where the thread writes (requestLogThread.mjs, ThreadSettings). */
export interface ThreadSettings {
  database: ThreadDatabase;
  /** The entries' columns, the bodies' two keys last, and the bodies' table. */
  tables: LogTables;
  /** The index of an entry's time among its values. */
  seenAt: number;
}

/** What the thread answers for a batch (requestLogThread.mjs). */
export interface ThreadOutcome {
  written: number;
  failed: number;
  error: string | null;
  /** The connection was lost at this row: it and the rest were not written, and are the writer's to keep. */
  keptFrom: number | null;
}

interface Written extends ThreadOutcome {
  id: number;
}

interface Pending {
  resolve(outcome: ThreadOutcome): void;
  reject(error: Error): void;
}

/**
 * The database an ORM writes to, as a second connection opens it: PostgreSQL only. SQLite is
 * written on the event loop, by the API's own connection, as before: a second writing connection
 * made the API's transactions fail. A transaction that reads and then writes must upgrade its lock,
 * and SQLite answers SQLITE_BUSY at once, without waiting, when another connection committed since
 * the read began (in WAL and in rollback mode alike): with the thread committing a batch a second,
 * writes of the API answered "database is locked" (tests/server/backupRestore.test.ts, decision 028).
 */
export function threadDatabaseOf(orm: MikroORM): ThreadDatabase | null {
  const client = (orm.em.getConnection() as AbstractSqlConnection).getKnex().client as { driverName: string };
  return client.driverName === 'pg' ? { kind: 'postgresql', url: orm.config.getClientUrl() } : null;
}

/**
 * The writer's side of the thread that inserts the request log (requestLogThread.mjs, decision
 * 028). Started at the first batch, so that a runtime that records nothing starts no thread; a
 * thread that dies fails its pending batches and the next batch starts another.
 *
 * Bodies are posted as they were caught and copied by the message (at most 64 KB each, the cut
 * the buffer already made): not transferred, since a small Buffer shares its memory with others
 * (Node's pool) and a large one may still be read by the socket that sent the answer.
 */
export class RequestLogThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly settings: ThreadSettings) {}

  /** Writes the rows (each the caught values, its bodies last) and says how it went. */
  write(rows: unknown[][]): Promise<ThreadOutcome> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    // Held open while a batch is in flight, so that a shutdown waits for its answer; idle, it keeps nothing alive.
    if (this.pending.size === 0) worker.ref();
    return new Promise<ThreadOutcome>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, rows });
    });
  }

  /** Lets the thread close its connection and end; batches still pending are answered first. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('close');
    await exited;
  }

  private start(): Worker {
    const worker = new Worker(new URL('./requestLogThread.mjs', import.meta.url), { workerData: this.settings });
    worker.unref();
    worker.on('message', (message: Written) => {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      pending.resolve(message);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const pending of this.pending.values()) pending.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the request log's writer thread ended (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

import { randomBytes } from 'node:crypto';
import { type FSWatcher, statSync, watch, writeFileSync } from 'node:fs';
import type { EntityManager, EventSubscriber, FlushEventArgs, MikroORM, TransactionEventArgs } from '@mikro-orm/core';
import pg from 'pg';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import type { CallerChanges } from '../../graphql/providers/callerCache.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import type { Logger } from '../logger.js';
import type { DatabaseConfig } from './orm.js';

/**
 * How every process learns that keys or providers changed, for the caller cache
 * (graphql/providers/callerCache.ts):
 * - this process: a subscriber of the ORM sees each flush that changes an API key, a provider or
 *   an offerer (whose deletion removes its keys), and tells once the change is committed;
 * - other processes on PostgreSQL: the same commit sends a notification on a channel that every
 *   process listens to;
 * - other processes on one SQLite file (the CLI beside the server): the commit rewrites a marker
 *   file beside the database, which every process watches (inotify on Linux); where the file
 *   cannot be watched, each lookup checks it instead (one stat, no read).
 * An in-memory SQLite database has only this process.
 */

const CHANNEL = 'provider_platform_caller_changes';
const WATCHED: ReadonlySet<unknown> = new Set([ApiKey, Provider, Offerer]);
const RECONNECT_DELAY_MS = 1_000;

type Listener = () => void;

class CallerChangeAnnouncer implements EventSubscriber {
  private readonly listeners = new Set<Listener>();
  /** Entity managers whose open transaction changed a watched row: told at its commit. */
  private readonly pending = new WeakSet<EntityManager>();

  constructor(
    private readonly announceElsewhere: () => Promise<void>,
    private readonly logger: () => Logger | undefined,
  ) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Other processes' changes, as their notifications arrive or their marker changes. */
  heard(): void {
    for (const listener of this.listeners) listener();
  }

  async afterFlush({ em, uow }: FlushEventArgs): Promise<void> {
    const changed = uow.getChangeSets().some((changeSet) => WATCHED.has(changeSet.meta.class));
    if (!changed) return;
    if (em.isInTransaction()) {
      // Told now as well: a row read between now and the commit is then not kept either.
      this.pending.add(em);
      this.heard();
      return;
    }
    await this.announce();
  }

  async afterTransactionCommit({ em }: TransactionEventArgs): Promise<void> {
    if (!this.pending.delete(em)) return;
    await this.announce();
  }

  async afterTransactionRollback({ em }: TransactionEventArgs): Promise<void> {
    if (this.pending.delete(em)) this.heard();
  }

  private async announce(): Promise<void> {
    this.heard();
    // The change is committed: failing to tell other processes must not fail the request that
    // made it. Their caches then keep the old rows until their time limit.
    await this.announceElsewhere().catch((error: Error) =>
      this.logger()?.warn({ err: error.message }, 'could not tell other processes that keys or providers changed'),
    );
  }
}

const announcers = new WeakMap<MikroORM, { announcer: CallerChangeAnnouncer; database: DatabaseConfig }>();
const loggers = new WeakMap<MikroORM, Logger>();

export function markerPathOf(database: DatabaseConfig): string | null {
  return database.kind === 'sqlite' && database.path !== ':memory:' ? `${database.path}.callers` : null;
}

/** Registers the announcer on a freshly opened ORM; every process that writes must have it. */
export function announceCallerChanges(orm: MikroORM, database: DatabaseConfig): void {
  const marker = markerPathOf(database);
  const announceElsewhere =
    database.kind === 'postgresql'
      ? async () => {
          await orm.em.getConnection().execute(`select pg_notify('${CHANNEL}', '')`);
        }
      : async () => {
          if (marker) writeFileSync(marker, randomBytes(8).toString('hex'));
        };
  const announcer = new CallerChangeAnnouncer(announceElsewhere, () => loggers.get(orm));
  orm.em.getEventManager().registerSubscriber(announcer);
  announcers.set(orm, { announcer, database });
}

export interface CallerChangeFeed extends CallerChanges {
  close(): Promise<void>;
}

/**
 * This process's view of the changes: its own commits, and the other processes' by the engine's
 * means, on the database the ORM was opened on (tests hand the runtime an ORM of their own,
 * whatever the configuration says).
 */
export async function watchCallerChanges(orm: MikroORM, logger: Logger): Promise<CallerChangeFeed> {
  const registered = announcers.get(orm);
  if (!registered) throw new Error('The database was not opened with openDatabase: its changes are not announced');
  const { announcer, database } = registered;
  loggers.set(orm, logger);
  if (database.kind === 'postgresql') return listenOnPostgres(database.url, announcer, logger);
  const marker = markerPathOf(database);
  if (!marker)
    return {
      live: true,
      poll() {},
      subscribe: (listener) => announcer.subscribe(listener),
      close: async () => undefined,
    };
  return watchMarker(marker, announcer, logger);
}

/**
 * The marker as the kernel reports its changes: a `stat` on every lookup cost about 100 µs of a
 * loaded request (9 % of the offerer venues' main thread), a watch costs nothing until a change.
 * Like PostgreSQL's notifications, a change is heard when its event arrives, not in the instant of
 * the commit. Where the file cannot be watched, or the watch fails, every lookup checks it again.
 */
function watchMarker(marker: string, announcer: CallerChangeAnnouncer, logger: Logger): CallerChangeFeed {
  let seen: string | null = null;
  let watcher: FSWatcher | null = null;
  let closed = false;

  const stopWatching = () => {
    watcher?.close();
    watcher = null;
  };
  const fallBackToStat = (error: Error) => {
    logger.warn({ err: error.message }, 'cannot watch the caller-change marker: every lookup checks it');
    stopWatching();
    seen = markerVersion(marker);
    // A change may have come while the watch failed.
    announcer.heard();
  };
  const startWatching = () => {
    try {
      // The watch needs the file: a process that finds none creates it (an empty marker is no change).
      writeFileSync(marker, '', { flag: 'a' });
      watcher = watch(marker, { persistent: false }, (event) => {
        announcer.heard();
        // Removed or replaced: the watch followed the old file, so watch the path again.
        if (event === 'rename' && !closed) {
          stopWatching();
          startWatching();
        }
      });
      watcher.on('error', fallBackToStat);
    } catch (error) {
      fallBackToStat(error as Error);
    }
  };
  startWatching();

  return {
    live: true,
    poll() {
      if (watcher) return;
      const version = markerVersion(marker);
      if (version === seen) return;
      seen = version;
      announcer.heard();
    },
    subscribe: (listener) => announcer.subscribe(listener),
    close: async () => {
      closed = true;
      stopWatching();
    },
  };
}

function markerVersion(marker: string): string | null {
  const stats = statSync(marker, { bigint: true, throwIfNoEntry: false });
  return stats ? `${stats.mtimeNs}:${stats.ino}:${stats.size}` : null;
}

/**
 * One connection of its own listens; while it is not listening (connecting, lost), `live` is
 * false and the cache keeps nothing, since notifications sent meanwhile are not delivered later.
 */
async function listenOnPostgres(
  url: string,
  announcer: CallerChangeAnnouncer,
  logger: Logger,
): Promise<CallerChangeFeed> {
  let live = false;
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;

  const scheduleReconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, RECONNECT_DELAY_MS);
    retry.unref();
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on('notification', () => announcer.heard());
    next.on('error', (error: Error) => logger.warn({ err: error.message }, 'caller-change listener error'));
    next.on('end', () => {
      if (client !== next) return;
      live = false;
      announcer.heard();
      scheduleReconnect();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      // What changed while nobody listened is unknown: start from nothing.
      announcer.heard();
      live = true;
    } catch (error) {
      logger.warn(
        { err: (error as Error).message },
        'caller-change listener could not connect: keys are read every time',
      );
      client = null;
      await next.end().catch(() => undefined);
      scheduleReconnect();
    }
  };
  await connect();

  return {
    get live() {
      return live;
    },
    poll() {},
    subscribe: (listener) => announcer.subscribe(listener),
    async close() {
      closed = true;
      live = false;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}

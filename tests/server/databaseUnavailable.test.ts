import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../platform/sql/databaseUnavailable.js';
import { openDatabase, POSTGRES_CONNECT_TIMEOUT_MS } from '../../server/db/orm.js';
import { isPostgresTestRun, testDatabaseUrl } from '../support/database.js';
import { freePort } from '../support/privateServers.js';

/**
 * The errors the ORM gives when PostgreSQL cannot be reached, made for real: a port nobody listens
 * on, and one that accepts connections and never answers (a hung server, a network that drops
 * packets). Both must be told from a bug, and neither may hold a request for long.
 */
describe('a database that cannot be reached', () => {
  let silent: Server;
  let silentPort: number;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  const firstQuery = async (port: number) => {
    const orm = await openDatabase({ kind: 'postgresql', url: `postgres://postgres@127.0.0.1:${port}/none` });
    const startedAt = performance.now();
    try {
      await orm.em.getConnection().execute('select 1');
      throw new Error('the query was answered');
    } catch (error) {
      return { error, ms: performance.now() - startedAt };
    } finally {
      await orm.close(true).catch(() => undefined);
    }
  };

  it('refused: told as unavailable at once', async () => {
    const { error, ms } = await firstQuery(await freePort());
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(ms).toBeLessThan(2_000);
  });

  it('silent: told as unavailable once the connection times out, not held for ever', async () => {
    const { error, ms } = await firstQuery(silentPort);
    expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(POSTGRES_CONNECT_TIMEOUT_MS - 100);
    expect(ms).toBeLessThan(POSTGRES_CONNECT_TIMEOUT_MS + 3_000);
  }, 20_000);

  it('a statement refused by the database is not an outage', () => {
    // A statement's error carries its SQL before the driver's text (knex writes "<sql> - <message>").
    expect(isDatabaseUnavailable(new Error('select 1 - value too long for type character varying(30)'))).toBe(false);
    const refused = Object.assign(new Error('value too long for type character varying(30)'), { code: '22001' });
    expect(isDatabaseUnavailable(refused)).toBe(false);
    expect(isDatabaseUnavailable(new Error('Internal server error'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

/**
 * The connection cut while a statement runs (a PostgreSQL that dies without a word, a proxy or a
 * network that drops it): the driver's "Connection terminated unexpectedly", which knex prefixes
 * with the statement. Made for real, through a proxy of the test's own in front of the test run's
 * PostgreSQL, so in the PostgreSQL run only.
 */
describe.skipIf(!isPostgresTestRun())('a connection cut under a statement', () => {
  let proxy: Server;
  const pairs = new Set<{ client: Socket; server: Socket }>();

  beforeAll(async () => {
    const target = new URL(testDatabaseUrl()!);
    proxy = createServer((client) => {
      const server = connect(Number(target.port || 5432), target.hostname);
      const pair = { client, server };
      pairs.add(pair);
      client.pipe(server).pipe(client);
      const forget = () => pairs.delete(pair);
      client.on('close', forget).on('error', () => server.destroy());
      server.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const { client, server } of pairs) {
      client.destroy();
      server.destroy();
    }
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  it('told as unavailable, though the statement comes first in its message', async () => {
    const url = new URL(testDatabaseUrl()!);
    url.host = `127.0.0.1:${(proxy.address() as { port: number }).port}`;
    const orm = await openDatabase({ kind: 'postgresql', url: url.toString() });
    try {
      const running = orm.em.getConnection().execute('select pg_sleep(5)');
      const outcome = running.then(
        () => new Error('the statement was answered'),
        (error: unknown) => error,
      );
      // The statement is on its way: end the client's side as a server that went away would.
      while (pairs.size === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const { client, server } of pairs) {
        server.destroy();
        client.end();
      }
      const error = (await outcome) as Error;
      expect(error.message).toMatch(/^select pg_sleep\(5\) - Connection terminated unexpectedly$/);
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    } finally {
      await orm.close(true).catch(() => undefined);
    }
  });
});

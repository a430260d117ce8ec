import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../platform/sql/databaseUnavailable.js';
import { openDatabase, POSTGRES_CONNECT_TIMEOUT_MS } from '../../server/db/orm.js';
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
    const refused = Object.assign(new Error('value too long for type character varying(30)'), { code: '22001' });
    expect(isDatabaseUnavailable(refused)).toBe(false);
    expect(isDatabaseUnavailable(new Error('Internal server error'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

/**
 * Keys and their providers are kept between requests (graphql/providers/callerCache.ts), and a
 * change made anywhere takes effect at the next request: in this process, and in another one on
 * the same database (a second ORM, as the CLI or a second server process opens it).
 */
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { revokeApiKey } from '../../graphql/providers/apiKeys.js';
import { CallerCache, type CallerChanges } from '../../graphql/providers/callerCache.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { createSandbox } from '../../graphql/providers/sandbox.js';
import { markerPathOf, watchCallerChanges } from '../../server/db/callerChanges.js';
import { openDatabase } from '../../server/db/orm.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { aProvider } from '../support/fixtures.js';

function fakeChanges(live = true): CallerChanges & { fire(): void; live: boolean } {
  const listeners = new Set<() => void>();
  return {
    live,
    poll() {},
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fire() {
      for (const listener of listeners) listener();
    },
  };
}

describe('the caller cache', () => {
  it('keeps a row read before any change, and forgets everything at a change', () => {
    const changes = fakeChanges();
    const cache = new CallerCache<string>({ changes });
    cache.store('a', 'row a', cache.generation());
    expect(cache.get('a')).toBe('row a');
    changes.fire();
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops a row whose read began before a change and ended after it', () => {
    const changes = fakeChanges();
    const cache = new CallerCache<string>({ changes });
    const before = cache.generation();
    changes.fire();
    cache.store('a', 'row read before the change', before);
    expect(cache.get('a')).toBeUndefined();
    cache.store('a', 'row read after', cache.generation());
    expect(cache.get('a')).toBe('row read after');
  });

  it('keeps nothing while changes could go unheard', () => {
    const changes = fakeChanges(false);
    const cache = new CallerCache<string>({ changes });
    cache.store('a', 'row a', cache.generation());
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('forgets a row after its time limit, and the oldest row when full', () => {
    let now = 1_000;
    const cache = new CallerCache<string>({ changes: fakeChanges(), ttlMs: 100, maxEntries: 2, now: () => now });
    cache.store('a', 'row a', cache.generation());
    now += 50;
    cache.store('b', 'row b', cache.generation());
    cache.store('c', 'row c', cache.generation());
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'row b', 'row c']);
    now += 100;
    expect(cache.get('b')).toBeUndefined();
  });
});

describe('a key and its provider between requests', () => {
  let database: TestDatabase;
  let testApp: TestApp;
  /** Another process's view of the same database: its own ORM, as the CLI opens it. */
  let elsewhere: MikroORM;

  beforeAll(async () => {
    database = await createTestDatabase({ sqlite: 'file' });
    testApp = await createTestApp({ database });
    elsewhere = await openDatabase(database.databaseConfig);
  }, 60_000);
  afterAll(async () => {
    await elsewhere?.close(true);
    await testApp?.close();
    await database?.destroy();
  });

  const getProvider = (key: string) =>
    request(testApp.app).get('/public/providers/v1/provider').set('Authorization', `Bearer ${key}`);
  const prefixOf = (key: string) => key.split('_').slice(0, 2).join('_');

  /** Another process hears of a change when its notification arrives (PostgreSQL) or its marker's watch fires (SQLite). */
  async function statusSoon(key: string, expected: number): Promise<number> {
    let status = (await getProvider(key)).status;
    for (let attempt = 0; status !== expected && attempt < 40; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await getProvider(key)).status;
    }
    return status;
  }

  /**
   * The fixture's own commits are heard again when their notification (PostgreSQL) or marker
   * event (SQLite) comes back, which may be after the next request read the key: wait until none
   * is still on its way, then start from an empty cache.
   */
  async function afterChangesSettle(): Promise<void> {
    const { callers } = testApp.runtime;
    let seen = callers.generation();
    for (let quiet = 0, waited = 0; quiet < 5 && waited < 100; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = callers.generation();
      quiet = now === seen ? quiet + 1 : 0;
      seen = now;
    }
    callers.clear();
  }

  it('reads a key once, then answers its requests without reading it again', async () => {
    const { apiKey } = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
    await afterChangesSettle();
    const connection = testApp.runtime.orm.em.getConnection();
    const execute = vi.spyOn(connection, 'execute');
    try {
      for (let index = 0; index < 3; index += 1) expect((await getProvider(apiKey)).status).toBe(200);
      const lookups = execute.mock.calls.filter(([sql]) => String(sql).includes('from api_key k'));
      expect(lookups).toHaveLength(1);
    } finally {
      execute.mockRestore();
    }
  });

  it('still checks the secret of a kept key on every request', async () => {
    const { apiKey } = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
    expect((await getProvider(apiKey)).status).toBe(200);
    const wrongSecret = apiKey.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    expect((await getProvider(wrongSecret)).status).toBe(401);
  });

  it('refuses a key revoked in this process at its next request', async () => {
    const { apiKey } = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
    expect((await getProvider(apiKey)).status).toBe(200);
    await revokeApiKey(testApp.database.orm.em.fork(), testApp.clock, prefixOf(apiKey));
    expect((await getProvider(apiKey)).status).toBe(401);
  });

  it('refuses a key revoked by another process', async () => {
    const { apiKey } = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
    expect((await getProvider(apiKey)).status).toBe(200);
    await revokeApiKey(elsewhere.em.fork(), testApp.clock, prefixOf(apiKey));
    expect(await statusSoon(apiKey, 401)).toBe(401);
  });

  it("answers 403 once another process deactivates the key's provider, and shows its new name", async () => {
    const sandbox = await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test');
    expect((await getProvider(sandbox.apiKey)).body.name).toBe('Demo Ticketing');

    const em = elsewhere.em.fork();
    const provider = await em.findOneOrFail(Provider, sandbox.provider.id);
    provider.name = 'Renamed elsewhere';
    await em.flush();
    let body = (await getProvider(sandbox.apiKey)).body;
    for (let attempt = 0; body.name !== 'Renamed elsewhere' && attempt < 40; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      body = (await getProvider(sandbox.apiKey)).body;
    }
    expect(body.name).toBe('Renamed elsewhere');

    provider.isActive = false;
    await em.flush();
    expect(await statusSoon(sandbox.apiKey, 403)).toBe(403);
  });

  it('hears of a change made inside a transaction once it commits', async () => {
    const { apiKey } = await aProvider(testApp.database.orm.em.fork(), testApp.clock);
    expect((await getProvider(apiKey)).status).toBe(200);
    await testApp.database.orm.em.fork().transactional(async (em) => {
      await revokeApiKey(em, testApp.clock, prefixOf(apiKey));
    });
    expect((await getProvider(apiKey)).status).toBe(401);
  });
});

describe('the marker beside a SQLite file', () => {
  const directory = mkdtempSync(join(tmpdir(), 'caller-marker-'));
  const database = { kind: 'sqlite' as const, path: join(directory, 'watched.sqlite') };
  const marker = markerPathOf(database) as string;
  let orm: MikroORM;
  afterAll(async () => {
    await orm?.close(true);
    rmSync(directory, { recursive: true, force: true });
  });

  /** Resolves with true once `listener` has been called, false after a second. */
  function heardWithin(changes: { subscribe(listener: () => void): () => void }): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(false), 1_000);
      const stop = changes.subscribe(() => finish(true));
      function finish(heard: boolean) {
        clearTimeout(timer);
        stop();
        resolve(heard);
      }
    });
  }

  it('is watched: a change written by another process is heard without a lookup, even after the file was removed', async () => {
    orm = await openDatabase(database);
    const changes = await watchCallerChanges(orm, pino({ level: 'silent' }));
    try {
      const first = heardWithin(changes);
      writeFileSync(marker, 'another process changed a key');
      expect(await first).toBe(true);

      // Removed, then written again as a new file: the watch follows the path, not the old file.
      const removed = heardWithin(changes);
      unlinkSync(marker);
      expect(await removed).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const recreated = heardWithin(changes);
      writeFileSync(marker, 'and another change');
      expect(await recreated).toBe(true);

      // Nothing written: nothing heard.
      expect(await heardWithin(changes)).toBe(false);
    } finally {
      await changes.close();
    }
  });
});

import { once } from 'node:events';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiKey } from '../../graphql/providers/ApiKey.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { Venue } from '../../graphql/providers/Venue.js';
import {
  parseJsonLine,
  type ServerProcess,
  sleep,
  STARTUP_TIMEOUT_MS,
  STOP_TIMEOUT_MS,
  withTimeout,
} from '../support/serverProcess.js';
import { useServerRuns } from './serverRuns.js';

/**
 * The real process, as `npm start` runs it: `node dist/server/main.js`, on a database of its own
 * (a temporary SQLite file, or a fresh PostgreSQL database with TEST_DATABASE_URL), on a free
 * port (PORT=0: the port is read from the 'listening' log line).
 */

/** A request whose body arrives in two parts, so that it is in flight for as long as the test wants. */
async function requestInTwoParts(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
) {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let received = '';
  const dataListeners = new Set<() => void>();
  socket.on('data', (chunk: string) => {
    received += chunk;
    for (const listener of dataListeners) listener();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  await withTimeout(once(socket, 'connect'), 5_000, () => `connecting to port ${port}`);
  const head = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    // Node answers "100 Continue" once it has read the headers and handed the request to the app.
    'Expect: 100-continue',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
  const half = Math.floor(body.length / 2);
  socket.write(head + body.slice(0, half));
  await withTimeout(
    new Promise<void>((resolve) => {
      const listener = () => {
        if (received.startsWith('HTTP/1.1 100')) resolve();
      };
      dataListeners.add(listener);
      listener();
    }),
    5_000,
    () => `the server to accept the request (received ${JSON.stringify(received)})`,
  );
  return {
    finish(): void {
      socket.write(body.slice(half));
    },
    async answer(): Promise<{ status: number; headers: string; body: unknown }> {
      await withTimeout(closed, 10_000, () => `the answer (received so far ${JSON.stringify(received)})`);
      const response = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const separator = response.indexOf('\r\n\r\n');
      expect(separator, `a complete HTTP answer: ${JSON.stringify(received)}`).toBeGreaterThan(0);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
      const text = response.slice(separator + 4);
      return { status, headers: response.slice(0, separator), body: text ? JSON.parse(text) : undefined };
    },
    destroy(): void {
      socket.destroy();
    },
  };
}

async function connectionRefused(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await withTimeout(once(socket, 'connect'), 3_000, () => `connecting to port ${port}`);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  } finally {
    socket.destroy();
  }
}

/** The log line comes just before the listening socket closes, so this tries for a little while. */
async function refusesConnectionsSoon(port: number, withinMs = 3_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await connectionRefused(port)) return true;
    await sleep(50);
  }
  return false;
}

const API_KEY_PATTERN = /^[a-z]+_[0-9a-f]{12}_[0-9a-f]{64}$/;

describe('the server process (node dist/server/main.js)', () => {
  const runs = useServerRuns('provider-platform-process-');
  const { projectRoot } = runs;

  let apiKey = '';
  let messagingSecret = '';
  let providerId = 0;
  let firstRun: ServerProcess;
  let secondRun: ServerProcess;
  let thirdRun: ServerProcess;

  async function startServer(): Promise<ServerProcess> {
    const server = await runs.start(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {});
    const listening = server.jsonLines.find((line) => line.msg === 'listening')!;
    expect(listening.database).toBe(runs.databaseConfig.kind);
    return server;
  }

  const get = (server: ServerProcess, path: string, key?: string) =>
    fetch(`${server.baseUrl}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });

  const graphql = (server: ServerProcess, key: string, query: string) =>
    fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query }),
    });

  /**
   * Sends a request whose body comes in two parts, stops the server with SIGTERM while it is in
   * flight, and sends the rest a second after the signal (a slow client). `meanwhile` runs once the
   * server has said it is shutting down. Resolves with the answer and the exit that follows it.
   */
  async function answerInFlightAtSigterm(
    server: ServerProcess,
    request: { method: string; path: string; body: string },
    meanwhile: () => Promise<void> = async () => {},
  ) {
    const inFlight = await requestInTwoParts(
      server.port,
      request.method,
      request.path,
      { Authorization: `Bearer ${apiKey}` },
      request.body,
    );
    try {
      server.child.kill('SIGTERM');
      await server.logged('shutting down: finishing in-flight requests', 5_000);
      await meanwhile();
      await sleep(1_000);
      expect(server.exit).toBeNull();
      inFlight.finish();
      const answer = await inFlight.answer();
      const exit = await server.waitForExit(STOP_TIMEOUT_MS, 'after SIGTERM and the last answer');
      return { answer, exit };
    } finally {
      inFlight.destroy();
    }
  }

  beforeAll(async () => {
    firstRun = await startServer();
  }, STARTUP_TIMEOUT_MS + 10_000);

  describe('first start, on an empty database', () => {
    it('prints the demo key, the messaging secret and a curl command, once', () => {
      const keyLines = firstRun.lines.filter((line) => line.startsWith('Demo API key: '));
      expect(keyLines, firstRun.output()).toHaveLength(1);
      apiKey = keyLines[0].slice('Demo API key: '.length);
      expect(apiKey).toMatch(API_KEY_PATTERN);

      const secretLines = firstRun.lines.filter((line) => line.startsWith('Demo messaging secret: '));
      expect(secretLines).toHaveLength(1);
      messagingSecret = secretLines[0].slice('Demo messaging secret: '.length);
      expect(messagingSecret).toMatch(/^[0-9a-f]{64}$/);

      const curlLines = firstRun.lines.filter((line) => line.includes('curl '));
      expect(curlLines).toHaveLength(1);
      expect(curlLines[0]).toContain(`curl -H "Authorization: Bearer ${apiKey}" http://`);
      expect(curlLines[0]).toMatch(/\/public\/providers\/v1\/provider$/);
    });

    it('answers GET /public/providers/v1/provider with the printed key, and 401 JSON without one', async () => {
      const response = await get(firstRun, '/public/providers/v1/provider', apiKey);
      expect(response.status).toBe(200);
      const provider = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(provider).sort()).toEqual([
        'bookingUrl',
        'cancelUrl',
        'id',
        'logoUrl',
        'name',
        'notificationUrl',
      ]);
      expect(provider).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
      providerId = provider.id as number;

      const anonymous = await get(firstRun, '/public/providers/v1/provider');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await anonymous.json()).toEqual({ auth: 'API key required' });
    });

    it('serves the portal, the OpenAPI document and /graphql on the same port', async () => {
      const home = await get(firstRun, '/');
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await home.text()).toContain('<title>API documentation</title>');

      const unknownPage = await get(firstRun, '/no/such/page');
      expect(unknownPage.status).toBe(404);
      expect(unknownPage.headers.get('content-type')).toMatch(/^text\/html/);

      const openApi = await get(firstRun, '/openapi.json');
      expect(openApi.status).toBe(200);
      const document = (await openApi.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(document.openapi).toBe('3.1.0');
      expect(document.paths['/public/providers/v1/provider']).toBeDefined();

      const response = await graphql(firstRun, apiKey, '{ provider { id name venues { id siret } } }');
      expect(response.status).toBe(200);
      const { data, errors } = (await response.json()) as {
        data: { provider: { id: number; name: string; venues: { id: number; siret: string | null }[] } };
        errors?: unknown;
      };
      expect(errors).toBeUndefined();
      expect(data.provider.id).toBe(providerId);
      expect(data.provider.venues).toHaveLength(3);
      const sirets = data.provider.venues.map((venue) => venue.siret);
      expect(sirets.filter((siret) => siret !== null && /^\d{14}$/.test(siret))).toHaveLength(2);
      expect(sirets.filter((siret) => siret === null)).toHaveLength(1);
    });

    it('finishes a request in flight on SIGTERM, refuses new connections, then logs "stopped" and exits 0', async () => {
      // Requests that could tempt a log line into showing the key.
      await get(firstRun, `/public/providers/v1/provider?api_key=${apiKey}`, apiKey);
      await get(firstRun, '/public/nothing', apiKey);
      await get(
        firstRun,
        '/public/providers/v1/provider',
        apiKey.replace(/.$/, (last) => (last === '0' ? '1' : '0')),
      );

      const { answer, exit } = await answerInFlightAtSigterm(
        firstRun,
        {
          method: 'GET',
          path: '/public/providers/v1/provider',
          body: JSON.stringify({ note: 'a body sent slowly keeps this request in flight' }),
        },
        async () => expect(await refusesConnectionsSoon(firstRun.port)).toBe(true),
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id: providerId, name: 'Demo Ticketing' });
      expect(exit).toEqual({ code: 0, signal: null });
      const messages = firstRun.jsonLines.map((line) => line.msg);
      expect(messages.indexOf('stopped')).toBeGreaterThan(
        messages.indexOf('shutting down: finishing in-flight requests'),
      );
      expect(messages.at(-1), firstRun.lines.slice(-6).join('\n')).toBe('stopped');
    });

    it('never writes the key or the messaging secret in a log line', () => {
      expect(firstRun.exit).not.toBeNull();
      const secret = apiKey.split('_')[2];
      const prefix = apiKey.split('_').slice(0, 2).join('_');
      // The check means something only if requests made with the key were logged.
      const keyedRequests = firstRun.jsonLines.filter((line) => line.msg === 'request' && line.apiKeyPrefix === prefix);
      expect(keyedRequests.length).toBeGreaterThanOrEqual(4);

      for (const line of firstRun.lines) {
        if (parseJsonLine(line) === undefined) continue;
        expect(line).not.toContain(secret);
        expect(line).not.toContain(messagingSecret);
      }
      // Only the lines printed on purpose, at start-up, show them.
      expect(firstRun.lines.filter((line) => line.includes(secret))).toEqual([
        `Demo API key: ${apiKey}`,
        expect.stringMatching(/^Try it: curl /),
      ]);
      expect(firstRun.lines.filter((line) => line.includes(messagingSecret))).toEqual([
        `Demo messaging secret: ${messagingSecret}`,
      ]);
      expect(firstRun.stderr).not.toContain(secret);
      expect(firstRun.stderr).not.toContain(messagingSecret);
    });
  });

  describe('restart on the same database', () => {
    beforeAll(async () => {
      secondRun = await startServer();
    }, STARTUP_TIMEOUT_MS + 10_000);

    it('creates nothing, shows no key and says how to issue another one', () => {
      expect(secondRun.lines.filter((line) => line.startsWith('Demo API key'))).toEqual([]);
      expect(secondRun.lines.filter((line) => line.startsWith('Demo messaging secret'))).toEqual([]);
      expect(secondRun.lines.filter((line) => line.includes('curl '))).toEqual([]);
      expect(secondRun.lines).toContainEqual(
        expect.stringMatching(/Issue another key with: npm run cli -- create-key/),
      );
      expect(secondRun.jsonLines.filter((line) => line.msg === 'migrations applied')).toEqual([]);
    });

    it('still accepts the first key, for the same provider and its three venues', async () => {
      const response = await get(secondRun, '/public/providers/v1/provider', apiKey);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: providerId, name: 'Demo Ticketing' });

      const venues = await graphql(secondRun, apiKey, '{ provider { id venues { id } } }');
      const { data } = (await venues.json()) as { data: { provider: { id: number; venues: unknown[] } } };
      expect(data.provider.id).toBe(providerId);
      expect(data.provider.venues).toHaveLength(3);
    });

    // Regression: Apollo Server's own SIGTERM handler once raced main's, and a second stop()
    // during Apollo's never resolved, so an idle process never exited.
    it('stops within seconds on SIGTERM when idle: logs "stopped" and exits 0', async () => {
      const exit = await secondRun.stop('SIGTERM', 5_000);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(secondRun.jsonLines.at(-1)?.msg, secondRun.lines.slice(-6).join('\n')).toBe('stopped');
    }, 20_000);
  });

  describe('a third start', () => {
    beforeAll(async () => {
      // The idle stop above may have left the second process to be killed.
      await secondRun?.kill();
      thirdRun = await startServer();
    }, STARTUP_TIMEOUT_MS + 20_000);

    // Regression: /graphql answers once carried stack traces (server file paths) under npm start.
    it('answers /graphql errors without stack traces', async () => {
      const notFound = await graphql(thirdRun, apiKey, '{ provider(id: 999999) { id } }');
      const notFoundBody = (await notFound.json()) as { errors: { extensions: Record<string, unknown> }[] };
      expect(notFoundBody.errors[0].extensions.code).toBe('NOT_FOUND');
      const invalid = await graphql(thirdRun, apiKey, '{ noSuchField }');
      expect(invalid.status).toBe(400);
      const invalidBody = (await invalid.json()) as { errors: { extensions: Record<string, unknown> }[] };
      for (const body of [notFoundBody, invalidBody]) {
        expect(body.errors[0].extensions.stacktrace).toBeUndefined();
        expect(JSON.stringify(body)).not.toContain(projectRoot);
      }
    });

    // Regression: Apollo's own SIGTERM handler stopped the graph at once, answering 500 to a
    // /graphql request in flight.
    it('finishes a /graphql request in flight on SIGTERM, then exits 0', async () => {
      const { answer, exit } = await answerInFlightAtSigterm(thirdRun, {
        method: 'POST',
        path: '/graphql',
        body: JSON.stringify({ query: '{ provider { id name } }' }),
      });
      expect(answer.body).toMatchObject({
        data: { provider: { id: providerId, name: 'Demo Ticketing' } },
        extensions: { cost: { requested: 1 } },
      });
      expect(answer.status).toBe(200);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(thirdRun.jsonLines.at(-1)?.msg, thirdRun.lines.slice(-8).join('\n')).toBe('stopped');
    }, 30_000);
  });

  describe('after every run', () => {
    it('the database holds the one demo provider, its one key and its three venues', async () => {
      await runs.killAll();
      await runs.readDatabase(async (em) => {
        const providers = await em.find(Provider, {});
        expect(providers.map((provider) => provider.id)).toEqual([providerId]);
        expect(await em.count(ApiKey, {})).toBe(1);
        expect(await em.count(Venue, {})).toBe(3);
        const [stored] = await em.find(ApiKey, {});
        expect(apiKey.startsWith(`${stored.prefix}_`)).toBe(true);
        expect(stored.secretHash).not.toContain(apiKey.split('_')[2]);
      });
    });
  });
});

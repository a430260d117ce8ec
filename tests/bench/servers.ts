import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface Listening {
  origin: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, on a port the system picks. */
export function listen(app: Express): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(0, '127.0.0.1');
    server.once('error', reject);
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            // Requests still in flight when a run ends finish before the database closes under them.
            server.close((error) => (error ? fail(error) : done()));
            server.closeIdleConnections();
          }),
      });
    });
  });
}

export interface Probe {
  label: string;
  url: string;
}

/**
 * Before any load: each contender answers the key with 200 and the same body, and refuses a
 * missing and a wrong key with 401. Throws, naming the difference, otherwise.
 */
export async function verifySameAnswers(probes: Probe[], apiKey: string): Promise<string> {
  const bodies: string[] = [];
  for (const probe of probes) {
    const ok = await fetch(probe.url, { headers: { authorization: `Bearer ${apiKey}` } });
    const body = await ok.text();
    if (ok.status !== 200) throw new Error(`${probe.label} answered ${ok.status} to the key: ${body}`);
    bodies.push(body);

    const wrongKey = apiKey.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    for (const [what, headers] of [
      ['no key', {}],
      ['a wrong key', { authorization: `Bearer ${wrongKey}` }],
    ] as const) {
      const refused = await fetch(probe.url, { headers });
      await refused.arrayBuffer();
      if (refused.status !== 401) throw new Error(`${probe.label} answered ${refused.status} to ${what}, expected 401`);
    }
  }
  const [first, ...others] = bodies;
  others.forEach((body, index) => {
    if (body !== first) {
      throw new Error(`bodies differ:\n  ${probes[0].label}: ${first}\n  ${probes[index + 1].label}: ${body}`);
    }
  });
  return first;
}

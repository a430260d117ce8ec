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

interface Answer {
  status: number;
  contentType: string | null;
  body: string;
}

async function answerOf(url: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(url, { headers });
  return { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
}

/** Where two bodies part, with some context on both sides: enough to find the field. */
export function firstDifference(left: string, right: string, context = 120): string {
  let at = 0;
  while (at < left.length && at < right.length && left[at] === right[at]) at += 1;
  const from = Math.max(0, at - context);
  const excerpt = (text: string) =>
    `${from > 0 ? '...' : ''}${text.slice(from, at + context)}${at + context < text.length ? '...' : ''}`;
  return `at character ${at} of ${left.length} and ${right.length}:\n    ${excerpt(left)}\n    ${excerpt(right)}`;
}

/**
 * Before any load: every contender answers the key with 200, and a missing and a wrong key with
 * 401, each with the same content type and byte for byte the same body as the first contender.
 * Throws, naming the difference, otherwise. Returns the 200 body.
 */
export async function verifySameAnswers(probes: Probe[], apiKey: string): Promise<string> {
  const wrongKey = apiKey.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
  const cases: { what: string; status: number; headers: Record<string, string> }[] = [
    { what: 'the key', status: 200, headers: { authorization: `Bearer ${apiKey}` } },
    { what: 'no key', status: 401, headers: {} },
    { what: 'a wrong key', status: 401, headers: { authorization: `Bearer ${wrongKey}` } },
  ];
  let body = '';
  for (const { what, status, headers } of cases) {
    const answers: Answer[] = [];
    for (const probe of probes) {
      const answer = await answerOf(probe.url, headers);
      if (answer.status !== status) {
        throw new Error(
          `${probe.label} GET ${probe.url} answered ${answer.status} to ${what}, expected ${status}: ${answer.body.slice(0, 500)}`,
        );
      }
      answers.push(answer);
    }
    const [first, ...others] = answers;
    others.forEach((answer, index) => {
      const label = probes[index + 1].label;
      if (answer.contentType !== first.contentType) {
        throw new Error(
          `${what}: content types differ: ${probes[0].label} ${first.contentType}, ${label} ${answer.contentType}`,
        );
      }
      if (answer.body !== first.body) {
        throw new Error(
          `${what}: bodies differ (${probes[0].label}, then ${label}) ${firstDifference(first.body, answer.body)}`,
        );
      }
    });
    if (status === 200) body = first.body;
  }
  return body;
}

import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runFuzz } from './runner.js';
import { openWorld, type Topology } from './world.js';

/**
 * The REST answers are the same, byte for byte, whether the subgraphs run in the API process or as
 * services behind it (issue 21): the fuzzer's sequence of a fixed seed (every operation, valid and
 * mutated requests, reads after writes, sandbox bookings) sent to each topology on a database of its
 * own, every answer recorded. Only what is drawn at random differs (countermarks, image names): each
 * is replaced by its rank of appearance.
 */
const SEED = 21;
const REQUESTS = 400;

async function transcriptOf(topology: Topology): Promise<string[]> {
  const world = await openWorld(topology);
  const transcript: string[] = [];
  const send = world.send.bind(world);
  world.send = async (request) => {
    const answer = await send(request);
    transcript.push(`${request.method.toUpperCase()} ${request.path} -> ${answer.status} ${answer.text}`);
    return answer;
  };
  const graphql = world.graphql.bind(world);
  world.graphql = async (query, variables) => {
    const answer = await graphql(query, variables);
    // Its extensions say when the rate-limit window ends, on the wall clock: the rest must agree.
    transcript.push(`GRAPHQL ${JSON.stringify(variables)} -> ${JSON.stringify({ ...answer, extensions: undefined })}`);
    return answer;
  };
  try {
    const report = await runFuzz({ seed: SEED, requests: REQUESTS }, world);
    expect(report.failures.map((failure) => `${failure.kind} ${failure.operationId}: ${failure.detail}`)).toEqual([]);
  } finally {
    await world.close();
  }
  return withRandomNamesRanked(transcript);
}

const IMAGE_NAME = /\/images\/([0-9a-f-]{36})\./g;

/** Countermarks and image names are drawn at random: each becomes its rank of appearance. */
function withRandomNamesRanked(lines: string[]): string[] {
  const ranks = new Map<string, string>();
  const rank = (name: string, kind: string) => {
    if (!ranks.has(name)) ranks.set(name, `<${kind} ${ranks.size + 1}>`);
  };
  for (const line of lines) {
    for (const [, token] of line.matchAll(/"token":"([A-Z0-9]+)"/g)) rank(token, 'countermark');
    for (const [, image] of line.matchAll(IMAGE_NAME)) rank(image, 'image');
  }
  return lines.map((line) => line.replace(/[0-9a-f-]{36}|[A-Z0-9]{6,}/g, (word) => ranks.get(word) ?? word));
}

describe('the REST API in both topologies', () => {
  it(`answers the same bytes to the same ${REQUESTS} requests (fuzzer seed ${SEED})`, async () => {
    const inProcess = await transcriptOf('in-process');
    const services = await transcriptOf('subgraph-services');
    // PARITY_DUMP=/tmp/parity writes both transcripts, for a diff when they part.
    if (process.env.PARITY_DUMP) {
      writeFileSync(`${process.env.PARITY_DUMP}.in-process`, inProcess.join('\n'));
      writeFileSync(`${process.env.PARITY_DUMP}.services`, services.join('\n'));
    }
    expect(inProcess.length).toBeGreaterThan(REQUESTS);
    for (let index = 0; index < inProcess.length; index += 1) {
      expect(services[index], `answer ${index + 1}`).toBe(inProcess[index]);
    }
    expect(services).toHaveLength(inProcess.length);
  }, 300_000);
});

import { contractViolation, type DocumentedOperation, operations } from './document.js';
import { aMutation, applyMutation, describeMutation, type Mutation } from './mutations.js';
import { Random } from './random.js';
import { checkReadBack, editedResourceRead } from './readBack.js';
import { type FuzzRequest, type ReferenceData, restartUniqueNames, toSent, validRequest } from './requests.js';
import { shrink } from './shrink.js';
import { type Answer, FUZZ_NOW, openWorld, type Pools, type SentRequest, type World } from './world.js';

export interface FuzzOptions {
  seed: number;
  requests: number;
  /** How likely a request carries one mutation (the rest are valid as generated). */
  mutationRate?: number;
  /** Called every so often with the requests done, for a progress line. */
  onProgress?: (done: number) => void;
  /** Asked before each request: true ends the run there, with the report of what was done. */
  shouldStop?: () => boolean;
}

export type FailureKind = 'server-error' | 'contract' | 'refused-request-wrote' | 'read-after-write' | 'no-answer';

export interface Failure {
  kind: FailureKind;
  operationId: string;
  detail: string;
  /** The step of the run where it happened: the run with the same seed meets it there again. */
  step: number;
  mutation: string | null;
  /** The smallest request found that still fails the same way, as a command line. */
  reproduction: string;
}

export interface FuzzReport {
  seed: number;
  engine: string;
  requests: number;
  /** Every HTTP request sent: the fuzzed ones, the reads after writes, the sandbox's bookings. */
  httpRequests: number;
  seconds: number;
  requestsPerSecond: number;
  statuses: Record<string, number>;
  byOperation: Record<string, Record<string, number>>;
  /** Time spent on each operation's requests (and their checks), in milliseconds. */
  millisByOperation: Record<string, number>;
  mutated: number;
  failures: Failure[];
  /** Failures beyond the first of each kind and operation: counted, not shrunk. */
  repeatedFailures: number;
}

export interface Outcome {
  answer: Answer | null;
  failure: { kind: FailureKind; detail: string } | null;
}

const WRITE_METHODS = new Set(['post', 'patch', 'put', 'delete']);

/**
 * Sends one request and holds its answer to the properties: never a 5xx; a status the document
 * declares for the operation, with a body that fits; a refusal writes nothing (every table keeps
 * its row count); a success shows in the read that follows it.
 */
export async function exercise(
  world: World,
  operation: DocumentedOperation,
  request: FuzzRequest,
  counter: { http: number },
): Promise<Outcome> {
  const before = await world.rowCounts();
  const send = (read: SentRequest) => {
    counter.http += 1;
    return world.send(read);
  };
  // An edit refused must leave the resource as it was: row counts cannot see a half-made update.
  const resourceRead = operation.method === 'patch' ? editedResourceRead(request) : null;
  const resourceBefore = resourceRead ? await send(resourceRead) : null;
  let answer: Answer;
  try {
    counter.http += 1;
    answer = await world.send(toSent(operation, request));
  } catch (error) {
    return { answer: null, failure: { kind: 'no-answer', detail: String(error) } };
  }
  if (answer.status >= 500)
    return { answer, failure: { kind: 'server-error', detail: `${answer.status} ${answer.text.slice(0, 300)}` } };
  const violation = contractViolation(operation, answer.status, answer.body, answer.text);
  if (violation) return { answer, failure: { kind: 'contract', detail: violation } };
  if (answer.status >= 400) {
    const after = await world.rowCounts();
    const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
    if (changed.length > 0) {
      const detail = changed.map((table) => `${table} ${before[table]} -> ${after[table]}`).join(', ');
      return {
        answer,
        failure: { kind: 'refused-request-wrote', detail: `answered ${answer.status} but wrote rows: ${detail}` },
      };
    }
    if (resourceRead && resourceBefore?.status === 200) {
      const resourceAfter = await send(resourceRead);
      if (resourceAfter.text !== resourceBefore.text)
        return {
          answer,
          failure: {
            kind: 'refused-request-wrote',
            detail: `answered ${answer.status} but changed the resource: ${firstDifference(resourceBefore.text, resourceAfter.text)}`,
          },
        };
    }
    return { answer, failure: null };
  }
  if (WRITE_METHODS.has(operation.method)) {
    const problem = await checkReadBack(request, answer, send);
    if (problem) return { answer, failure: { kind: 'read-after-write', detail: problem } };
  }
  return { answer, failure: null };
}

/** Where two texts first differ, with a little of each. */
function firstDifference(before: string, after: string): string {
  let index = 0;
  while (index < before.length && before[index] === after[index]) index += 1;
  const from = Math.max(0, index - 40);
  return `…${before.slice(from, index + 60)}… became …${after.slice(from, index + 60)}…`;
}

/** What a success adds to the resources later requests may name. */
function remember(pools: Pools, request: FuzzRequest, answer: Answer): void {
  const body = answer.body as Record<string, unknown> | undefined;
  const id = typeof body?.id === 'number' ? body.id : null;
  const ids = (list: unknown) => (Array.isArray(list) ? list.map((entry) => (entry as { id: number }).id) : []);
  const eventId = Number(request.params.event_id);
  switch (request.operationId) {
    case 'PostEventOffer':
      if (id) pools.eventIds.push(id);
      for (const category of ids(body?.priceCategories))
        pools.priceCategoryIds.set(id!, [...(pools.priceCategoryIds.get(id!) ?? []), category]);
      break;
    case 'PostProductOffer':
      if (id) pools.productIds.push(id);
      break;
    case 'PostEventPriceCategories':
      pools.priceCategoryIds.set(eventId, [
        ...(pools.priceCategoryIds.get(eventId) ?? []),
        ...ids(body?.priceCategories),
      ]);
      break;
    case 'PostEventStocks':
      pools.stockIds.set(eventId, [...(pools.stockIds.get(eventId) ?? []), ...ids(body?.dates)]);
      break;
    case 'CreateAddress':
      if (id && !pools.addressIds.includes(id)) pools.addressIds.push(id);
      break;
    case 'PostCollectiveOfferPublic':
      if (id) pools.collectiveOfferIds.push(id);
      break;
    case 'AdageMockBookOffer':
      if (id) pools.collectiveBookingIds.push(id);
      break;
  }
}

const SANDBOX_BOOK = `mutation Book($input: SandboxBookingInput!) { sandboxBook(input: $input) { token } }`;

/** A beneficiary books a date of one of the fuzzer's events, so that bookings' operations meet real tokens. */
async function book(world: World, random: Random, counter: { http: number }): Promise<void> {
  const events = [...world.pools.stockIds.entries()].filter(([, stocks]) => stocks.length > 0);
  if (events.length === 0) return;
  const [, stocks] = random.pick(events);
  await drainJobs(world);
  counter.http += 1;
  const answer = await world.graphql(SANDBOX_BOOK, { input: { stockId: random.pick(stocks), quantity: 1 } });
  const token = answer.data?.sandboxBook?.token;
  if (typeof token === 'string') world.pools.bookingTokens.push(token);
}

function drainJobs(world: World): Promise<void> {
  return world.drainJobs();
}

async function referenceData(world: World): Promise<ReferenceData> {
  const list = async (path: string) => (await world.send({ method: 'get', path })).body as any;
  const domains = await list('/v2/collective/educational-domains');
  const levels = await list('/v2/collective/student-levels');
  const institutions = await list('/v2/collective/educational-institutions/');
  return {
    domainIds: (Array.isArray(domains) ? domains : []).map((domain: { id: number }) => domain.id),
    studentLevelIds: (Array.isArray(levels) ? levels : []).map((level: { id: string }) => level.id),
    institutionIds: (Array.isArray(institutions) ? institutions : [])
      .map((institution: { id: number }) => institution.id)
      .slice(0, 5),
  };
}

/** How often each operation is chosen: writes, which make the sequences, more than reads. */
const weightOf = (operation: DocumentedOperation) =>
  operation.method === 'get'
    ? 1
    : operation.method === 'delete'
      ? 1.5
      : operation.path.includes('adage_mock')
        ? 1.5
        : 3;

/** Creations that make the resources the other operations name: the run starts with them. */
const SEEDING = [
  'CreateAddress',
  'PostEventOffer',
  'PostEventPriceCategories',
  'PostEventStocks',
  'PostProductOffer',
  'PostCollectiveOfferPublic',
];

export async function runFuzz(options: FuzzOptions, openedWorld?: World): Promise<FuzzReport> {
  const world = openedWorld ?? (await openWorld());
  const random = new Random(options.seed);
  restartUniqueNames();
  const mutationRate = options.mutationRate ?? 0.6;
  const counter = { http: 0 };
  const statuses: Record<string, number> = {};
  const byOperation: Record<string, Record<string, number>> = {};
  const millisByOperation: Record<string, number> = {};
  const failures: Failure[] = [];
  const seen = new Set<string>();
  let repeatedFailures = 0;
  let mutated = 0;
  let done = 0;
  const weighted = operations.map((operation) => [operation, weightOf(operation)] as const);
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const started = performance.now();
  try {
    const reference = await referenceData(world);
    for (let step = 0; step < options.requests && !options.shouldStop?.(); step += 1) {
      done = step + 1;
      if (step > 0 && step % 50 === 0) await drainJobs(world);
      if (step % 25 === 24) await book(world, random, counter);
      const operation =
        step < SEEDING.length * 3 ? byId.get(SEEDING[Math.floor(step / 3)])! : random.weighted(weighted);
      let request = validRequest(operation, world.pools, reference, random, FUZZ_NOW);
      let mutation: Mutation | null = null;
      if (step >= SEEDING.length * 3 && random.chance(mutationRate)) {
        mutation = aMutation(operation, request, random);
        if (mutation) {
          request = applyMutation(request, mutation);
          mutated += 1;
        }
      }
      const sentAt = performance.now();
      const outcome = await exercise(world, operation, request, counter);
      millisByOperation[operation.operationId] =
        (millisByOperation[operation.operationId] ?? 0) + performance.now() - sentAt;
      const status = outcome.answer ? String(outcome.answer.status) : 'none';
      statuses[status] = (statuses[status] ?? 0) + 1;
      (byOperation[operation.operationId] ??= {})[status] = (byOperation[operation.operationId][status] ?? 0) + 1;
      if (outcome.answer && outcome.answer.status < 300) remember(world.pools, request, outcome.answer);
      if (outcome.failure) {
        const signature = `${outcome.failure.kind} ${operation.operationId} ${outcome.failure.detail.replace(/\d+/g, 'N').slice(0, 120)}`;
        if (seen.has(signature)) {
          repeatedFailures += 1;
        } else {
          seen.add(signature);
          const smallest = await shrink(world, operation, request, outcome.failure.kind, counter);
          failures.push({
            kind: outcome.failure.kind,
            operationId: operation.operationId,
            detail: outcome.failure.detail,
            step,
            mutation: mutation ? describeMutation(mutation) : null,
            reproduction: smallest,
          });
        }
      }
      if (options.onProgress && (step + 1) % 1000 === 0) options.onProgress(step + 1);
    }
  } finally {
    if (!openedWorld) await world.close();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    seed: options.seed,
    engine: world.database.engine,
    requests: done,
    httpRequests: counter.http,
    seconds,
    requestsPerSecond: counter.http / seconds,
    statuses,
    byOperation,
    millisByOperation,
    mutated,
    failures,
    repeatedFailures,
  };
}

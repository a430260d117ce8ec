import type { DocumentedOperation } from './document.js';
import { type FuzzRequest, toSent } from './requests.js';
import { exercise, type FailureKind } from './runner.js';
import type { SentRequest, World } from './world.js';

const MAX_TRIES = 80;

/** Text longer than this shows as `"a"×10000` in a report, rather than in full. */
const SHOWN_TEXT = 300;

/**
 * The smallest request that still fails the same way: optional body fields, query parameters and
 * list entries left out one at a time, each kept out while the failure stays. Replayed on the
 * world as it now is (the run's later state), so the request printed reproduces on its own.
 */
export async function shrink(
  world: World,
  operation: DocumentedOperation,
  failing: FuzzRequest,
  kind: FailureKind,
  counter: { http: number },
): Promise<string> {
  let smallest = failing;
  let tries = 0;
  const stillFails = async (candidate: FuzzRequest) => {
    tries += 1;
    const outcome = await exercise(world, operation, candidate, counter);
    return outcome.failure?.kind === kind;
  };
  for (const candidate of candidatesOf(smallest)) {
    if (tries >= MAX_TRIES) break;
    const next = candidate(smallest);
    if (next && (await stillFails(next))) smallest = next;
  }
  return commandLine(world, toSent(operation, smallest));
}

type Candidate = (request: FuzzRequest) => FuzzRequest | null;

/** Ways to make a request smaller, each tried once, from the outside in. */
function candidatesOf(request: FuzzRequest): Candidate[] {
  const candidates: Candidate[] = [];
  for (const name of Object.keys(request.query))
    candidates.push((current) => {
      if (!(name in current.query)) return null;
      const query = { ...current.query };
      delete query[name];
      return { ...current, query };
    });
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body)) {
      candidates.push((current) => withoutPath(current, [key]));
      if (value && typeof value === 'object' && !Array.isArray(value))
        for (const inner of Object.keys(value)) candidates.push((current) => withoutPath(current, [key, inner]));
      if (Array.isArray(value) && value.length > 1)
        candidates.push((current) => {
          const copy = structuredClone(current.body) as Record<string, unknown[]>;
          if (!Array.isArray(copy[key])) return null;
          copy[key] = copy[key].slice(0, 1);
          return { ...current, body: copy };
        });
    }
  }
  return candidates;
}

function withoutPath(request: FuzzRequest, path: string[]): FuzzRequest | null {
  const copy = structuredClone(request.body) as Record<string, unknown>;
  let container: Record<string, unknown> | undefined = copy;
  for (const step of path.slice(0, -1)) container = container?.[step] as Record<string, unknown> | undefined;
  if (!container || typeof container !== 'object' || !(path[path.length - 1] in container)) return null;
  delete container[path[path.length - 1]];
  return { ...request, body: copy };
}

function abbreviated(value: unknown): string {
  return JSON.stringify(value, (_, entry: unknown) =>
    typeof entry === 'string' && entry.length > SHOWN_TEXT
      ? `${JSON.stringify(entry.slice(0, 1))}×${entry.length}`
      : entry,
  );
}

const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request as a curl command (long text abbreviated as `"a"×10000`), its key left as $API_KEY. */
export function commandLine(world: Pick<World, 'baseUrl'>, request: SentRequest): string {
  const url = new URL(request.path, world.baseUrl);
  for (const [name, value] of Object.entries(request.query ?? {}))
    url.searchParams.append(name, value.length > SHOWN_TEXT ? `${value.slice(0, 1)}×${value.length}` : value);
  const parts = [
    `curl -X ${request.method.toUpperCase()}`,
    quoted(`${url.pathname}${url.search}`),
    `-H 'Authorization: Bearer $API_KEY'`,
  ];
  if (request.form) {
    for (const [name, value] of Object.entries(request.form.fields)) parts.push(`-F ${quoted(`${name}=${value}`)}`);
    if (request.form.file) parts.push(`-F ${quoted(`file=@${request.form.file.name};type=${request.form.file.type}`)}`);
  } else if (request.body !== undefined) {
    parts.push(`-H 'Content-Type: application/json'`, `-d ${quoted(abbreviated(request.body))}`);
  }
  return parts.join(' ');
}

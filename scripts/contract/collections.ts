import { createRequire } from 'node:module';
import { convertV2 } from 'openapi-to-postmanv2';
import { openApiToBruno } from '@usebruno/converters';
import { sandboxVariables, stableId, stableUuid, withBrunoEnvironment } from '../../server/http/collectionDownloads.js';
import type { ContractDocument } from './document.js';

type Json = Record<string, unknown>;

/** A new random UUID per request, in both tools: each write its own `Idempotency-Key`. */
const NEW_IDEMPOTENCY_KEY = '{{$guid}}';

/** Every object of a tree, with the keys that lead to it, depth first. */
function* objectsOf(value: unknown, trail: string[] = []): Generator<[Json, string[]]> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* objectsOf(item, [...trail, String(index)]);
  } else if (value && typeof value === 'object') {
    yield [value as Json, trail];
    for (const [key, item] of Object.entries(value)) yield* objectsOf(item, [...trail, key]);
  }
}

/** xorshift32 from a fixed seed: the same sequence of "random" numbers on every run. */
function fixedSequence(): () => number {
  let state = 0x2545f491;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

// The converter's copy of json-schema-faker, whose `random` option it read from Math.random at load.
const schemaFaker = createRequire(import.meta.url)('openapi-to-postmanv2/assets/json-schema-faker.js') as {
  option(options: { random: () => number }): void;
};

/**
 * The converters draw ids at random and fill free-form examples with random values: the ids are
 * replaced by ones made from their place in the file, and the values are drawn from a fixed
 * sequence, so that the same document always makes the same collection.
 */
async function withFixedRandom<T>(run: () => Promise<T>): Promise<T> {
  const random = Math.random;
  Math.random = fixedSequence();
  schemaFaker.option({ random: fixedSequence() });
  try {
    return await run();
  } finally {
    Math.random = random;
  }
}

function convertToPostman(document: ContractDocument): Promise<Json> {
  return new Promise((resolve, reject) => {
    convertV2(
      { type: 'json', data: structuredClone(document) },
      {
        folderStrategy: 'Tags',
        requestNameSource: 'Fallback',
        parametersResolution: 'Schema',
        // Optional query parameters come unticked: the request sends what the operation requires.
        enableOptionalParameters: false,
      },
      (error, result) => {
        if (error) reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
        else if (!result?.result || !result.output?.[0]) reject(new Error(`Conversion failed: ${result?.reason}`));
        else resolve(result.output[0].data as Json);
      },
    );
  });
}

/**
 * The Postman collection (v2.1) of the document: one folder per tag, the key as a bearer token
 * (`{{apiKey}}`), each path parameter read from the variable of its name (`{{event_id}}`), a new
 * `Idempotency-Key` on each write.
 */
export async function postmanCollection(document: ContractDocument): Promise<Json> {
  const collection = await withFixedRandom(() => convertToPostman(document));
  for (const [object, trail] of objectsOf(collection)) {
    if (typeof object.id === 'string') object.id = stableUuid(trail.join('/'));
    if (typeof object._postman_id === 'string') object._postman_id = stableUuid('collection');
    const auth = object.auth as { type?: string; bearer?: { key: string; value: string }[] } | undefined;
    if (auth?.type === 'bearer') auth.bearer = [{ key: 'token', value: '{{apiKey}}', type: 'string' } as never];
    const url = object.url as { variable?: { key: string; value?: string }[] } | undefined;
    if (trail.at(-1) === 'request' && url?.variable)
      for (const variable of url.variable) variable.value = `{{${variable.key}}}`;
    const headers = object.header as { key: string; value: string; disabled?: boolean }[] | undefined;
    if (trail.at(-1) === 'request' && Array.isArray(headers)) {
      for (const header of headers.filter(({ key }) => key === 'Idempotency-Key')) {
        // Optional in the document, so the converter leaves it unticked: every write sends one here.
        Object.assign(header, { value: NEW_IDEMPOTENCY_KEY, disabled: false });
      }
    }
  }
  return collection;
}

/**
 * The Bruno collection (Bruno's JSON export, which Bruno imports as a collection) of the
 * document, made by Bruno's own converter, with the same variables as the Postman collection and
 * the sandbox environment.
 */
export function brunoCollection(document: ContractDocument): Json {
  const collection = openApiToBruno(structuredClone(document)) as Json;
  for (const [object, trail] of objectsOf(collection)) {
    if (typeof object.uid === 'string') object.uid = stableId(`bruno ${trail.join('/')}`, 21);
    if (typeof object.itemUid === 'string') object.itemUid = stableId(`bruno item ${trail.slice(0, -2).join('/')}`, 21);
    const bearer = (object.auth as { bearer?: { token: string } | null } | undefined)?.bearer;
    if (bearer) bearer.token = '{{apiKey}}';
    if (trail.at(-1) === 'request') {
      for (const param of (object.params ?? []) as { name: string; value: string; type: string }[]) {
        if (param.type === 'path') param.value = `{{${param.name}}}`;
      }
      for (const header of (object.headers ?? []) as { name: string; value: string }[]) {
        if (header.name === 'Idempotency-Key') header.value = NEW_IDEMPOTENCY_KEY;
      }
    }
  }
  const baseUrl = document.servers?.[0]?.url ?? 'http://localhost:3000';
  return withBrunoEnvironment(collection, sandboxVariables(baseUrl, document));
}

import type { FuzzRequest } from './requests.js';
import type { Answer, SentRequest } from './world.js';

/**
 * "A read after a successful write shows the write": for each write, the read that shows what it
 * wrote, and which part of the read to compare with the request.
 */
interface ReadBack {
  read: (request: FuzzRequest, answer: Answer) => SentRequest | null;
  /** The part of the read that should show the write (an entry of a list, say); null: none found. */
  pick?: (read: unknown, request: FuzzRequest, answer: Answer) => unknown;
  /** What the read should show: by default the request's body. */
  written?: (request: FuzzRequest, answer: Answer) => unknown;
  /** For a deletion: the read must not show it. */
  gone?: true;
}

const idOf = (answer: Answer) => (answer.body as { id?: number } | undefined)?.id;
const entryById = (list: unknown, id: unknown) =>
  Array.isArray(list) ? (list.find((entry) => (entry as { id?: unknown }).id === id) ?? null) : null;
const firstArray = (body: unknown): unknown[] =>
  (Object.values((body ?? {}) as Record<string, unknown>).find(Array.isArray) as unknown[] | undefined) ?? [];
const oneById = (path: string, id: number): SentRequest => ({
  method: 'get',
  path,
  query: { firstIndex: String(id), limit: '1' },
});

export const readBacks: Record<string, ReadBack> = {
  PostEventOffer: { read: (_, answer) => ({ method: 'get', path: `/public/offers/v1/events/${idOf(answer)}` }) },
  EditEvent: { read: (request) => ({ method: 'get', path: `/public/offers/v1/events/${request.params.event_id}` }) },
  PostProductOffer: { read: (_, answer) => ({ method: 'get', path: `/public/offers/v1/products/${idOf(answer)}` }) },
  EditProduct: {
    read: (request) => ({
      method: 'get',
      path: `/public/offers/v1/products/${(request.body as { offerId: number }).offerId}`,
    }),
  },
  PatchEventPriceCategory: {
    read: (request) =>
      oneById(
        `/public/offers/v1/events/${request.params.event_id}/price_categories`,
        Number(request.params.price_category_id),
      ),
    pick: (read) => firstArray(read)[0] ?? null,
  },
  PatchEventStock: {
    read: (request) =>
      oneById(`/public/offers/v1/events/${request.params.event_id}/dates`, Number(request.params.stock_id)),
    pick: (read) => firstArray(read)[0] ?? null,
  },
  DeleteEventStock: {
    read: (request) =>
      oneById(`/public/offers/v1/events/${request.params.event_id}/dates`, Number(request.params.stock_id)),
    pick: (read, request) => entryById(firstArray(read), Number(request.params.stock_id)),
    gone: true,
  },
  PostCollectiveOfferPublic: {
    read: (_, answer) => ({ method: 'get', path: `/v2/collective/offers/${idOf(answer)}` }),
    // The document: a credit without imageFile is ignored (the reference system does the same).
    written: (request) => {
      const { imageCredit, ...rest } = request.body as Record<string, unknown>;
      return rest.imageFile ? { ...rest, imageCredit } : rest;
    },
  },
  PatchCollectiveOfferPublic: {
    read: (request) => ({ method: 'get', path: `/v2/collective/offers/${request.params.offer_id}` }),
  },
  UpdateProvider: { read: () => ({ method: 'get', path: '/public/providers/v1/provider' }) },
  CreateAddress: {
    read: (_, answer) => ({ method: 'get', path: `/public/offers/v1/addresses/${idOf(answer)}` }),
    // An address the service or an earlier call already placed (spelled otherwise, say) answers as
    // it was recorded, with the municipality's name as its city: only the postal code is the same.
    written: (request) => ({ postalCode: (request.body as Record<string, unknown>).postalCode }),
  },
};

/**
 * Fields whose read differs from the write by design: a file becomes a URL, `now` becomes a moment,
 * the deprecated offerVenue is derived from the location (which wins when both are sent).
 */
const TRANSFORMED = new Set(['image', 'imageFile', 'publicationDatetime', 'publicationDate', 'file', 'offerVenue']);

/**
 * Operations where a null sent clears the field. Elsewhere the document gives null another sense
 * ("leave it out (or null) to keep it", "the start by default"), so a null written is not compared.
 */
const NULL_CLEARS = new Set(['UpdateProvider']);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function sameScalar(written: unknown, read: unknown): boolean {
  if (written === read) return true;
  if (typeof written === 'string' && typeof read === 'string' && ISO_DATE.test(written) && ISO_DATE.test(read))
    return new Date(written).getTime() === new Date(read).getTime();
  return false;
}

/**
 * Where the read does not show the write: a field both have, with another value. Fields the read
 * does not have are not compared (the write may take more than the read shows).
 */
export function differences(written: unknown, read: unknown, compareNulls: boolean, path = ''): string[] {
  if (written === null && !compareNulls) return [];
  if (written === null || typeof written !== 'object') {
    return sameScalar(written, read)
      ? []
      : [`${path || '(value)'}: wrote ${JSON.stringify(written)}, read ${JSON.stringify(read)}`];
  }
  if (Array.isArray(written)) {
    if (!Array.isArray(read)) return [`${path}: wrote a list, read ${JSON.stringify(read)}`];
    if (written.every((entry) => entry === null || typeof entry !== 'object')) {
      const sortedWritten = JSON.stringify([...new Set(written)].sort());
      const sortedRead = JSON.stringify([...new Set(read)].sort());
      return sortedWritten === sortedRead ? [] : [`${path}: wrote ${sortedWritten}, read ${sortedRead}`];
    }
    return [];
  }
  if (read === null || typeof read !== 'object') return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(written)) {
    if (TRANSFORMED.has(key) || !(key in read)) continue;
    found.push(
      ...differences(value, (read as Record<string, unknown>)[key], compareNulls, path ? `${path}.${key}` : key),
    );
  }
  return found;
}

/** The read of the resource an edit names (by its path or body), to compare before and after a refusal. */
export function editedResourceRead(request: FuzzRequest): SentRequest | null {
  const readBack = readBacks[request.operationId];
  if (!readBack || !request.operationId.match(/^(Edit|Patch|Update)/)) return null;
  if (request.operationId === 'EditProduct' && typeof (request.body as { offerId?: unknown })?.offerId !== 'number')
    return null;
  return readBack.read(request, { status: 0, text: '', body: undefined });
}

export async function checkReadBack(
  request: FuzzRequest,
  answer: Answer,
  send: (request: SentRequest) => Promise<Answer>,
): Promise<string | null> {
  const readBack = readBacks[request.operationId];
  if (!readBack) return null;
  const readRequest = readBack.read(request, answer);
  if (!readRequest) return null;
  const read = await send(readRequest);
  if (readBack.gone) {
    if (read.status !== 200) return `the read after the deletion answered ${read.status}`;
    return readBack.pick?.(read.body, request, answer) ? 'the read after the deletion still shows it' : null;
  }
  if (read.status !== 200) return `the read after the write answered ${read.status}: ${read.text.slice(0, 200)}`;
  const shown = readBack.pick ? readBack.pick(read.body, request, answer) : read.body;
  if (shown === null || shown === undefined) return 'the read after the write does not show the written resource';
  const written = readBack.written ? readBack.written(request, answer) : request.body;
  const found = differences(written, shown, NULL_CLEARS.has(request.operationId));
  return found.length > 0 ? `the read after the write differs: ${found.slice(0, 3).join('; ')}` : null;
}

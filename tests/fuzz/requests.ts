import { catalogueEntries } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { aPng } from '../support/images.js';
import type { DocumentedOperation } from './document.js';
import type { Random } from './random.js';
import { type Anchor, type GenerationContext, valueFor } from './values.js';
import type { Pools, SentRequest } from './world.js';

/**
 * A request of one operation, as the fuzzer builds it from the document: path parameters, query
 * and body, each generated from its schema, with the ids of resources that exist in the sandbox
 * (the anchors) where the schema alone would only name resources that do not.
 */
export interface FuzzRequest {
  operationId: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
  /** Image uploads: the form's text fields (the file is a valid PNG unless a mutation took it away). */
  form?: { credit?: unknown; file: 'png' | 'none' | 'text' };
}

/** Reference data the sandbox serves, read through the API once at start (world seeding). */
export interface ReferenceData {
  domainIds: number[];
  studentLevelIds: string[];
  institutionIds: number[];
}

const DAY_MS = 86_400_000;
const eans = catalogueEntries.filter((entry) => entry.compliant).map((entry) => entry.ean);
const validPng = aPng(400, 600);
const validPngBase64 = validPng.toString('base64');
let uniqueCounter = 0;
const unique = (prefix: string) => `${prefix}-${(uniqueCounter += 1)}`;

/** Each run names its resources from 1 again, so that a seed replays the same requests in any process. */
export function restartUniqueNames(): void {
  uniqueCounter = 0;
}

function someOf<T>(random: Random, items: readonly T[], max: number): T[] {
  const count = random.int(1, Math.min(max, items.length));
  return Array.from({ length: count }, () => random.pick(items));
}

/** One of the ids, or an id that names nothing when there is none yet. */
const maybe = (random: Random, items: readonly number[], fallback: number): number =>
  items.length > 0 ? random.pick(items) : fallback;

/** The resources a request works on, chosen before its values: an event and its categories and dates, say. */
interface Focus {
  eventId: number;
  productId: number;
  collectiveOfferId: number;
}

function chooseFocus(random: Random, pools: Pools): Focus {
  return {
    eventId: maybe(random, pools.eventIds, 1),
    productId: maybe(random, pools.productIds, 1),
    collectiveOfferId: maybe(random, pools.collectiveOfferIds, 1),
  };
}

function anchorsFor(operation: DocumentedOperation, pools: Pools, reference: ReferenceData, focus: Focus, now: Date) {
  const at = (days: number, random: Random) =>
    new Date(now.getTime() + days * DAY_MS + random.int(0, 23) * 3_600_000).toISOString();
  const categories = () => pools.priceCategoryIds.get(focus.eventId) ?? [];
  const physicalVenue = (random: Random) => maybe(random, pools.physicalVenueIds, 1);
  const isCollective = operation.path.startsWith('/v2/collective');
  const anchors: Record<string, Anchor> = {
    venueId: physicalVenue,
    addressId: (random) => maybe(random, pools.addressIds, 1),
    offerId: () => focus.productId,
    priceCategoryId: (random) => maybe(random, categories(), 1),
    idAtProvider: (random) => (random.chance(0.2) ? null : unique('fuzz')),
    ean: (random) => random.pick(eans),
    beginningDatetime: (random) => at(random.int(30, 200), random),
    bookingLimitDatetime: (random) =>
      random.chance(0.3) ? (isCollective ? at(10, random) : null) : at(random.int(10, 20), random),
    publicationDatetime: (random) => (random.chance(0.5) ? 'now' : at(random.int(1, 5), random)),
    publicationDate: () => null,
    bookingAllowedDatetime: (random) => (random.chance(0.6) ? null : at(random.int(1, 5), random)),
    startDatetime: (random) => at(random.int(30, 60), random),
    endDatetime: (random) => (random.chance(0.5) ? null : at(random.int(61, 90), random)),
    eventDuration: (random) => (random.chance(0.3) ? null : random.int(0, 1439)),
    durationMinutes: (random) => (random.chance(0.3) ? null : random.int(0, 600)),
    domains: (random) => someOf(random, reference.domainIds, 3),
    students: (random) => someOf(random, reference.studentLevelIds, 3),
    nationalProgramId: () => null,
    educationalInstitutionId: (random) => (random.chance(0.5) ? null : random.pick(reference.institutionIds)),
    educationalInstitution: () => null,
    interventionArea: (random) => (random.chance(0.5) ? null : ['75', '92']),
    imageFile: () => null,
    imageCredit: () => null,
    image: (random) => (random.chance(0.9) ? null : { file: validPngBase64, credit: 'Fuzz' }),
    videoUrl: () => null,
    contactPhone: () => '+33199006328',
    url: () => 'https://example.com/watch/{token}',
    ids: (random) => someOf(random, pools.collectiveOfferIds.length > 0 ? pools.collectiveOfferIds : [1], 3),
  };
  return anchors;
}

function locationFor(operation: DocumentedOperation, pools: Pools, random: Random): unknown {
  if (operation.path.startsWith('/v2/collective')) return undefined;
  const roll = random.next();
  if (roll < 0.7 || pools.digitalVenueIds.length === 0)
    return { type: 'physical', venueId: random.pick(pools.physicalVenueIds) };
  if (roll < 0.85)
    return { type: 'digital', venueId: random.pick(pools.digitalVenueIds), url: 'https://example.com/watch/{token}' };
  return {
    type: 'address',
    venueId: random.pick(pools.physicalVenueIds),
    addressId: random.pick(pools.addressIds),
    addressLabel: random.chance(0.5) ? null : 'Hall B',
  };
}

/** A path parameter's value: an id of the resource it names, from what exists. */
function pathValue(name: string, operation: DocumentedOperation, pools: Pools, focus: Focus, random: Random): string {
  switch (name) {
    case 'venue_id':
      return String(random.pick([...pools.physicalVenueIds, ...pools.digitalVenueIds]));
    case 'siret':
      return random.pick(pools.sirets);
    case 'address_id':
      return String(maybe(random, pools.addressIds, 1));
    case 'product_id':
      return String(focus.productId);
    case 'event_id':
      return String(focus.eventId);
    case 'price_category_id':
      return String(maybe(random, pools.priceCategoryIds.get(focus.eventId) ?? [], 1));
    case 'stock_id':
      return String(maybe(random, pools.stockIds.get(focus.eventId) ?? [], 1));
    case 'offer_id':
      if (operation.path.startsWith('/v2/collective')) return String(focus.collectiveOfferId);
      return String(random.chance(0.5) ? focus.eventId : focus.productId);
    case 'booking_id':
      return String(maybe(random, pools.collectiveBookingIds, 1));
    case 'token':
      return pools.bookingTokens.length > 0 ? random.pick(pools.bookingTokens) : 'ABCDEF';
    default:
      return '1';
  }
}

/** A query parameter's value from what exists, where one matters. */
function queryValue(name: string, pools: Pools, focus: Focus, random: Random): unknown {
  switch (name) {
    case 'eans':
      return someOf(random, eans, 4).join(',');
    case 'siren':
      return pools.siren;
    case 'venueId':
      return random.pick(pools.physicalVenueIds);
    case 'addressId':
      return maybe(random, pools.addressIds, 1);
    case 'offerId':
      return focus.eventId;
    case 'stockId':
      return maybe(random, pools.stockIds.get(focus.eventId) ?? [], 1);
    case 'priceCategoryId':
      return maybe(random, pools.priceCategoryIds.get(focus.eventId) ?? [], 1);
    case 'idsAtProvider':
      return 'fuzz-1,fuzz-2';
    case 'periodBeginningDate':
      return '2026-12-01';
    case 'periodEndingDate':
      return '2027-06-30';
    default:
      return undefined;
  }
}

/** A request of the operation that the document says is valid, naming resources that exist. */
export function validRequest(
  operation: DocumentedOperation,
  pools: Pools,
  reference: ReferenceData,
  random: Random,
  now: Date,
): FuzzRequest {
  const focus = chooseFocus(random, pools);
  const context: GenerationContext = {
    random,
    now,
    anchors: anchorsFor(operation, pools, reference, focus, now),
    optionalChance: 0.5,
  };
  const params: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') params[parameter.name] = pathValue(parameter.name, operation, pools, focus, random);
    else if (parameter.required || random.chance(0.4))
      query[parameter.name] = queryValue(parameter.name, pools, focus, random) ?? valueFor(parameter.schema, context);
  }
  const request: FuzzRequest = { operationId: operation.operationId, params, query };
  if (operation.bodyType === 'multipart') {
    request.form = { credit: random.chance(0.5) ? 'Fuzz photo' : undefined, file: 'png' };
  } else if (operation.body) {
    const body = valueFor(operation.body, context) as Record<string, unknown>;
    if (
      'location' in body ||
      operation.operationId === 'PostEventOffer' ||
      operation.operationId === 'PostProductOffer'
    ) {
      const location = locationFor(operation, pools, random);
      if (location !== undefined) body.location = location;
    }
    if (operation.operationId === 'EditProduct') body.offerId = focus.productId;
    request.body = pruneUndefined(body);
  }
  return request;
}

function pruneUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruneUndefined);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, entry]) => entry !== undefined)
        .map(([key, entry]) => [key, pruneUndefined(entry)]),
    );
  return value;
}

/** The request as it goes on the wire. */
export function toSent(operation: DocumentedOperation, request: FuzzRequest): SentRequest {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(request.params[name] ?? ''),
  );
  const query = Object.fromEntries(
    Object.entries(request.query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
  if (request.form) {
    const fields: Record<string, string> = {};
    if (request.form.credit !== undefined)
      fields.credit =
        typeof request.form.credit === 'string' ? request.form.credit : JSON.stringify(request.form.credit);
    const file =
      request.form.file === 'png'
        ? { name: 'poster.png', bytes: validPng, type: 'image/png' }
        : request.form.file === 'text'
          ? { name: 'notes.txt', bytes: Buffer.from('not an image'), type: 'text/plain' }
          : undefined;
    return { method: operation.method, path, query, form: { fields, file } };
  }
  return { method: operation.method, path, query, body: request.body };
}

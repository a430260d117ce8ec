import { raw, type EntityManager, type FilterQuery } from '@mikro-orm/core';
import type { Caller } from '../../shared/caller.js';
import { NotFoundError } from '../../shared/errors.js';
import { requireRole } from '../../shared/internalOnly.js';
import { PAGE_SIZE_MAX } from '../../shared/pagination.js';
import { RequestLogBody, RequestLogEntry } from '../../../platform/requestLog/index.js';

export const STATUS_CLASS_PATTERN = /^[1-5]xx$/;

export interface RecordedRequestFilter {
  providerId?: number | null;
  /** `2xx`, `4xx`, `5xx`…: the answers whose status starts with that digit. */
  statusClass?: string | null;
  operationId?: string | null;
  /** The path as requested, or its beginning (`/public/offers/v1/events`). */
  path?: string | null;
  requestId?: string | null;
}

export interface RecordedRequestPage {
  /** Requests recorded before this id (the last id of the page before); the newest without it. */
  before?: number | null;
  limit?: number | null;
}

/**
 * Whose requests the caller reads: a provider key its own provider's only (another named is not
 * found, as with `provider(id:)`); an internal tool the provider it names, or every provider.
 */
export function providerOfCaller(caller: Caller, requested: number | null | undefined): number | null {
  if (caller.kind === 'provider') {
    if (requested != null && requested !== caller.providerId) throw new NotFoundError('Provider not found');
    return caller.providerId;
  }
  requireRole(caller, 'support', "read providers' requests");
  return requested ?? null;
}

/** One page of the requests in scope that match the filter, newest first (by the order they were recorded). */
export function findRecordedRequests(
  em: EntityManager,
  caller: Caller,
  filter: RecordedRequestFilter,
  page: RecordedRequestPage,
): Promise<RequestLogEntry[]> {
  const providerId = providerOfCaller(caller, filter.providerId);
  const conditions: FilterQuery<RequestLogEntry>[] = [];
  if (providerId !== null) conditions.push({ providerId });
  if (page.before != null) conditions.push({ id: { $lt: page.before } });
  if (filter.statusClass) {
    const low = Number(filter.statusClass[0]) * 100;
    conditions.push({ status: { $gte: low, $lt: low + 100 } });
  }
  if (filter.operationId) conditions.push({ operationId: filter.operationId });
  if (filter.requestId) conditions.push({ requestId: filter.requestId });
  // A prefix by its length, not LIKE: no wildcard to escape, and the same on both engines.
  if (filter.path) conditions.push({ [raw('substr(path, 1, ?)', [filter.path.length])]: filter.path });
  const limit = Math.min(Math.max(1, page.limit ?? PAGE_SIZE_MAX), PAGE_SIZE_MAX);
  return em.find(RequestLogEntry, { $and: conditions }, { orderBy: { id: 'desc' }, limit });
}

/** The request of that id in scope, with its bodies: the newest, since a caller may send the same X-Request-Id twice. */
export async function findRecordedRequest(
  em: EntityManager,
  caller: Caller,
  requestId: string,
  requestedProvider: number | null | undefined,
): Promise<RequestLogEntry | null> {
  const providerId = providerOfCaller(caller, requestedProvider);
  const [entry] = await em.find(
    RequestLogEntry,
    { requestId, ...(providerId === null ? {} : { providerId }) },
    { orderBy: { id: 'desc' }, limit: 1 },
  );
  return entry ?? null;
}

/** A recorded request's bodies as text, each marked when it was cut at 64 KB. */
export interface RecordedBodies {
  requestBody: string | null;
  requestBodyTruncated: boolean;
  responseBody: string | null;
  responseBodyTruncated: boolean;
}

/** Read once per entry and request, however many of the four fields a document selects. */
const bodiesRead = new WeakMap<RequestLogEntry, Promise<RecordedBodies>>();

/** The bodies of a request, by their keys among its provider's (RequestLogBody.ts). */
export function bodiesOf(em: EntityManager, entry: RequestLogEntry): Promise<RecordedBodies> {
  let read = bodiesRead.get(entry);
  if (!read) {
    read = readBodies(em, entry);
    bodiesRead.set(entry, read);
  }
  return read;
}

async function readBodies(em: EntityManager, entry: RequestLogEntry): Promise<RecordedBodies> {
  const keys = [entry.requestBodyKey, entry.responseBodyKey].filter((key): key is string => key !== null);
  const bodies =
    keys.length === 0 ? [] : await em.find(RequestLogBody, { providerId: entry.providerId, bodyKey: { $in: keys } });
  const byKey = new Map(bodies.map((body) => [body.bodyKey, body]));
  const request = entry.requestBodyKey === null ? undefined : byKey.get(entry.requestBodyKey);
  const response = entry.responseBodyKey === null ? undefined : byKey.get(entry.responseBodyKey);
  return {
    requestBody: request?.bodyText ?? null,
    requestBodyTruncated: request?.truncated ?? false,
    responseBody: response?.bodyText ?? null,
    responseBodyTruncated: response?.truncated ?? false,
  };
}

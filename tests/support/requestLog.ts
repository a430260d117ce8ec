import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { bodiesOf, type RecordedBodies } from '../../graphql/providers/requests/recordedRequests.js';
import { RequestLogEntry } from '../../platform/requestLog/index.js';

export type RecordedRow = RequestLogEntry & RecordedBodies;

/** The recorded requests that match, oldest first, each with its bodies read as the console reads them. */
export async function recordedRows(em: EntityManager, where: FilterQuery<RequestLogEntry>): Promise<RecordedRow[]> {
  const entries = await em.find(RequestLogEntry, where, { orderBy: { id: 'asc' } });
  return Promise.all(entries.map(async (entry) => Object.assign(entry, await bodiesOf(em, entry))));
}

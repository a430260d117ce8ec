import { type EntityManager, type FilterQuery, sql } from '@mikro-orm/core';
import { type PageInput, pageBounds } from '../../shared/pagination.js';
import { ApiKey } from '../ApiKey.js';
import { Provider } from '../Provider.js';
import { VenueProvider } from '../VenueProvider.js';

/**
 * A LIKE pattern of the search: `%` and `\` become `_`, which matches them as any one character,
 * since the engines do not share an escape syntax.
 */
function likePattern(text: string): string {
  return `%${text.replace(/[%\\]/g, '_')}%`;
}

/**
 * Providers whose name holds the search (any case), or that act for the offerer of that SIREN
 * (through a venue or a key), one page in id order.
 */
export async function searchProviders(em: EntityManager, search: string | null, page: PageInput): Promise<Provider[]> {
  const { firstIndex, limit } = pageBounds(page);
  const where: FilterQuery<Provider> = { id: { $gte: firstIndex } };
  const text = search?.trim() ?? '';
  if (text !== '') {
    const [links, keys] = await Promise.all([
      em.find(VenueProvider, { venue: { offerer: { siren: text } } }, { fields: ['provider'] }),
      em.find(ApiKey, { offerer: { siren: text }, provider: { $ne: null } }, { fields: ['provider'] }),
    ]);
    const bySiren = [...links.map((link) => link.provider.id), ...keys.flatMap((key) => key.provider?.id ?? [])];
    // lower() on both sides: SQLite has no ILIKE, and PostgreSQL's LIKE minds the case.
    where.$or = [{ [sql.lower('name')]: { $like: likePattern(text.toLowerCase()) } }, { id: { $in: bySiren } }];
  }
  return em.find(Provider, where, { orderBy: { id: 'asc' }, limit });
}

import type { EntityManager } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import type { GraphContext } from '../shared/context.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import { Address } from '../providers/Address.js';
import { Offerer } from '../providers/Offerer.js';
import { loadedCollection, viewColumns, viewOf } from '../../platform/sql/entityViews.js';
import { selectRows } from '../../platform/sql/sqlText.js';
import type { Venue } from '../providers/Venue.js';
import { CollectiveBooking } from './CollectiveBooking.js';
import { CollectiveOffer } from './CollectiveOffer.js';
import { EducationalInstitution, NationalProgram } from './reference/entities.js';

/** The refusal of another provider's collective offer (403); the school-platform mock answers it as a 404. */
export const OFFER_OUT_OF_REACH = 'You are not allowed to access this collective offer';

/** Whether the caller may act on this offer: its provider's, at a venue of the key's offerer. */
function reaches(context: GraphContext, offer: CollectiveOffer): boolean {
  const { caller } = context;
  if (caller.kind !== 'provider') return true;
  return (
    offer.provider.id === caller.providerId && (caller.offererId == null || offer.venue.offerer.id === caller.offererId)
  );
}

/**
 * A collective offer by id with its bookings. Absent: 404. Another provider's: 403, as the
 * contract says for collective offers (the one exception to "unreachable is not found").
 */
export async function collectiveOfferForCaller(context: GraphContext, id: number): Promise<CollectiveOffer> {
  const offer = await context.em.findOne(CollectiveOffer, id, {
    populate: ['bookings', 'venue', 'institution', 'nationalProgram', 'address'],
  });
  if (!offer) throw new NotFoundError('Collective offer not found');
  if (!reaches(context, offer)) throw new ForbiddenError(OFFER_OUT_OF_REACH);
  return offer;
}

/**
 * `collectiveOfferForCaller` to be read only: a view (entityViews.ts) with its venue's offerer,
 * institution, national programme, address and bookings, in two queries.
 */
export async function collectiveOfferViewForCaller(context: GraphContext, id: number): Promise<CollectiveOffer> {
  const { em } = context;
  const [row] = await selectRows<Record<string, unknown>>(
    em,
    `select c.*, v.offerer_id as venue__offerer_id, ${viewColumns(em, EducationalInstitution, 'i', 'institution__')}, ` +
      `${viewColumns(em, NationalProgram, 'np', 'program__')}, ${viewColumns(em, Address, 'a', 'address__')} ` +
      'from collective_offer c join venue v on v.id = c.venue_id ' +
      'left join educational_institution i on i.id = c.institution_id ' +
      'left join national_program np on np.id = c.national_program_id left join address a on a.id = c.address_id ' +
      'where c.id = ?',
    [id],
  );
  if (!row) throw new NotFoundError('Collective offer not found');
  const offer = viewOf(em, CollectiveOffer, row);
  offer.venue = { id: offer.venue.id, offerer: { id: Number(row.venue__offerer_id) } } as Venue;
  if (!reaches(context, offer)) throw new ForbiddenError(OFFER_OUT_OF_REACH);
  offer.institution = row.institution__id == null ? null : viewOf(em, EducationalInstitution, row, 'institution__');
  offer.nationalProgram = row.program__id == null ? null : viewOf(em, NationalProgram, row, 'program__');
  offer.address = row.address__id == null ? null : viewOf(em, Address, row, 'address__');
  const bookings = await selectRows<Record<string, unknown>>(
    em,
    'select * from collective_booking where offer_id = ? order by id',
    [id],
  );
  offer.bookings = loadedCollection(bookings.map((booking) => viewOf(em, CollectiveBooking, booking)));
  return offer;
}

/** A booking of one of the caller's collective offers, or 404. */
export async function collectiveBookingForCaller(context: GraphContext, id: number): Promise<CollectiveBooking> {
  const booking = await context.em.findOne(CollectiveBooking, id, {
    populate: ['offer', 'offer.venue', 'offer.bookings'],
  });
  if (!booking || !reaches(context, booking.offer)) throw new NotFoundError('Collective booking not found');
  return booking;
}

/** Collective offers are published on the school platform only for offerers it admitted: 403 otherwise. */
export async function requireSchoolPlatformRights(context: GraphContext, venue: Venue): Promise<void> {
  const offerer = await context.em.findOneOrFail(Offerer, venue.offerer.id);
  if (!offerer.allowedOnAdage) {
    throw new ForbiddenError(
      'The offerer of this venue is not allowed to publish collective offers on the school platform',
    );
  }
}

/**
 * Serialises what changes one offer's state (an edit, a booking, a booking's move, the archive):
 * the offer's row is locked before anything of it is read, so each reads what the previous
 * committed. PostgreSQL locks the row; SQLite has a single writer, which already serialises.
 */
export async function lockCollectiveOffers(em: EntityManager, ids: number[]): Promise<void> {
  if (ids.length === 0 || !(em.getPlatform() instanceof PostgreSqlPlatform)) return;
  await em
    .getConnection()
    .execute(
      `select id from collective_offer where id in (${ids.map(() => '?').join(', ')}) order by id for update`,
      ids,
      'all',
      em.getTransactionContext(),
    );
}

/** Runs `work` in a transaction on the caller's offer, locked first (see lockCollectiveOffers). */
export function withLockedCollectiveOffer<T>(
  context: GraphContext,
  offerId: number,
  work: (context: GraphContext, offer: CollectiveOffer) => Promise<T>,
): Promise<T> {
  return context.em.transactional(async (em) => {
    const scoped = { ...context, em };
    await lockCollectiveOffers(em, [offerId]);
    return work(scoped, await collectiveOfferForCaller(scoped, offerId));
  });
}

import type { EntityManager } from '@mikro-orm/core';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, NotFoundError, ValidationFailedError } from '../../shared/errors.js';
import { offerInScope } from '../access.js';
import { type EventPageArgs, eventPageQuery } from '../eventPage.js';
import type { Offer } from '../Offer.js';
import { lockOfferForChanges } from '../offerLock.js';
import { checkEditable } from '../offerRules.js';
import { deleteStock } from '../stockDeletion.js';
import { priceCategoryOfOffer } from '../priceCategories/eventPriceCategories.js';
import { Stock } from '../Stock.js';
import './events.js';
import { bookingLimitProblems, type DateFields, dateMomentIssues, totalQuantity } from './rules.js';

/** Fields absent or null stay as they are, except `idAtProvider`, which null clears. */
export type DateChange = DateFields;

/** A date of this event that is not deleted, or 404. */
async function liveDateOf(em: EntityManager, offer: Offer, stockId: number): Promise<Stock> {
  const stock = await em.findOne(Stock, { id: stockId, offer, isDeleted: false }, { populate: ['priceCategory'] });
  if (!stock) throw new NotFoundError('Date not found');
  return stock;
}

/** One page of an event's dates that are not deleted, in id order, optionally only those with the given idAtProvider. */
export async function listDates(context: GraphContext, args: EventPageArgs): Promise<Stock[]> {
  const { where, options } = await eventPageQuery(context, args);
  return context.em.find(Stock, { ...where, isDeleted: false }, { ...options, populate: ['priceCategory'] });
}

/**
 * Edits one date, in one transaction. A quantity given is the places still on sale: the
 * stored total adds the booked ones. A beginning sent (even the same) reschedules the date:
 * `rescheduledAt` is set and `offers.dateRescheduled` is published with the change.
 */
export async function updateDate(
  context: GraphContext,
  eventId: number,
  stockId: number,
  change: DateChange,
): Promise<Stock> {
  const now = context.clock.now();
  const issues = dateMomentIssues(change, [], now);
  if (issues.length > 0) throw new ValidationFailedError(issues);

  return context.em.transactional(async (em) => {
    const offer = await offerInScope({ ...context, em }, eventId, 'event');
    await lockOfferForChanges(em, offer);
    checkEditable(offer);
    const stock = await liveDateOf(em, offer, stockId);
    const priceCategory =
      change.priceCategoryId != null
        ? await priceCategoryOfOffer(em, offer, change.priceCategoryId)
        : stock.priceCategory;
    if (stock.beginningDatetime && stock.beginningDatetime <= now) {
      // As pass Culture does, a date that has begun refuses a change only: an edit that
      // changes nothing answers the date as it is.
      if (!changesDate(stock, change, priceCategory)) return stock;
      throw BadRequestError.on('global', 'This date has begun: a past date cannot be changed');
    }
    const beginning = change.beginningDatetime ?? stock.beginningDatetime;
    const bookingLimit = change.bookingLimitDatetime ?? stock.bookingLimitDatetime;

    const problems: Record<string, string[]> = {};
    const refuse = (field: string, message: string) => (problems[field] ??= []).push(message);
    if (change.beginningDatetime != null || change.bookingLimitDatetime != null) {
      // The opening rules concern a booking limit being set, not one already stored.
      const opening =
        change.bookingLimitDatetime != null
          ? { publication: offer.publicationDatetime, bookingAllowed: offer.bookingAllowedDatetime }
          : { publication: null, bookingAllowed: null };
      for (const problem of bookingLimitProblems(beginning, bookingLimit, opening))
        refuse('bookingLimitDatetime', problem);
    }
    if (change.beginningDatetime != null || change.priceCategoryId != null) {
      const same = await em.count(Stock, {
        offer,
        isDeleted: false,
        id: { $ne: stock.id },
        beginningDatetime: beginning,
        priceCategory,
      });
      if (same > 0)
        refuse('beginningDatetime', 'The event already has a date at this beginning with this price category');
    }
    if (change.idAtProvider != null && change.idAtProvider !== stock.idAtProvider) {
      const taken = await em.count(Stock, {
        offer,
        isDeleted: false,
        id: { $ne: stock.id },
        idAtProvider: change.idAtProvider,
      });
      if (taken > 0)
        refuse('idAtProvider', `A date of this event already has the idAtProvider "${change.idAtProvider}"`);
    }
    if (Object.keys(problems).length > 0) throw new BadRequestError(problems);

    if (priceCategory && priceCategory !== stock.priceCategory) {
      stock.priceCategory = priceCategory;
      stock.price = priceCategory.price;
    }
    if (change.bookingLimitDatetime != null) stock.bookingLimitDatetime = change.bookingLimitDatetime;
    if (change.quantity != null) stock.quantity = totalQuantity(change.quantity, stock.bookedQuantity);
    if (change.idAtProvider !== undefined) stock.idAtProvider = change.idAtProvider;
    if (change.beginningDatetime != null) {
      stock.beginningDatetime = change.beginningDatetime;
      stock.rescheduledAt = now;
    }
    stock.updatedAt = now;
    await em.flush();
    if (change.beginningDatetime != null) {
      await context.events.publish(em, 'offers.dateRescheduled', {
        stockId: stock.id,
        offerId: offer.id,
        beginningDatetime: change.beginningDatetime,
        at: now,
      });
    }
    return stock;
  });
}

/** Whether an edit changes the date: a beginning sent always does (it reschedules), other fields when they differ. */
function changesDate(stock: Stock, change: DateChange, priceCategory: Stock['priceCategory']): boolean {
  return (
    change.beginningDatetime != null ||
    priceCategory !== stock.priceCategory ||
    (change.bookingLimitDatetime != null &&
      change.bookingLimitDatetime.getTime() !== stock.bookingLimitDatetime?.getTime()) ||
    (change.quantity != null && totalQuantity(change.quantity, stock.bookedQuantity) !== stock.quantity) ||
    (change.idAtProvider !== undefined && change.idAtProvider !== stock.idAtProvider)
  );
}

/** How long after its beginning a date may still be deleted. */
export const DATE_DELETABLE_AFTER_BEGINNING_MS = 48 * 3_600_000;

/**
 * Deletes a date (see deleteStock): its unused bookings are cancelled with it. A date that
 * began more than 48 hours ago stays (400): its bookings are settled.
 */
export async function deleteDate(context: GraphContext, eventId: number, stockId: number): Promise<void> {
  const now = context.clock.now();
  await context.em.transactional(async (em) => {
    const offer = await offerInScope({ ...context, em }, eventId, 'event');
    await lockOfferForChanges(em, offer);
    checkEditable(offer);
    const stock = await liveDateOf(em, offer, stockId);
    if (
      stock.beginningDatetime &&
      stock.beginningDatetime.getTime() < now.getTime() - DATE_DELETABLE_AFTER_BEGINNING_MS
    ) {
      throw BadRequestError.on('global', 'The event began more than two days ago: the date cannot be deleted');
    }
    await deleteStock(context, em, stock);
  });
}

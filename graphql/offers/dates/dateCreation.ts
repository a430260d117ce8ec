import type { EntityManager } from '@mikro-orm/core';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, type ValidationIssue, ValidationFailedError } from '../../shared/errors.js';
import { offerInScope } from '../access.js';
import { DATES_PER_OFFER_MAX } from '../limits.js';
import type { Offer } from '../Offer.js';
import { lockOfferForChanges } from '../offerLock.js';
import { PriceCategory } from '../PriceCategory.js';
import { Stock } from '../Stock.js';
import { beginningAndPriceCategoryKey, bookingLimitProblems, dateMomentIssues, totalQuantity } from './rules.js';
import type { Quantity } from './types.js';
import { checkEditable } from '../offerRules.js';
import { insertReturningIds } from '../../../platform/sql/sqlText.js';

export interface NewDate {
  beginningDatetime: Date;
  bookingLimitDatetime: Date;
  priceCategoryId: number;
  quantity: Quantity;
  idAtProvider?: string | null;
}

/**
 * What the rules need of the event's dates that are not deleted, read in one query (three
 * columns, entities not tracked: the event may already have 2500 of them).
 */
async function liveDateKeys(em: EntityManager, offer: Offer) {
  const stocks = await em.find(
    Stock,
    { offer, isDeleted: false },
    { fields: ['beginningDatetime', 'priceCategory', 'idAtProvider'], disableIdentityMap: true },
  );
  return {
    count: stocks.length,
    beginningsAndPriceCategories: new Set(
      stocks.map((stock) => beginningAndPriceCategoryKey(stock.beginningDatetime, stock.priceCategory?.id)),
    ),
    idsAtProvider: new Set(stocks.flatMap((stock) => (stock.idAtProvider == null ? [] : [stock.idAtProvider]))),
  };
}

function checkMoments(inputs: NewDate[], now: Date): void {
  const issues: ValidationIssue[] = inputs.flatMap((input, index) =>
    dateMomentIssues(input, ['dates', String(index)], now),
  );
  if (issues.length > 0) throw new ValidationFailedError(issues);
}

/**
 * The business rules across dates (400), all reported at once, keyed by the date's path:
 * a price category of the event, booking limits, one date per beginning and price category,
 * unique idAtProvider, and the event's total of dates.
 */
function checkAgainstEvent(
  inputs: NewDate[],
  offer: Offer,
  priceCategoryIds: ReadonlySet<number>,
  live: Awaited<ReturnType<typeof liveDateKeys>>,
): void {
  const problems: Record<string, string[]> = {};
  const refuse = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (live.count + inputs.length > DATES_PER_OFFER_MAX) {
    refuse(
      'dates',
      `An event has at most ${DATES_PER_OFFER_MAX} dates: this one has ${live.count}, ${inputs.length} more would make ${live.count + inputs.length}`,
    );
  }
  const givenBeginnings = new Set<string>();
  const givenIds = new Set<string>();
  inputs.forEach((input, index) => {
    if (!priceCategoryIds.has(input.priceCategoryId)) {
      refuse(`dates.${index}.priceCategoryId`, 'The event has no price category with this id');
    }
    for (const problem of bookingLimitProblems(input.beginningDatetime, input.bookingLimitDatetime, {
      publication: offer.publicationDatetime,
      bookingAllowed: offer.bookingAllowedDatetime,
    }))
      refuse(`dates.${index}.bookingLimitDatetime`, problem);
    const key = beginningAndPriceCategoryKey(input.beginningDatetime, input.priceCategoryId);
    if (givenBeginnings.has(key)) {
      refuse(`dates.${index}`, 'This beginning and price category are given twice');
    } else if (live.beginningsAndPriceCategories.has(key)) {
      refuse(`dates.${index}`, 'The event already has a date at this beginning with this price category');
    }
    givenBeginnings.add(key);
    if (input.idAtProvider != null) {
      if (givenIds.has(input.idAtProvider))
        refuse(`dates.${index}.idAtProvider`, `The idAtProvider "${input.idAtProvider}" is given twice`);
      else if (live.idsAtProvider.has(input.idAtProvider)) {
        refuse(
          `dates.${index}.idAtProvider`,
          `A date of this event already has the idAtProvider "${input.idAtProvider}"`,
        );
      }
      givenIds.add(input.idAtProvider);
    }
  });
  if (Object.keys(problems).length > 0) throw new BadRequestError(problems);
}

/** A date as written: what the answer shows, without loading the rows back. */
export type CreatedDate = Pick<
  Stock,
  | 'id'
  | 'beginningDatetime'
  | 'bookingLimitDatetime'
  | 'price'
  | 'quantity'
  | 'bookedQuantity'
  | 'idAtProvider'
  | 'priceCategory'
>;

/** Rows per INSERT statement: 500 rows of 12 columns stay far below both engines' parameter limits. */
const INSERT_CHUNK_ROWS = 500;

/**
 * Creates up to 2500 dates of an event in one transaction: the event's price categories and
 * live dates are read once, the rows go in by multi-row INSERTs of 500, and the answer is
 * built from what was written (in request order) rather than read back.
 */
export async function createDates(context: GraphContext, eventId: number, inputs: NewDate[]): Promise<CreatedDate[]> {
  const now = context.clock.now();
  checkMoments(inputs, now);

  return context.em.transactional(async (em) => {
    const offer = await offerInScope({ ...context, em }, eventId, 'event');
    await lockOfferForChanges(em, offer);
    checkEditable(offer);
    const priceCategories = new Map(
      (await em.find(PriceCategory, { offer })).map((category) => [category.id, category]),
    );
    checkAgainstEvent(inputs, offer, new Set(priceCategories.keys()), await liveDateKeys(em, offer));

    const rows = inputs.map((input) => ({
      offer: offer.id,
      priceCategory: input.priceCategoryId,
      beginningDatetime: input.beginningDatetime,
      bookingLimitDatetime: input.bookingLimitDatetime,
      price: priceCategories.get(input.priceCategoryId)!.price,
      quantity: totalQuantity(input.quantity, 0),
      bookedQuantity: 0,
      idAtProvider: input.idAtProvider ?? null,
      isDeleted: false,
      rescheduledAt: null,
      createdAt: now,
      updatedAt: now,
    }));
    const ids = await insertReturningIds(em, Stock, rows, INSERT_CHUNK_ROWS);
    // Written out rather than spread from the row: the graph shows these fields only, and
    // spreading twelve properties into 2500 objects cost more than the rules (issue 19).
    return rows.map((row, index): CreatedDate => ({
      id: ids[index],
      beginningDatetime: row.beginningDatetime,
      bookingLimitDatetime: row.bookingLimitDatetime,
      price: row.price,
      quantity: row.quantity,
      bookedQuantity: row.bookedQuantity,
      idAtProvider: row.idAtProvider,
      priceCategory: priceCategories.get(row.priceCategory)!,
    }));
  });
}

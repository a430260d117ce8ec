import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, NotFoundError } from '../../shared/errors.js';
import { offerInScope } from '../access.js';
import { type EventPageArgs, eventPageQuery } from '../eventPage.js';
import { PRICE_CATEGORIES_MAX } from '../limits.js';
import type { Offer } from '../Offer.js';
import { lockOfferForChanges } from '../offerLock.js';
import { PriceCategory } from '../PriceCategory.js';
import { Stock } from '../Stock.js';
import { checkEditable } from '../offerRules.js';

export interface NewPriceCategory {
  label: string;
  price: number;
  idAtProvider?: string | null;
}

/** Fields absent stay as they are; `idAtProvider: null` clears it. */
export interface PriceCategoryChange {
  label?: string | null;
  price?: number | null;
  idAtProvider?: string | null;
}

/** A price category of this offer, or 404 (one of another offer is not revealed). */
export async function priceCategoryOfOffer(em: EntityManager, offer: Offer, id: number): Promise<PriceCategory> {
  const priceCategory = await em.findOne(PriceCategory, { id, offer });
  if (!priceCategory) throw new NotFoundError('Price category not found');
  return priceCategory;
}

/** One page of an event's price categories, in id order, optionally only those with the given idAtProvider. */
export async function listPriceCategories(context: GraphContext, args: EventPageArgs): Promise<PriceCategory[]> {
  const { where, options } = await eventPageQuery(context, args);
  return context.em.find(PriceCategory, where, options);
}

/** The words naming a price category in a refusal: its label and its price. */
const labelAndPrice = (category: { label: string; price: number }) => `"${category.label}" at ${category.price} cents`;

/** Two price categories with the same label and price would be one tariff twice: 400 on `priceCategories`. */
export function checkLabelsAndPricesUnique(inputs: { label: string; price: number }[]): void {
  const seen = new Set<string>();
  for (const input of inputs) {
    const key = JSON.stringify([input.label, input.price]);
    if (seen.has(key)) {
      throw BadRequestError.on('priceCategories', `The price category ${labelAndPrice(input)} is given twice`);
    }
    seen.add(key);
  }
}

function duplicateIdAtProvider(field: string, idAtProvider: string): BadRequestError {
  return BadRequestError.on(field, `A price category of this event already has the idAtProvider "${idAtProvider}"`);
}

/**
 * Adds price categories to an event, all or none: at most 50 per event, each label and price
 * pair and each idAtProvider unique within the event (400 otherwise). Their fields met their
 * rules (inputRules.ts).
 */
export async function createPriceCategories(
  context: GraphContext,
  eventId: number,
  inputs: NewPriceCategory[],
): Promise<PriceCategory[]> {
  checkLabelsAndPricesUnique(inputs);
  const given = new Map<string, number>();
  inputs.forEach((input, index) => {
    if (input.idAtProvider == null) return;
    if (given.has(input.idAtProvider)) {
      throw BadRequestError.on(
        `priceCategories.${index}.idAtProvider`,
        `The idAtProvider "${input.idAtProvider}" is given twice`,
      );
    }
    given.set(input.idAtProvider, index);
  });

  return context.em.transactional(async (em) => {
    const offer = await offerInScope({ ...context, em }, eventId, 'event');
    await lockOfferForChanges(em, offer);
    const existing = await em.count(PriceCategory, { offer });
    if (existing + inputs.length > PRICE_CATEGORIES_MAX) {
      throw BadRequestError.on(
        'priceCategories',
        `An event has at most ${PRICE_CATEGORIES_MAX} price categories: this one has ${existing}, ${inputs.length} more would make ${existing + inputs.length}`,
      );
    }
    if (inputs.length > 0) {
      const same = await em.findOne(
        PriceCategory,
        { offer, $or: inputs.map(({ label, price }) => ({ label, price })) },
        { orderBy: { id: 'asc' } },
      );
      if (same) {
        throw BadRequestError.on('priceCategories', `The event already has the price category ${labelAndPrice(same)}`);
      }
    }
    if (given.size > 0) {
      const taken = await em.find(
        PriceCategory,
        { offer, idAtProvider: { $in: [...given.keys()] } },
        { orderBy: { id: 'asc' } },
      );
      if (taken.length > 0) {
        const idAtProvider = taken[0].idAtProvider!;
        throw duplicateIdAtProvider(`priceCategories.${given.get(idAtProvider)}.idAtProvider`, idAtProvider);
      }
    }
    const now = context.clock.now();
    const created = inputs.map((input) =>
      em.create(PriceCategory, {
        offer,
        label: input.label,
        price: input.price,
        idAtProvider: input.idAtProvider ?? null,
        createdAt: now,
      }),
    );
    await flushOrDuplicate(em, 'priceCategories');
    return created;
  });
}

/**
 * Edits one price category. A new price applies, in the same transaction, to its dates that
 * are not deleted and have not begun: a date already past keeps the price it was sold at.
 */
export async function updatePriceCategory(
  context: GraphContext,
  eventId: number,
  priceCategoryId: number,
  change: PriceCategoryChange,
): Promise<PriceCategory> {
  return context.em.transactional(async (em) => {
    const offer = await offerInScope({ ...context, em }, eventId, 'event');
    await lockOfferForChanges(em, offer);
    checkEditable(offer);
    const priceCategory = await priceCategoryOfOffer(em, offer, priceCategoryId);
    if (change.idAtProvider != null && change.idAtProvider !== priceCategory.idAtProvider) {
      const taken = await em.count(PriceCategory, {
        offer,
        idAtProvider: change.idAtProvider,
        id: { $ne: priceCategory.id },
      });
      if (taken > 0) throw duplicateIdAtProvider('idAtProvider', change.idAtProvider);
    }
    if (change.label != null) priceCategory.label = change.label;
    if (change.idAtProvider !== undefined) priceCategory.idAtProvider = change.idAtProvider;
    if (change.price != null && change.price !== priceCategory.price) {
      priceCategory.price = change.price;
      const now = context.clock.now();
      await em.nativeUpdate(
        Stock,
        { priceCategory: priceCategory.id, isDeleted: false, beginningDatetime: { $gt: now } },
        { price: change.price, updatedAt: now },
      );
    }
    await flushOrDuplicate(em, 'idAtProvider');
    return priceCategory;
  });
}

/**
 * The unique index on (offer, idAtProvider) settles what the check before it could not: a
 * concurrent request that took the identifier first. That is the client's 400, not a 500.
 */
async function flushOrDuplicate(em: EntityManager, field: string): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw BadRequestError.on(field, 'A price category of this event already has this idAtProvider');
    }
    throw error;
  }
}

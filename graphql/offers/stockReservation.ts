import { type EntityManager, type QueryResult, raw } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/knex';
import type { GraphContext } from '../shared/context.js';
import { BadRequestError, NotFoundError } from '../shared/errors.js';
import { reachableOffers } from './access.js';
import { offerStatus } from './status.js';
import { Stock } from './Stock.js';
import { stockSummaries } from './stockSummaries.js';

/**
 * The offers subgraph's service to the bookings subgraph: whether a stock can be booked, and
 * its places, reserved and released inside the booking's own transaction (`em`).
 */

/** The stock with its offer, if it is one of the offers the key reaches and can be booked now; 404 or 400 otherwise. */
export async function bookableStock(context: GraphContext, stockId: number, now: Date): Promise<Stock> {
  const stock = await context.em.findOne(
    Stock,
    { id: stockId, isDeleted: false, offer: reachableOffers(context) },
    { populate: ['offer', 'offer.address', 'offer.venue', 'offer.venue.address', 'priceCategory'] },
  );
  if (!stock) throw new NotFoundError('Stock not found');
  const em = context.em;
  const status = offerStatus(stock.offer, (await stockSummaries(em, [stock.offer.id], now)).get(stock.offer.id)!);
  if (status !== 'ACTIVE' && status !== 'SOLD_OUT') {
    throw BadRequestError.on('stockId', `The offer is ${status}: it cannot be booked`);
  }
  if (stock.bookingLimitDatetime && stock.bookingLimitDatetime.getTime() <= now.getTime()) {
    throw BadRequestError.on('stockId', 'The booking limit of this stock has passed');
  }
  if (stock.beginningDatetime && stock.beginningDatetime.getTime() <= now.getTime()) {
    throw BadRequestError.on('stockId', 'This date has begun');
  }
  return stock;
}

/**
 * Reserves places with one conditional UPDATE: it succeeds only while the stock has them, and
 * the row lock it takes makes concurrent reservations wait for each other, so a stock is never
 * oversold. Returns whether the places were reserved.
 */
export async function reservePlaces(em: EntityManager, stockId: number, quantity: number): Promise<boolean> {
  const result = await (em as SqlEntityManager)
    .createQueryBuilder(Stock)
    .update({ bookedQuantity: raw('booked_quantity + ?', [quantity]) })
    .where({ id: stockId, isDeleted: false })
    .andWhere('(quantity is null or quantity - booked_quantity >= ?)', [quantity])
    .execute<QueryResult>('run');
  return Number(result.affectedRows ?? 0) === 1;
}

/** Gives places back (a cancelled booking); never below zero. */
export async function releasePlaces(em: EntityManager, stockId: number, quantity: number): Promise<void> {
  await (em as SqlEntityManager)
    .createQueryBuilder(Stock)
    .update({
      bookedQuantity: raw('case when booked_quantity >= ? then booked_quantity - ? else 0 end', [quantity, quantity]),
    })
    .where({ id: stockId })
    .execute('run');
}

/**
 * What a ticketing system says is left: the stock then holds the places booked here plus those;
 * null (the ticketing system counts no limit) makes the stock unlimited.
 */
export async function setRemainingPlaces(em: EntityManager, stockId: number, remaining: number | null): Promise<void> {
  await (em as SqlEntityManager)
    .createQueryBuilder(Stock)
    .update({ quantity: remaining === null ? null : raw('booked_quantity + ?', [Math.max(0, remaining)]) })
    .where({ id: stockId, isDeleted: false })
    .execute('run');
}

import { wrap } from '@mikro-orm/core';
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { EventPageArgs } from '../eventPage.js';
import { DATES_PER_CALL_MAX, DATES_PER_OFFER_MAX } from '../limits.js';
import { PriceCategory } from '../PriceCategory.js';
import { Stock } from '../Stock.js';
import { type CreatedDate, createDates } from './dateCreation.js';
import { deleteDate, listDates, updateDate } from './eventDates.js';
import { remainingQuantity } from './rules.js';
import { EventDateCreationInput, EventDateEditionInput, type Quantity, QuantityScalar } from './types.js';

/** The dates of an event: stocks with a beginning, a price category and a quantity. */
@Resolver(() => Stock)
export class DateResolver {
  @Query(() => [Stock], { description: "A page of an event's dates (deleted ones never appear), in id order." })
  eventDates(@Ctx() context: GraphContext, @Args(() => EventPageArgs) args: EventPageArgs): Promise<Stock[]> {
    return listDates(context, args);
  }

  @Mutation(() => [Stock], {
    description: `Creates up to ${DATES_PER_CALL_MAX} dates of an event (${DATES_PER_OFFER_MAX} per event in total), all or none; in the order given.`,
  })
  createEventDates(
    @Ctx() context: GraphContext,
    @Arg('eventId', () => Int) eventId: number,
    @Arg('dates', () => [EventDateCreationInput]) dates: EventDateCreationInput[],
  ): Promise<CreatedDate[]> {
    return createDates(context, eventId, dates);
  }

  @Mutation(() => Stock, { description: 'Edits a date of an event; a beginningDatetime sent reschedules it.' })
  updateEventDate(
    @Ctx() context: GraphContext,
    @Arg('eventId', () => Int) eventId: number,
    @Arg('stockId', () => Int) stockId: number,
    @Arg('input', () => EventDateEditionInput) input: EventDateEditionInput,
  ): Promise<Stock> {
    return updateDate(context, eventId, stockId, input);
  }

  @Mutation(() => Boolean, {
    description: 'Deletes a date of an event (its unused bookings are cancelled); true once done.',
  })
  async deleteEventDate(
    @Ctx() context: GraphContext,
    @Arg('eventId', () => Int) eventId: number,
    @Arg('stockId', () => Int) stockId: number,
  ): Promise<boolean> {
    await deleteDate(context, eventId, stockId);
    return true;
  }

  @FieldResolver(() => PriceCategory, {
    nullable: true,
    description: 'The price category of an event date; null for a product stock.',
  })
  priceCategory(
    @Root() stock: Pick<Stock, 'priceCategory'>,
    @Ctx() context: GraphContext,
  ): PriceCategory | null | Promise<PriceCategory> {
    const priceCategory = stock.priceCategory;
    if (!priceCategory) return null;
    // Synchronous when loaded (always, for the facade's operations): a promise per date would
    // make GraphQL complete 2500 dates asynchronously.
    if (wrap(priceCategory).isInitialized()) return priceCategory;
    return context.em.findOneOrFail(PriceCategory, priceCategory.id);
  }

  @FieldResolver(() => QuantityScalar, {
    description: 'Places still on sale (quantity minus bookedQuantity), or "unlimited".',
  })
  remainingQuantity(@Root() stock: Pick<Stock, 'quantity' | 'bookedQuantity'>): Quantity {
    return remainingQuantity(stock);
  }
}

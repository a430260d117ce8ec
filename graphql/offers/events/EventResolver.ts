import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { offerInScope, offerViewInScope } from '../access.js';
import { Offer } from '../Offer.js';
import { PriceCategory } from '../PriceCategory.js';
import { createEvent, editEvent } from './eventService.js';
import { EventCreateInput, EventEditInput } from './inputs.js';
import { forgetOffers, priceCategoriesOf, type PriceCategoryView } from '../offerBatch.js';
import { OfferPageArgs, readOfferKindPage } from '../offerPage.js';

@Resolver(() => Offer)
export class EventResolver {
  @Query(() => [Offer], { description: 'Event offers of the calling provider, one page in id order.' })
  events(@Ctx() context: GraphContext, @Args(() => OfferPageArgs) args: OfferPageArgs): Promise<Offer[]> {
    return readOfferKindPage(context, true, args);
  }

  @Query(() => Offer, { description: 'An event offer of the calling provider.' })
  event(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Offer> {
    return offerViewInScope(context, id, 'event');
  }

  @Mutation(() => Offer, { description: 'Creates an event offer, with its price categories.' })
  async createEvent(
    @Ctx() context: GraphContext,
    @Arg('input', () => EventCreateInput) input: EventCreateInput,
  ): Promise<Offer> {
    return createEvent(context, input);
  }

  @Mutation(() => Offer, { description: 'Changes an event offer: fields left out stay as they are.' })
  async editEvent(
    @Ctx() context: GraphContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => EventEditInput) input: EventEditInput,
  ): Promise<Offer> {
    const offer = await offerInScope(context, id, 'event');
    const edited = await editEvent(context, offer, input);
    forgetOffers(context);
    return edited;
  }

  @FieldResolver(() => [PriceCategory])
  priceCategories(@Root() offer: Offer, @Ctx() context: GraphContext): Promise<PriceCategoryView[]> {
    return priceCategoriesOf(context, offer.id);
  }
}

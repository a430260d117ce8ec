import { Arg, Args, Ctx, Field, InputType, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { EventPageArgs } from '../eventPage.js';
import { ID_AT_PROVIDER_MAX_LENGTH, PRICE_CATEGORY_LABEL_MAX_LENGTH, PRICE_MAX_CENTS } from '../limits.js';
import { PriceCategory } from '../PriceCategory.js';
import { createPriceCategories, listPriceCategories, updatePriceCategory } from './eventPriceCategories.js';

@InputType({
  description: `A new price category: label 1 to ${PRICE_CATEGORY_LABEL_MAX_LENGTH} characters, price in euro cents from 0 to ${PRICE_MAX_CENTS}.`,
})
export class PriceCategoryCreationInput {
  @Field(() => String)
  label!: string;

  @Field(() => Int, { description: 'Euro cents.' })
  price!: number;

  @Field(() => String, {
    nullable: true,
    description: `Your own identifier, unique within the event; at most ${ID_AT_PROVIDER_MAX_LENGTH} characters.`,
  })
  idAtProvider?: string | null;
}

@InputType({
  description:
    'Changes to a price category: absent fields stay; idAtProvider null clears it; label and price may not be null.',
})
export class PriceCategoryEditionInput {
  @Field(() => String, { nullable: true })
  label?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Euro cents; the non-deleted dates of the category take the new price.',
  })
  price?: number | null;

  @Field(() => String, { nullable: true })
  idAtProvider?: string | null;
}

@Resolver(() => PriceCategory)
export class PriceCategoryResolver {
  @Query(() => [PriceCategory], { description: "A page of an event's price categories, in id order." })
  eventPriceCategories(
    @Ctx() context: GraphContext,
    @Args(() => EventPageArgs) args: EventPageArgs,
  ): Promise<PriceCategory[]> {
    return listPriceCategories(context, args);
  }

  @Mutation(() => [PriceCategory], {
    description: 'Adds price categories to an event (at most 50 per event), all or none.',
  })
  createEventPriceCategories(
    @Ctx() context: GraphContext,
    @Arg('eventId', () => Int) eventId: number,
    @Arg('priceCategories', () => [PriceCategoryCreationInput]) priceCategories: PriceCategoryCreationInput[],
  ): Promise<PriceCategory[]> {
    return createPriceCategories(context, eventId, priceCategories);
  }

  @Mutation(() => PriceCategory, {
    description: "Edits a price category of an event; a new price applies to the category's dates.",
  })
  updateEventPriceCategory(
    @Ctx() context: GraphContext,
    @Arg('eventId', () => Int) eventId: number,
    @Arg('priceCategoryId', () => Int) priceCategoryId: number,
    @Arg('input', () => PriceCategoryEditionInput) input: PriceCategoryEditionInput,
  ): Promise<PriceCategory> {
    return updatePriceCategory(context, eventId, priceCategoryId, input);
  }
}

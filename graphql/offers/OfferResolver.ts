import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { ProviderReference, referenceTo, VenueReference } from '../shared/references.js';
import { offerInScope, requireActiveVenueLink } from './access.js';
import { Offer } from './Offer.js';
import { statusStocksOf } from './offerBatch.js';
import { setOfferImage, storeBase64Image } from './offerImage.js';
import { OfferImage } from './OfferImageType.js';
import { offerStatus, OfferStatusEnum } from './status.js';
import type { OfferStatus } from './catalogue/index.js';

@Resolver(() => Offer)
export class OfferResolver {
  @Query(() => Offer, { description: 'An individual offer (event or product) the calling key reaches.' })
  offer(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Offer> {
    return offerInScope(context, id);
  }

  @Mutation(() => Offer, {
    description:
      "Sets an offer's image (event or product): PNG or JPEG, 400x600 to 800x1200, portrait 2:3, at most 10 MB.",
  })
  async setOfferImage(
    @Ctx() context: GraphContext,
    @Arg('offerId', () => Int) offerId: number,
    @Arg('file', () => String, { description: 'The image, base64-encoded.' }) file: string,
    @Arg('credit', () => String, { nullable: true }) credit: string | null,
  ): Promise<Offer> {
    const offer = await offerInScope(context, offerId);
    await requireActiveVenueLink(context, offer.venue.id, 'any');
    setOfferImage(offer, await storeBase64Image(context, { file, credit }, ['file']));
    offer.updatedAt = context.clock.now();
    await context.em.flush();
    return offer;
  }

  @FieldResolver(() => VenueReference)
  venue(@Root() offer: Offer): VenueReference | null {
    return referenceTo(offer.venue);
  }

  @FieldResolver(() => OfferStatusEnum, {
    description: 'PENDING, REJECTED, INACTIVE, SCHEDULED, PUBLISHED, ACTIVE, SOLD_OUT or EXPIRED.',
  })
  async status(@Root() offer: Offer, @Ctx() context: GraphContext): Promise<OfferStatus> {
    return offerStatus(offer, await statusStocksOf(context, offer));
  }

  @FieldResolver(() => GraphQLJSONObject, {
    name: 'categoryRelatedFields',
    description: 'The category and its related fields.',
  })
  categoryRelatedFieldsWithCategory(@Root() offer: Offer): Record<string, unknown> {
    return { category: offer.category, ...offer.categoryRelatedFields };
  }

  @FieldResolver(() => OfferImage, { nullable: true })
  image(@Root() offer: Offer, @Ctx() context: GraphContext): OfferImage | null {
    return offer.imageKey ? { url: context.services.images.urlOf(offer.imageKey), credit: offer.imageCredit } : null;
  }

  @FieldResolver(() => ProviderReference, { description: 'The provider that sent the offer.' })
  provider(@Root() offer: Offer): ProviderReference | null {
    return referenceTo(offer.provider);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Why the offer was rejected (status REJECTED), as the reviewer wrote it.',
  })
  validationReason(@Root() offer: Offer): string | null {
    return offer.validation === 'REJECTED' ? offer.validationReason : null;
  }

  @FieldResolver(() => Int, { description: 'How many dates an event has (stocks not deleted); a product, 0 or 1.' })
  async stockCount(@Root() offer: Offer, @Ctx() context: GraphContext): Promise<number> {
    return (await statusStocksOf(context, offer)).count;
  }

  @FieldResolver(() => Int)
  venueId(@Root() offer: Offer): number {
    return offer.venue.id;
  }

  @FieldResolver(() => Int, { nullable: true })
  addressId(@Root() offer: Offer): number | null {
    return offer.address?.id ?? null;
  }
}

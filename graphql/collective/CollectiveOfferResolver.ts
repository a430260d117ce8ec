import { Arg, Ctx, Field, FieldResolver, Float, InputType, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { referenceTo, VenueReference } from '../shared/references.js';
import { callerProviderId } from '../offers/access.js';
import { venueInScope } from '../providers/access.js';
import { CollectiveBooking } from './CollectiveBooking.js';
import { CollectiveOffer } from './CollectiveOffer.js';
import { collectiveOfferViewForCaller, withLockedCollectiveOffer } from './access.js';
import { isView } from '../../platform/sql/entityViews.js';
import {
  type CollectiveDisplayedStatus,
  CollectiveDisplayedStatusEnum,
  type CollectiveLegacyStatus,
  CollectiveLegacyStatusEnum,
  collectiveDisplayedStatus,
  collectiveLegacyStatus,
  lastBookingOf,
} from './displayedStatus.js';
import { CollectiveOfferInput } from './inputs.js';
import { archiveCollectiveOffers, createCollectiveOffer, editCollectiveOffer } from './offerService.js';
import { NationalProgram } from './reference/entities.js';
import { CollectiveOfferLocation, CollectiveOfferVenue, locationOf, offerVenueOf } from './views.js';
import { CollectiveOfferSummary, readCollectiveOfferSummaries } from './offerSummaries.js';

@InputType({ description: 'Filters of the collective offer list; all optional.' })
export class CollectiveOfferFilter {
  @Field(() => String, { nullable: true, description: 'A displayed status (PUBLISHED, BOOKED, ...).' })
  offerStatus?: string | null;

  @Field(() => String, { nullable: true, description: 'A deprecated status (ACTIVE, SOLD_OUT, ...).' })
  status?: string | null;

  @Field(() => Int, { nullable: true })
  venueId?: number | null;

  @Field(() => String, { nullable: true, description: 'Offers starting at or after this moment (ISO 8601).' })
  periodBeginning?: string | null;

  @Field(() => String, { nullable: true, description: 'Offers starting at or before this moment (ISO 8601).' })
  periodEnding?: string | null;
}

function displayedStatusOf(context: GraphContext, offer: CollectiveOffer): CollectiveDisplayedStatus {
  return collectiveDisplayedStatus(offer, lastBookingOf(offer.bookings.getItems()), context.clock.now());
}

@Resolver(() => CollectiveOffer)
export class CollectiveOfferResolver {
  @Query(() => [CollectiveOfferSummary], {
    description:
      'The collective offers the calling provider created (internal keys: all), in id order, as the list shows ' +
      'them: the first 500 that match.',
  })
  async collectiveOfferSummaries(
    @Ctx() context: GraphContext,
    @Arg('filter', () => CollectiveOfferFilter, { nullable: true }) filter: CollectiveOfferFilter | null,
  ): Promise<CollectiveOfferSummary[]> {
    if (filter?.venueId != null) await venueInScope(context.em, context.caller, filter.venueId);
    return readCollectiveOfferSummaries(context, filter);
  }

  @Query(() => [CollectiveOffer], {
    description:
      'The collective offers the calling provider created (internal keys: all), in id order, with every field: ' +
      'the first 500 that match.',
  })
  async collectiveOffers(
    @Ctx() context: GraphContext,
    @Arg('filter', () => CollectiveOfferFilter, { nullable: true }) filter: CollectiveOfferFilter | null,
  ): Promise<CollectiveOffer[]> {
    const ids = (await this.collectiveOfferSummaries(context, filter)).map((summary) => summary.id);
    return context.em.find(
      CollectiveOffer,
      { id: { $in: ids } },
      { populate: ['bookings'], orderBy: { id: 'asc' }, strategy: 'select-in' },
    );
  }

  @Query(() => CollectiveOffer, {
    description: 'A collective offer of the calling provider (another provider’s: forbidden).',
  })
  collectiveOffer(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<CollectiveOffer> {
    return collectiveOfferViewForCaller(context, id);
  }

  @Mutation(() => CollectiveOffer, {
    description: 'Creates a collective offer; it is reviewed (UNDER_REVIEW) before schools see it.',
  })
  createCollectiveOffer(
    @Ctx() context: GraphContext,
    @Arg('input', () => CollectiveOfferInput) input: CollectiveOfferInput,
  ): Promise<CollectiveOffer> {
    return createCollectiveOffer(context, input);
  }

  @Mutation(() => CollectiveOffer, {
    description: 'Changes the fields sent, as far as the offer’s displayed status allows.',
  })
  async editCollectiveOffer(
    @Ctx() context: GraphContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => CollectiveOfferInput) input: CollectiveOfferInput,
  ): Promise<CollectiveOffer> {
    callerProviderId(context);
    return withLockedCollectiveOffer(context, id, (scoped, offer) => editCollectiveOffer(scoped, offer, input));
  }

  @Mutation(() => Boolean, { description: 'Archives collective offers, all or none.' })
  async archiveCollectiveOffers(
    @Ctx() context: GraphContext,
    @Arg('ids', () => [Int]) ids: number[],
  ): Promise<boolean> {
    await archiveCollectiveOffers(context, ids);
    return true;
  }

  @FieldResolver(() => VenueReference)
  venue(@Root() offer: CollectiveOffer): VenueReference | null {
    return referenceTo(offer.venue);
  }

  @FieldResolver(() => Int)
  venueId(@Root() offer: CollectiveOffer): number {
    return offer.venue.id;
  }

  @FieldResolver(() => CollectiveDisplayedStatusEnum, {
    description:
      'PUBLISHED, UNDER_REVIEW, REJECTED, PREBOOKED, BOOKED, HIDDEN, EXPIRED, ENDED, CANCELLED, REIMBURSED, ARCHIVED or DRAFT.',
  })
  displayedStatus(@Root() offer: CollectiveOffer, @Ctx() context: GraphContext): CollectiveDisplayedStatus {
    return displayedStatusOf(context, offer);
  }

  @FieldResolver(() => CollectiveLegacyStatusEnum, { description: 'Deprecated: derived from the displayed status.' })
  status(@Root() offer: CollectiveOffer, @Ctx() context: GraphContext): CollectiveLegacyStatus {
    return collectiveLegacyStatus(displayedStatusOf(context, offer));
  }

  @FieldResolver(() => [CollectiveBooking])
  async bookings(@Root() offer: CollectiveOffer): Promise<CollectiveBooking[]> {
    if (!offer.bookings.isInitialized()) await offer.bookings.init();
    return offer.bookings.getItems();
  }

  @FieldResolver(() => Float, { description: 'Euros.' })
  totalPrice(@Root() offer: CollectiveOffer): number {
    return offer.totalPriceCents / 100;
  }

  @FieldResolver(() => Boolean)
  hasBookingLimitDatetimesPassed(@Root() offer: CollectiveOffer, @Ctx() context: GraphContext): boolean {
    return context.clock.now().getTime() > offer.bookingLimitDatetime.getTime();
  }

  @FieldResolver(() => Boolean, { description: 'A school holds a booking that is not cancelled.' })
  async isSoldOut(@Root() offer: CollectiveOffer): Promise<boolean> {
    return (await this.bookings(offer)).some((booking) => booking.status !== 'CANCELLED');
  }

  @FieldResolver(() => String, { nullable: true, description: 'The UAI of the institution the offer is meant for.' })
  async educationalInstitution(@Root() offer: CollectiveOffer, @Ctx() context: GraphContext): Promise<string | null> {
    if (!offer.institution) return null;
    if (isView(offer)) return offer.institution.uai;
    return (await context.em.populate(offer, ['institution'])).institution?.uai ?? null;
  }

  @FieldResolver(() => Int, { nullable: true })
  educationalInstitutionId(@Root() offer: CollectiveOffer): number | null {
    return offer.institution?.id ?? null;
  }

  @FieldResolver(() => String, { nullable: true })
  educationalPriceDetail(@Root() offer: CollectiveOffer): string | null {
    return offer.priceDetail;
  }

  @FieldResolver(() => NationalProgram, { nullable: true })
  async nationalProgram(@Root() offer: CollectiveOffer, @Ctx() context: GraphContext): Promise<NationalProgram | null> {
    if (!offer.nationalProgram || isView(offer)) return offer.nationalProgram;
    return (await context.em.populate(offer, ['nationalProgram'])).nationalProgram;
  }

  @FieldResolver(() => String, { nullable: true })
  imageUrl(@Root() offer: CollectiveOffer, @Ctx() context: GraphContext): string | null {
    return offer.imageKey ? context.services.images.urlOf(offer.imageKey) : null;
  }

  @FieldResolver(() => CollectiveOfferLocation)
  location(@Root() offer: CollectiveOffer): CollectiveOfferLocation {
    return locationOf(offer);
  }

  @FieldResolver(() => CollectiveOfferVenue, { description: 'Deprecated: derived from the location.' })
  async offerVenue(@Root() offer: CollectiveOffer, @Ctx() context: GraphContext): Promise<CollectiveOfferVenue> {
    if (offer.address && !isView(offer)) await context.em.populate(offer, ['address']);
    return offerVenueOf(offer);
  }
}

import {
  Arg,
  Ctx,
  Field,
  FieldResolver,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { offerViewInScope, reachableOfferConditions, reachableOffers } from '../offers/access.js';
import type { GraphContext } from '../shared/context.js';
import { NotFoundError } from '../shared/errors.js';
import { requireRole } from '../shared/internalOnly.js';
import { PageInput, pageQuery } from '../shared/pagination.js';
import { OfferReference, referenceTo } from '../shared/references.js';
import { Booking, type BookingStatus } from './Booking.js';
import { readBookingViews, ProviderBooking } from './bookingViews.js';
import { BookingTicket } from './BookingTicket.js';
import { checkMove } from './bookingTransitions.js';
import {
  cancelByVenue,
  COUNTERMARK_NOT_FOUND,
  keepBooking,
  requireActiveVenueLink,
  useBooking,
} from './countermarks.js';
import { ProviderMessage } from './ProviderMessage.js';
import { StaffOnly } from '../shared/staffOnly.js';

/** A booking of an offer the key reaches (its provider's, on its offerer's venues), or 404. */
export async function bookingInScope(context: GraphContext, id: number): Promise<Booking> {
  const booking = await context.em.findOne(Booking, { id, offer: reachableOffers(context) });
  if (!booking) throw new NotFoundError('Booking not found');
  return booking;
}

@InputType({ description: 'Filters of the bookings of an offer.' })
export class BookingFiltersInput {
  @Field(() => Int, { nullable: true })
  stockId?: number | null;

  @Field(() => Int, { nullable: true })
  priceCategoryId?: number | null;

  @Field(() => String, { nullable: true, description: 'CONFIRMED, USED, CANCELLED or REIMBURSED.' })
  status?: BookingStatus | null;

  @Field(() => Date, { nullable: true, description: 'Bookings of the dates beginning at this moment.' })
  beginningDatetime?: Date | null;
}

@Resolver(() => Booking)
export class BookingResolver {
  @Query(() => Booking, { description: "A booking of one of the calling provider's offers." })
  booking(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Booking> {
    return bookingInScope(context, id);
  }

  @Query(() => [ProviderBooking], { description: 'The bookings of one of your offers, one page in id order.' })
  async offerBookings(
    @Ctx() context: GraphContext,
    @Arg('offerId', () => Int) offerId: number,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
    @Arg('filters', () => BookingFiltersInput, { nullable: true }) filters: BookingFiltersInput | null,
  ): Promise<ProviderBooking[]> {
    const offer = await offerViewInScope(context, offerId);
    await requireActiveVenueLink(context, offer.venue.id, 'Offer not found');
    const { where, options } = pageQuery(page ?? new PageInput());
    return readBookingViews(context.em, {
      offerId,
      firstIndex: where.id.$gte,
      limit: options.limit,
      ...(filters ?? {}),
    });
  }

  @Query(() => ProviderBooking, {
    description:
      'The booking behind a countermark, if it can be handed over: used or cancelled is 410, reimbursed or still cancellable 403.',
  })
  async bookingByToken(
    @Ctx() context: GraphContext,
    @Arg('token', () => String) token: string,
  ): Promise<ProviderBooking> {
    const [view] = await readBookingViews(context.em, {
      token: token.toUpperCase(),
      offerScope: reachableOfferConditions(context),
    });
    if (!view) throw new NotFoundError(COUNTERMARK_NOT_FOUND);
    await requireActiveVenueLink(context, view.venueId, COUNTERMARK_NOT_FOUND);
    // A lookup answers as a validation would: a booking that could not be used is refused.
    checkMove(view, 'use', context.clock.now());
    return view;
  }

  @Mutation(() => Booking, {
    description: 'Validates a countermark: the beneficiary has received the booking (CONFIRMED -> USED).',
  })
  useBooking(@Ctx() context: GraphContext, @Arg('token', () => String) token: string): Promise<Booking> {
    return useBooking(context, token);
  }

  @Mutation(() => Booking, { description: 'Undoes a validation (USED -> CONFIRMED).' })
  keepBooking(@Ctx() context: GraphContext, @Arg('token', () => String) token: string): Promise<Booking> {
    return keepBooking(context, token);
  }

  @Mutation(() => Booking, {
    description:
      'Cancels a booking (a product at any time, an event within its cancellation period); refunds the beneficiary.',
  })
  cancelBooking(@Ctx() context: GraphContext, @Arg('token', () => String) token: string): Promise<Booking> {
    return cancelByVenue(context, token);
  }

  @StaffOnly()
  @Query(() => [ProviderMessage], {
    description: "Internal tools: the messages sent to a booking's provider, and what became of them.",
  })
  async bookingMessages(
    @Ctx() context: GraphContext,
    @Arg('bookingId', () => Int) bookingId: number,
  ): Promise<ProviderMessage[]> {
    requireRole(context.caller, 'support', 'read message deliveries');
    const booking = await context.em.findOne(Booking, bookingId);
    if (!booking) throw new NotFoundError('Booking not found');
    return context.em.find(ProviderMessage, { booking: bookingId }, { orderBy: { id: 'asc' } });
  }

  @FieldResolver(() => OfferReference)
  offer(@Root() booking: Booking): OfferReference | null {
    return referenceTo(booking.offer);
  }

  @FieldResolver(() => Int)
  stockId(@Root() booking: Booking): number {
    return booking.stock.id;
  }

  @FieldResolver(() => [BookingTicket], {
    description: "Tickets of the provider's ticketing system: the countermark of such a booking.",
  })
  tickets(@Root() booking: Booking, @Ctx() context: GraphContext): Promise<BookingTicket[]> {
    return context.em.find(BookingTicket, { booking: booking.id }, { orderBy: { id: 'asc' } });
  }
}

@ObjectType({ description: 'What a run of the scheduled jobs changed.' })
export class TransitionRunAnswer {
  @Field(() => Int, { description: 'Event bookings marked USED 48 hours after their event.' })
  used!: number;

  @Field(() => Int, { description: 'Product bookings cancelled because they were not picked up in time.' })
  expired!: number;

  @Field(() => Int, { description: 'USED bookings marked REIMBURSED.' })
  reimbursed!: number;

  @Field(() => Int, { description: 'Individual offers approved, their automatic approval being due.' })
  approved!: number;

  @Field(() => Int, { description: 'Collective offers approved, their automatic approval being due.' })
  collectiveApproved!: number;

  @Field(() => Int, { description: 'Individual offers published, their publicationDatetime having come.' })
  published!: number;

  @Field(() => Int, { description: 'Bulk upserts by EAN applied.' })
  productImports!: number;
}

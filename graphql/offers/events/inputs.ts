import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int } from 'type-graphql';

@InputType()
export class AccessibilityInput {
  @Field(() => Boolean, { nullable: true })
  audioDisabilityCompliant?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  mentalDisabilityCompliant?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  motorDisabilityCompliant?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  visualDisabilityCompliant?: boolean | null;
}

@InputType({ description: 'physical (at the venue), digital (url) or address (addressId).' })
export class OfferLocationInput {
  @Field(() => String)
  type!: 'physical' | 'digital' | 'address';

  @Field(() => Int)
  venueId!: number;

  @Field(() => String, { nullable: true })
  url?: string | null;

  @Field(() => Int, { nullable: true })
  addressId?: number | null;

  @Field(() => String, { nullable: true })
  addressLabel?: string | null;
}

@InputType()
export class OfferImageInput {
  @Field(() => String, { description: 'Base64 PNG or JPEG.' })
  file!: string;

  @Field(() => String, { nullable: true })
  credit?: string | null;
}

@InputType()
export class NewEventPriceCategoryInput {
  @Field(() => String)
  label!: string;

  @Field(() => Int, { description: 'Euro cents.' })
  price!: number;

  @Field(() => String, { nullable: true })
  idAtProvider?: string | null;
}

/**
 * Fields shared by creation and edition; absent means default (creation) or unchanged
 * (edition). Not emitted on its own: only its subclasses are referenced.
 */
@InputType()
class EventFields {
  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true })
  bookingContact?: string | null;

  @Field(() => String, { nullable: true })
  bookingEmail?: string | null;

  @Field(() => Boolean, { nullable: true })
  enableDoubleBookings?: boolean | null;

  @Field(() => Int, { nullable: true, description: 'Minutes.' })
  eventDuration?: number | null;

  @Field(() => String, { nullable: true })
  externalTicketOfficeUrl?: string | null;

  @Field(() => String, { nullable: true })
  idAtProvider?: string | null;

  @Field(() => OfferImageInput, { nullable: true })
  image?: OfferImageInput | null;

  @Field(() => String, { nullable: true })
  itemCollectionDetails?: string | null;

  @Field(() => String, { nullable: true, description: 'A timezone-aware ISO 8601 datetime, or `now`; null never publishes.' })
  publicationDatetime?: string | null;

  @Field(() => String, { nullable: true, description: 'A timezone-aware ISO 8601 datetime; null opens booking with the publication.' })
  bookingAllowedDatetime?: string | null;

  @Field(() => String, { nullable: true, description: 'A public video page on a video-sharing site; null removes it.' })
  videoUrl?: string | null;
}

@InputType({ description: 'A new event offer.' })
export class EventCreateInput extends EventFields {
  @Field(() => String)
  name!: string;

  @Field(() => AccessibilityInput)
  accessibility!: AccessibilityInput;

  @Field(() => GraphQLJSONObject, { description: 'The category and its related fields.' })
  categoryRelatedFields!: Record<string, unknown>;

  @Field(() => OfferLocationInput)
  location!: OfferLocationInput;

  @Field(() => Boolean)
  hasTicket!: boolean;

  @Field(() => [NewEventPriceCategoryInput], { nullable: true })
  priceCategories?: NewEventPriceCategoryInput[] | null;
}

@InputType({ description: 'Changes to an event offer: leave a field out to keep it.' })
export class EventEditInput extends EventFields {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => AccessibilityInput, { nullable: true })
  accessibility?: AccessibilityInput | null;

  @Field(() => GraphQLJSONObject, { nullable: true })
  categoryRelatedFields?: Record<string, unknown> | null;

  @Field(() => OfferLocationInput, { nullable: true })
  location?: OfferLocationInput | null;

  @Field(() => Boolean, { nullable: true })
  hasTicket?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;
}

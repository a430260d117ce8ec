import { GraphQLJSONObject } from 'graphql-scalars';
import { type ClassType, Field, InputType, Int } from 'type-graphql';

/** Inputs that events and products share. */

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

/**
 * Fields events and products share in creation and edition; absent means default (creation)
 * or unchanged (edition). Not emitted on its own: only its subclasses are referenced.
 */
@InputType()
export class OfferFields {
  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true })
  bookingContact?: string | null;

  @Field(() => String, { nullable: true })
  bookingEmail?: string | null;

  @Field(() => Boolean, { nullable: true })
  enableDoubleBookings?: boolean | null;

  @Field(() => String, { nullable: true })
  externalTicketOfficeUrl?: string | null;

  @Field(() => String, { nullable: true })
  idAtProvider?: string | null;

  @Field(() => OfferImageInput, { nullable: true })
  image?: OfferImageInput | null;

  @Field(() => String, { nullable: true })
  itemCollectionDetails?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'A timezone-aware ISO 8601 datetime, or `now`; null never publishes.',
  })
  publicationDatetime?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'A timezone-aware ISO 8601 datetime; null opens booking with the publication.',
  })
  bookingAllowedDatetime?: string | null;
}

/**
 * The fields every new offer requires, added after those of `base` (the shared fields, and an
 * event's own): what the creation inputs of events and products start with. Like OfferFields,
 * the class is not emitted on its own: only its subclasses are referenced.
 */
export function withOfferCreationFields<Base extends ClassType<OfferFields>>(base: Base) {
  @InputType()
  class OfferCreationFields extends base {
    @Field(() => String)
    name!: string;

    @Field(() => AccessibilityInput)
    accessibility!: AccessibilityInput;

    @Field(() => GraphQLJSONObject, { description: 'The category and its related fields.' })
    categoryRelatedFields!: Record<string, unknown>;

    @Field(() => OfferLocationInput)
    location!: OfferLocationInput;
  }
  return OfferCreationFields;
}

/** The same fields in an edition, where each is left out to keep it: what edition inputs start with. */
export function withOfferEditionFields<Base extends ClassType<OfferFields>>(base: Base) {
  @InputType()
  class OfferEditionFields extends base {
    @Field(() => String, { nullable: true })
    name?: string | null;

    @Field(() => AccessibilityInput, { nullable: true })
    accessibility?: AccessibilityInput | null;

    @Field(() => GraphQLJSONObject, { nullable: true })
    categoryRelatedFields?: Record<string, unknown> | null;

    @Field(() => OfferLocationInput, { nullable: true })
    location?: OfferLocationInput | null;
  }
  return OfferEditionFields;
}

import { Field, Float, InputType, Int } from 'type-graphql';

@InputType({
  description:
    'SCHOOL (at the school); ADDRESS with isVenueAddress true (at the venue) or false (addressId, optional addressLabel); ' +
    'TO_BE_DEFINED (optional comment).',
})
export class CollectiveLocationInput {
  @Field(() => String)
  type!: 'SCHOOL' | 'ADDRESS' | 'TO_BE_DEFINED';

  @Field(() => Boolean, { nullable: true })
  isVenueAddress?: boolean | null;

  @Field(() => Int, { nullable: true })
  addressId?: number | null;

  @Field(() => String, { nullable: true })
  addressLabel?: string | null;

  @Field(() => String, { nullable: true })
  comment?: string | null;

  @Field(() => Int, {
    nullable: true,
    description:
      'With ADDRESS and isVenueAddress true: the venue (of yours) whose address it is, when not the offer’s own ' +
      '(the deprecated offerVenue’s offererVenue names it).',
  })
  venueId?: number | null;
}

/**
 * A collective offer's fields, for creation (where the service requires the mandatory ones)
 * and for edition (absent: unchanged; null: cleared where the field may be empty).
 */
@InputType()
export class CollectiveOfferInput {
  @Field(() => Int, { nullable: true })
  venueId?: number | null;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => [String], { nullable: true, description: 'EacFormat values.' })
  formats?: string[] | null;

  @Field(() => [String], { nullable: true })
  bookingEmails?: string[] | null;

  @Field(() => String, { nullable: true })
  contactEmail?: string | null;

  @Field(() => String, { nullable: true })
  contactPhone?: string | null;

  @Field(() => [Int], { nullable: true, description: 'Educational domain ids.' })
  domains?: number[] | null;

  @Field(() => [String], { nullable: true, description: 'Student level ids, such as COLLEGE6.' })
  students?: string[] | null;

  @Field(() => [String], { nullable: true })
  interventionArea?: string[] | null;

  @Field(() => CollectiveLocationInput, { nullable: true })
  location?: CollectiveLocationInput | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601 datetime.' })
  startDatetime?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601 datetime; the start by default.' })
  endDatetime?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601 datetime, not after the start.' })
  bookingLimitDatetime?: string | null;

  @Field(() => Float, { nullable: true, description: 'Euros.' })
  totalPrice?: number | null;

  @Field(() => Int, { nullable: true })
  numberOfTickets?: number | null;

  @Field(() => String, { nullable: true })
  educationalPriceDetail?: string | null;

  @Field(() => Int, { nullable: true })
  durationMinutes?: number | null;

  @Field(() => String, { nullable: true, description: 'UAI code; never with educationalInstitutionId.' })
  educationalInstitution?: string | null;

  @Field(() => Int, { nullable: true })
  educationalInstitutionId?: number | null;

  @Field(() => Int, { nullable: true, description: 'Linked to one of the chosen domains.' })
  nationalProgramId?: number | null;

  @Field(() => String, { nullable: true, description: 'Base64 PNG or JPEG.' })
  imageFile?: string | null;

  @Field(() => String, { nullable: true })
  imageCredit?: string | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  audioDisabilityCompliant?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  mentalDisabilityCompliant?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  motorDisabilityCompliant?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  visualDisabilityCompliant?: boolean | null;
}

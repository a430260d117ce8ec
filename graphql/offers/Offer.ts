import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { Address } from '../providers/Address.js';
import { Provider } from '../providers/Provider.js';
import { Venue } from '../providers/Venue.js';

export type OfferLocationType = 'physical' | 'digital' | 'address';
export type OfferValidation = 'PENDING' | 'APPROVED' | 'REJECTED';

/**
 * An individual offer (event or product) created by a provider at one of its venues.
 * Publication and bookability are stored as applied (`publishedAt`, `bookingOpenedAt`):
 * the requested datetimes take effect when the publication job (or the request itself,
 * for `now`) applies them.
 */
@Directive('@key(fields: "id")')
@ObjectType({ description: 'An individual offer: an event or a product.' })
@Entity({ tableName: 'offer' })
@Index({ properties: ['provider', 'id'] })
@Index({ properties: ['validation', 'createdAt'] })
@Index({ properties: ['publishedAt', 'publicationDatetime'] })
// The publication run opens bookings of the few offers not opened yet (decision 035).
@Index({
  name: 'offer_booking_not_opened_index',
  expression:
    'create index offer_booking_not_opened_index on offer (booking_allowed_datetime) where booking_opened_at is null',
})
@Unique({ properties: ['venue', 'idAtProvider'] })
@Unique({ properties: ['provider', 'venue', 'ean'] })
export class Offer {
  [OptionalProps]?:
    | 'idAtProvider'
    | 'isActive'
    | 'createdAt'
    | 'updatedAt'
    | 'description'
    | 'bookingContact'
    | 'bookingEmail'
    | 'externalTicketOfficeUrl'
    | 'videoUrl'
    | 'eventDuration'
    | 'itemCollectionDetails'
    | 'url'
    | 'address'
    | 'addressLabel'
    | 'publicationDatetime'
    | 'bookingAllowedDatetime'
    | 'publishedAt'
    | 'bookingOpenedAt'
    | 'validation'
    | 'validationReason'
    | 'validatedAt'
    | 'imageKey'
    | 'imageCredit'
    | 'ean';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 140 })
  name!: string;

  @ManyToOne(() => Venue, { deleteRule: 'cascade', index: false })
  venue!: Venue;

  @ManyToOne(() => Provider, { deleteRule: 'cascade', index: false })
  provider!: Provider;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 70, nullable: true })
  idAtProvider: string | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean', default: true })
  isActive: boolean = true;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  // Nullable in the database, as a column added to a filled table must be; always written.
  @Property({ type: 'datetime', nullable: true })
  updatedAt: Date = new Date();

  /** A category id of the catalogue; never changes after creation. */
  @Field(() => String)
  @Property({ type: 'string', length: 50, default: '' })
  category!: string;

  @Field(() => Boolean)
  @Property({ type: 'boolean', default: true })
  isEvent!: boolean;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true, default: false })
  audioDisabilityCompliant!: boolean | null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true, default: false })
  mentalDisabilityCompliant!: boolean | null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true, default: false })
  motorDisabilityCompliant!: boolean | null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true, default: false })
  visualDisabilityCompliant!: boolean | null;

  /**
   * The category-related fields (author, musicType, ean, ...), without `category`. Nullable in the
   * database, as a column added to a filled table must be; always written.
   */
  @Property({ type: 'json', nullable: true })
  categoryRelatedFields!: Record<string, string>;

  /** `categoryRelatedFields.ean` again, as a column: products are found by venue and EAN. */
  @Property({ type: 'string', length: 13, nullable: true })
  ean: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 120, nullable: true })
  bookingContact: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 120, nullable: true })
  bookingEmail: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 2083, nullable: true })
  externalTicketOfficeUrl: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 2083, nullable: true })
  videoUrl: string | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean', default: false })
  enableDoubleBookings!: boolean;

  /** Tickets withdrawn in the app through the provider's ticketing system. */
  @Field(() => Boolean)
  @Property({ type: 'boolean', default: false })
  hasTicket!: boolean;

  @Field(() => Int, { nullable: true, description: 'Minutes.' })
  @Property({ type: 'integer', nullable: true })
  eventDuration: number | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  itemCollectionDetails: string | null = null;

  @Field(() => String)
  @Property({ type: 'string', length: 10, default: 'physical' })
  locationType!: OfferLocationType;

  /** Digital offers: the access URL, which may hold {token}, {email} and {offerId}. */
  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 2083, nullable: true })
  url: string | null = null;

  @ManyToOne(() => Address, { nullable: true, deleteRule: 'restrict', index: false })
  address: Address | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 200, nullable: true })
  addressLabel: string | null = null;

  /** Requested publication: null never publishes. */
  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  publicationDatetime: Date | null = null;

  /** Requested opening of bookings: null opens them with the publication. */
  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  bookingAllowedDatetime: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  publishedAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  bookingOpenedAt: Date | null = null;

  @Property({ type: 'string', length: 10, default: 'PENDING' })
  validation: OfferValidation = 'PENDING';

  @Property({ type: 'text', nullable: true })
  validationReason: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  validatedAt: Date | null = null;

  @Property({ type: 'string', length: 80, nullable: true })
  imageKey: string | null = null;

  @Property({ type: 'string', length: 200, nullable: true })
  imageCredit: string | null = null;
}

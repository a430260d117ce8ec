import { Collection, Entity, Index, ManyToOne, OneToMany, PrimaryKey, Property } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { Address } from '../providers/Address.js';
import { Provider } from '../providers/Provider.js';
import { Venue } from '../providers/Venue.js';
import { CollectiveBooking } from './CollectiveBooking.js';
import { EducationalInstitution, NationalProgram } from './reference/entities.js';

export type CollectiveLocationType = 'SCHOOL' | 'ADDRESS' | 'TO_BE_DEFINED';
export type CollectiveValidation = 'DRAFT' | 'PENDING' | 'APPROVED' | 'REJECTED';

/**
 * An offer to school groups: one event, for one class, at a total price. A school books it
 * through the school platform; the fields the GraphQL type shows are resolved in
 * CollectiveOfferResolver (statuses, location, institution, image, bookings).
 */
@Directive('@key(fields: "id")')
@ObjectType({ description: 'An offer to school groups.' })
@Entity({ tableName: 'collective_offer' })
@Index({ properties: ['provider', 'id'] })
export class CollectiveOffer {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Provider, { deleteRule: 'cascade', index: false })
  provider!: Provider;

  @ManyToOne(() => Venue, { deleteRule: 'cascade', index: true })
  venue!: Venue;

  @Field(() => String)
  @Property({ type: 'string', length: 110 })
  name!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  description!: string;

  @Field(() => [String])
  @Property({ type: 'json' })
  formats!: string[];

  @Field(() => [String])
  @Property({ type: 'json' })
  bookingEmails!: string[];

  @Field(() => String)
  @Property({ type: 'string', length: 120 })
  contactEmail!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 20 })
  contactPhone!: string;

  @Field(() => [Int], { description: 'Educational domain ids.' })
  @Property({ type: 'json' })
  domains!: number[];

  @Field(() => [String], { description: 'Student level ids, such as COLLEGE6.' })
  @Property({ type: 'json' })
  students!: string[];

  @Field(() => [String], { description: 'Départements where the provider can come to the school.' })
  @Property({ type: 'json' })
  interventionArea: string[] = [];

  @Property({ type: 'string', length: 20 })
  locationType!: CollectiveLocationType;

  /** ADDRESS at the venue's own address. */
  @Property({ type: 'boolean' })
  atVenueAddress: boolean = false;

  @ManyToOne(() => Address, { nullable: true, deleteRule: 'set null', index: false })
  address: Address | null = null;

  @Property({ type: 'string', length: 200, nullable: true })
  addressLabel: string | null = null;

  @Property({ type: 'string', length: 200, nullable: true })
  locationComment: string | null = null;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  startDatetime!: Date;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  endDatetime!: Date;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  bookingLimitDatetime!: Date;

  /** Stored in cents; the contract's totalPrice is in euros. */
  @Property({ type: 'integer' })
  totalPriceCents!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  numberOfTickets!: number;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 1000, nullable: true })
  priceDetail: string | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  durationMinutes: number | null = null;

  @ManyToOne(() => EducationalInstitution, { nullable: true, deleteRule: 'no action', index: false })
  institution: EducationalInstitution | null = null;

  @ManyToOne(() => NationalProgram, { nullable: true, deleteRule: 'no action', index: false })
  nationalProgram: NationalProgram | null = null;

  @Property({ type: 'string', length: 80, nullable: true })
  imageKey: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 200, nullable: true })
  imageCredit: string | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  audioDisabilityCompliant: boolean = false;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  mentalDisabilityCompliant: boolean = false;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  motorDisabilityCompliant: boolean = false;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  visualDisabilityCompliant: boolean = false;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  isActive: boolean = true;

  @Property({ type: 'string', length: 20 })
  validation: CollectiveValidation = 'PENDING';

  @Field(() => String, { nullable: true, description: 'Why the compliance review decided as it did.' })
  @Property({ type: 'string', length: 500, nullable: true })
  validationReason: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  validatedAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  archivedAt: Date | null = null;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  dateCreated!: Date;

  @Property({ type: 'datetime' })
  dateUpdated!: Date;

  @OneToMany(() => CollectiveBooking, (booking) => booking.offer, { orderBy: { id: 'asc' } })
  bookings = new Collection<CollectiveBooking>(this);
}

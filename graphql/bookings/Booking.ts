import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { Offer } from '../offers/Offer.js';
import { Stock } from '../offers/Stock.js';
import { Provider } from '../providers/Provider.js';
import { graphEnum } from '../shared/graphEnums.js';
import { Beneficiary } from './Beneficiary.js';

export const bookingStatuses = ['CONFIRMED', 'USED', 'CANCELLED', 'REIMBURSED'] as const;
export type BookingStatus = (typeof bookingStatuses)[number];
export const BookingStatusEnum = graphEnum('BookingStatus', bookingStatuses, "The status of a beneficiary's booking.");

export type CancellationReason = 'BENEFICIARY' | 'OFFERER' | 'EXPIRED' | 'STOCK_DELETED' | 'TICKETING_REFUSED';

/** A beneficiary's booking of a stock (an event date or a product). */
@Directive('@key(fields: "id")')
@ObjectType({ description: "A beneficiary's booking of an individual offer." })
@Entity({ tableName: 'booking' })
@Index({ properties: ['offer', 'id'] })
@Index({ properties: ['stock', 'status'] })
@Index({ properties: ['provider', 'status'] })
// The periodic transitions read the bookings due and no other (decision 035): partial indexes on
// the confirmed ones, so written as SQL. An event booking's cancellation limit never comes after
// its event, and only a product's booking has none.
@Index({
  name: 'booking_confirmed_cancellation_limit_index',
  expression:
    "create index booking_confirmed_cancellation_limit_index on booking (cancellation_limit_date) where status = 'CONFIRMED'",
})
@Index({
  name: 'booking_confirmed_product_creation_index',
  expression:
    'create index booking_confirmed_product_creation_index on booking (creation_date) ' +
    "where status = 'CONFIRMED' and cancellation_limit_date is null",
})
export class Booking {
  [OptionalProps]?:
    'cancellationLimitDate' | 'dateUsed' | 'cancellationDate' | 'cancellationReason' | 'reimbursementDate';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Offer, { deleteRule: 'cascade', index: false })
  offer!: Offer;

  @ManyToOne(() => Stock, { deleteRule: 'cascade', index: false })
  stock!: Stock;

  /** Denormalised owner, so that scoping a booking to its provider needs no join. */
  @ManyToOne(() => Provider, { deleteRule: 'cascade', index: false })
  provider!: Provider;

  @ManyToOne(() => Beneficiary, { deleteRule: 'cascade', index: false })
  beneficiary!: Beneficiary;

  @Field(() => String, { description: 'The countermark: six characters the beneficiary shows.' })
  @Property({ type: 'string', length: 6, unique: true })
  token!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  quantity!: number;

  /** Unit price in euro cents, as the stock's price when booked. */
  @Field(() => Int, { description: 'Unit price in euro cents when booked.' })
  @Property({ type: 'integer' })
  amount!: number;

  @Field(() => BookingStatusEnum, { description: 'CONFIRMED, USED, CANCELLED or REIMBURSED.' })
  @Property({ type: 'string', length: 20 })
  status!: BookingStatus;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  creationDate!: Date;

  /** Events: until when the beneficiary may cancel (and the venue may not validate yet). */
  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  cancellationLimitDate: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  dateUsed: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  cancellationDate: Date | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 20, nullable: true })
  cancellationReason: CancellationReason | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  reimbursementDate: Date | null = null;
}

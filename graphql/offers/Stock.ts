import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Offer } from './Offer.js';
import { PriceCategory } from './PriceCategory.js';

/**
 * What can be booked: for an event, one date at one price category; for a product, its
 * single stock. `quantity` is the total (places booked included); null is unlimited.
 */
@ObjectType({ description: 'A stock: a date of an event, or the stock of a product.' })
@Entity({ tableName: 'stock' })
@Index({ properties: ['offer', 'isDeleted', 'id'] })
export class Stock {
  [OptionalProps]?:
    | 'priceCategory'
    | 'beginningDatetime'
    | 'bookingLimitDatetime'
    | 'quantity'
    | 'bookedQuantity'
    | 'idAtProvider'
    | 'isDeleted'
    | 'rescheduledAt'
    | 'createdAt'
    | 'updatedAt';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Offer, { deleteRule: 'cascade', index: false })
  offer!: Offer;

  @ManyToOne(() => PriceCategory, { nullable: true, deleteRule: 'restrict', index: true })
  priceCategory: PriceCategory | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  beginningDatetime: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  bookingLimitDatetime: Date | null = null;

  /** Euro cents; for an event date, the price of its price category when it was set. */
  @Field(() => Int)
  @Property({ type: 'integer' })
  price!: number;

  @Field(() => Int, { nullable: true, description: 'Total places, booked ones included; null is unlimited.' })
  @Property({ type: 'integer', nullable: true })
  quantity: number | null = null;

  @Field(() => Int)
  @Property({ type: 'integer', default: 0 })
  bookedQuantity: number = 0;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 70, nullable: true })
  idAtProvider: string | null = null;

  /** Deleted dates are kept for their bookings' history, and never shown. */
  @Property({ type: 'boolean', default: false })
  isDeleted: boolean = false;

  @Property({ type: 'datetime', nullable: true })
  rescheduledAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

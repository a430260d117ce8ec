import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { Booking } from './Booking.js';

/** A ticket issued by the provider's ticketing system for a booking: one per place. */
@ObjectType({ description: "A ticket of the provider's ticketing system: one per place." })
@Entity({ tableName: 'booking_ticket' })
export class BookingTicket {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Booking, { deleteRule: 'cascade', index: true })
  booking!: Booking;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  barcode!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 100, nullable: true })
  seat: string | null = null;
}

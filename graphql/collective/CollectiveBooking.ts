import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { graphEnum } from '../shared/graphEnums.js';
import { CollectiveOffer } from './CollectiveOffer.js';
import { EducationalInstitution } from './reference/entities.js';

export const COLLECTIVE_BOOKING_STATUSES = ['PENDING', 'CONFIRMED', 'USED', 'CANCELLED', 'REIMBURSED'] as const;
export type CollectiveBookingStatus = (typeof COLLECTIVE_BOOKING_STATUSES)[number];

/** Who cancelled: the provider (PATCH), the school (platform), or the clock (an unconfirmed pre-booking). */
export type CollectiveCancellationReason = 'OFFERER' | 'EDUCATIONAL_INSTITUTION' | 'EXPIRED';

export const CollectiveBookingStatusEnum = graphEnum('CollectiveBookingStatus', COLLECTIVE_BOOKING_STATUSES);

/** A school's booking of a collective offer: pre-booked by a teacher, confirmed by the head of school. */
@ObjectType({ description: 'A booking of a collective offer by a school.' })
@Entity({ tableName: 'collective_booking' })
@Index({ properties: ['offer', 'id'] })
// An offer has at most one booking that is not cancelled: a partial unique index, so written as SQL.
@Index({
  name: 'collective_booking_one_active',
  expression:
    "create unique index collective_booking_one_active on collective_booking (offer_id) where status <> 'CANCELLED'",
})
export class CollectiveBooking {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => CollectiveOffer, { deleteRule: 'cascade', index: false })
  offer!: CollectiveOffer;

  @ManyToOne(() => EducationalInstitution, { index: false })
  institution!: EducationalInstitution;

  @Field(() => CollectiveBookingStatusEnum)
  @Property({ type: 'string', length: 20 })
  status!: CollectiveBookingStatus;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  dateCreated!: Date;

  /** The school must confirm by then (the offer's booking limit). */
  @Property({ type: 'datetime' })
  confirmationLimitDate!: Date;

  @Field(() => Date, { nullable: true, description: 'Until when the school may cancel without being charged.' })
  @Property({ type: 'datetime' })
  cancellationLimitDate!: Date;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  confirmationDate: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  dateUsed: Date | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  cancellationDate: Date | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 30, nullable: true })
  cancellationReason: CollectiveCancellationReason | null = null;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  reimbursementDate: Date | null = null;
}

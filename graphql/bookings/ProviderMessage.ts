import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Provider } from '../providers/Provider.js';
import { graphEnum } from '../shared/graphEnums.js';
import { Booking } from './Booking.js';

/**
 * BOOKING_NOTIFICATION and TICKET_CANCELLATION are queued and sent by a job; TICKET_BOOKING, and a
 * TICKET_CANCELLATION marked synchronous, are the ticketing calls a request makes and waits for.
 */
export type MessageKind = 'BOOKING_NOTIFICATION' | 'TICKET_CANCELLATION' | 'TICKET_BOOKING';
export const MESSAGE_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const MessageStatusEnum = graphEnum(
  'ProviderMessageStatus',
  MESSAGE_STATUSES,
  "Where a message to a provider's system stands.",
);

/**
 * A message to a provider's system, queued in the transaction of its cause and sent by a job:
 * a booking notification (BOOK, CANCEL) or the cancellation of tickets. The body is stored as
 * the exact text sent, so that every attempt signs the same bytes.
 */
@ObjectType({ description: "A message to a provider's system and what became of it." })
@Entity({ tableName: 'provider_message' })
@Index({ properties: ['booking'] })
// A provider's messages, newest first (the console's list).
@Index({ properties: ['provider', 'id'] })
export class ProviderMessage {
  [OptionalProps]?: 'status' | 'attempts' | 'lastStatusCode' | 'lastError' | 'sentAt' | 'isTest' | 'synchronous';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Provider, { deleteRule: 'cascade', index: false })
  provider!: Provider;

  @ManyToOne(() => Booking, { nullable: true, deleteRule: 'cascade' })
  booking: Booking | null = null;

  @Field(() => String, { description: 'BOOKING_NOTIFICATION, TICKET_BOOKING or TICKET_CANCELLATION.' })
  @Property({ type: 'string', length: 30 })
  kind!: MessageKind;

  @Field(() => String)
  @Property({ type: 'string', length: 2083 })
  url!: string;

  @Field(() => String, { description: 'The exact JSON text sent.' })
  @Property({ type: 'text' })
  body!: string;

  @Field(() => MessageStatusEnum, { description: 'PENDING, SENT or FAILED (for good).' })
  @Property({ type: 'string', length: 10 })
  status: MessageStatus = 'PENDING';

  @Field(() => Int)
  @Property({ type: 'integer' })
  attempts: number = 0;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  lastStatusCode: number | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Field(() => Boolean, { description: 'A test event the provider asked for (sent with `X-Test-Event: true`).' })
  @Property({ type: 'boolean', default: false })
  isTest: boolean = false;

  @Field(() => Boolean, {
    description:
      'A ticketing call made while a request waited for its answer (a booking, a cancellation by the venue): ' +
      'tried once, never resent.',
  })
  @Property({ type: 'boolean', default: false })
  synchronous: boolean = false;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  sentAt: Date | null = null;
}

import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { URL_MAX_LENGTH } from './limits.js';

/** A technical provider: a ticketing system, stock tool or integrator that calls the API. */
@Directive('@key(fields: "id")')
@ObjectType({ description: 'A technical provider calling the API with its keys.' })
@Entity({ tableName: 'provider' })
export class Provider {
  [OptionalProps]?:
    'bookingUrl' | 'cancelUrl' | 'notificationUrl' | 'logoUrl' | 'isActive' | 'canManageIndividualOffers' | 'createdAt';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 140 })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Called to book a ticket in the provider ticketing system.' })
  @Property({ type: 'string', length: URL_MAX_LENGTH, nullable: true })
  bookingUrl: string | null = null;

  @Field(() => String, { nullable: true, description: 'Called to cancel a ticket in the provider ticketing system.' })
  @Property({ type: 'string', length: URL_MAX_LENGTH, nullable: true })
  cancelUrl: string | null = null;

  @Field(() => String, { nullable: true, description: 'Receives signed booking notifications.' })
  @Property({ type: 'string', length: URL_MAX_LENGTH, nullable: true })
  notificationUrl: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: URL_MAX_LENGTH, nullable: true })
  logoUrl: string | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean', default: true })
  isActive: boolean = true;

  /** Withdrawn by the platform (CLI) when a provider may no longer manage individual offers. */
  @Property({ type: 'boolean', default: true })
  canManageIndividualOffers: boolean = true;

  /** Signs outgoing messages (HMAC-SHA256); kept usable because signing needs the secret itself. */
  @Property({ type: 'string', length: 128, hidden: true, lazy: true })
  messagingSecret!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

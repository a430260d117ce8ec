import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { Provider } from '../providers/Provider.js';
import { Venue } from '../providers/Venue.js';

/** An individual offer (event or product) created by a provider at one of its venues. */
@Directive('@key(fields: "id")')
@ObjectType({ description: 'An individual offer: an event or a product.' })
@Entity({ tableName: 'offer' })
export class Offer {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 140 })
  name!: string;

  @ManyToOne(() => Venue, { deleteRule: 'cascade' })
  venue!: Venue;

  @ManyToOne(() => Provider, { deleteRule: 'cascade' })
  provider!: Provider;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 70, nullable: true })
  idAtProvider: string | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  isActive: boolean = true;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { Provider } from '../providers/Provider.js';
import { Venue } from '../providers/Venue.js';

/** An offer to school groups, booked by a school through the school platform. */
@Directive('@key(fields: "id")')
@ObjectType({ description: 'An offer to school groups.' })
@Entity({ tableName: 'collective_offer' })
export class CollectiveOffer {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 110 })
  name!: string;

  @ManyToOne(() => Venue, { deleteRule: 'cascade' })
  venue!: Venue;

  @ManyToOne(() => Provider, { deleteRule: 'cascade' })
  provider!: Provider;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  dateCreated: Date = new Date();
}

import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { Offer } from '../offers/Offer.js';
import { Provider } from '../providers/Provider.js';

/** A beneficiary's booking of an individual offer. */
@Directive('@key(fields: "id")')
@ObjectType({ description: "A beneficiary's booking of an individual offer." })
@Entity({ tableName: 'booking' })
export class Booking {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Offer, { deleteRule: 'cascade' })
  offer!: Offer;

  /** Denormalised owner, so that scoping a booking to its provider needs no join. */
  @ManyToOne(() => Provider, { deleteRule: 'cascade' })
  provider!: Provider;

  @Field(() => String, { description: 'The countermark token shown by the beneficiary.' })
  @Property({ type: 'string', length: 6, unique: true })
  token!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  quantity: number = 1;

  @Field(() => String)
  @Property({ type: 'string', length: 20 })
  status: string = 'CONFIRMED';

  @Field(() => Date)
  @Property({ type: 'datetime' })
  creationDate: Date = new Date();
}

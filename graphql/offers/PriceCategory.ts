import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Offer } from './Offer.js';

/** A price of an event (a category of seats), shared by the dates sold at that price. */
@ObjectType({ description: 'A price category of an event.' })
@Entity({ tableName: 'price_category' })
@Index({ properties: ['offer', 'id'] })
@Unique({ properties: ['offer', 'idAtProvider'] })
export class PriceCategory {
  [OptionalProps]?: 'idAtProvider' | 'createdAt';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Offer, { deleteRule: 'cascade', index: false })
  offer!: Offer;

  @Field(() => String)
  @Property({ type: 'string', length: 50 })
  label!: string;

  @Field(() => Int, { description: 'Euro cents.' })
  @Property({ type: 'integer' })
  price!: number;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 70, nullable: true })
  idAtProvider: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

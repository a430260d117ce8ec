import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';
import { Address } from './Address.js';
import { Offerer } from './Offerer.js';

/** A place (physical, or digital for online offers) where an offerer's offers happen. */
@Directive('@key(fields: "id")')
@ObjectType({ description: 'A physical or digital venue of an offerer.' })
@Entity({ tableName: 'venue' })
export class Venue {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** Exposed through VenueResolver, which loads it when a query did not. */
  @ManyToOne(() => Offerer, { deleteRule: 'cascade', index: true })
  offerer!: Offerer;

  @Field(() => String, { nullable: true, description: '14 digits; digital venues have none.' })
  @Property({ type: 'string', length: 14, nullable: true, unique: true })
  siret: string | null = null;

  @Field(() => String, { nullable: true, description: 'Why a physical venue has no SIRET.' })
  @Property({ type: 'string', length: 200, nullable: true })
  siretComment: string | null = null;

  @Field(() => String)
  @Property({ type: 'string', length: 140 })
  legalName!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 255, nullable: true })
  publicName: string | null = null;

  @Field(() => String, { description: 'Venue type code (activity domain).' })
  @Property({ type: 'string', length: 50 })
  activityDomain!: string;

  @Field(() => Boolean)
  @Property({ type: 'boolean', default: false })
  isVirtual: boolean = false;

  /** Exposed through VenueResolver, which loads it when a query did not. */
  @ManyToOne(() => Address, { nullable: true, deleteRule: 'set null', index: false })
  address: Address | null = null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true })
  audioDisabilityCompliant: boolean | null = null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true })
  mentalDisabilityCompliant: boolean | null = null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true })
  motorDisabilityCompliant: boolean | null = null;

  @Field(() => Boolean, { nullable: true })
  @Property({ type: 'boolean', nullable: true })
  visualDisabilityCompliant: boolean | null = null;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  createdDatetime: Date = new Date();
}

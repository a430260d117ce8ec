import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { Directive, Field, Int, ObjectType } from 'type-graphql';

/** The legal structure (identified by its SIREN) that owns venues. */
@Directive('@key(fields: "id")')
@ObjectType({ description: 'A legal structure, identified by its SIREN, that owns venues.' })
@Entity({ tableName: 'offerer' })
export class Offerer {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 140 })
  name!: string;

  @Field(() => String, { description: '9 digits, or NC followed by 7 digits (New Caledonian RIDET).' })
  @Property({ type: 'string', length: 9, unique: true })
  siren!: string;

  @Field(() => Boolean, { description: 'Whether the offerer may publish collective offers to schools.' })
  @Property({ type: 'boolean', default: false })
  allowedOnAdage: boolean = false;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  createdDatetime: Date = new Date();
}

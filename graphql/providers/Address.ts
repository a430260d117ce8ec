import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Directive, Field, Float, Int, ObjectType } from 'type-graphql';

@Directive('@key(fields: "id")')
@ObjectType({ description: 'A postal address with its coordinates.' })
@Entity({ tableName: 'address' })
export class Address {
  [OptionalProps]?: 'banId' | 'street' | 'inseeCode' | 'isManualEdition' | 'lookupKey';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Field(() => String, { nullable: true, description: 'Identifier in the national address base.' })
  @Property({ type: 'string', length: 50, nullable: true })
  banId: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 200, nullable: true })
  street: string | null = null;

  @Field(() => String)
  @Property({ type: 'string', length: 200 })
  city!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 5 })
  postalCode!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 5, nullable: true })
  inseeCode: string | null = null;

  @Field(() => String)
  @Property({ type: 'string', length: 3 })
  departmentCode!: string;

  @Field(() => Float)
  @Property({ type: 'double' })
  latitude!: number;

  @Field(() => Float)
  @Property({ type: 'double' })
  longitude!: number;

  @Property({ type: 'boolean', default: false })
  isManualEdition: boolean = false;

  /** Normalised street, INSEE code and postal code: the same address given twice is one record. */
  @Property({ type: 'string', length: 300, nullable: true, unique: true, hidden: true })
  lookupKey: string | null = null;
}

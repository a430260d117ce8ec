import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Provider } from '../providers/Provider.js';

/** Credit of a new beneficiary: 300 euros, in cents. */
export const INITIAL_CREDIT_CENTS = 30_000;

/**
 * A young person who books offers with the pass credit. In the integration environment,
 * test beneficiaries are created by a provider (`sandboxCreateBeneficiary`) and only that
 * provider books with them.
 */
@ObjectType({ description: 'A beneficiary of the culture pass (a test one, in the sandbox).' })
@Entity({ tableName: 'beneficiary' })
@Index({ properties: ['provider', 'id'] })
export class Beneficiary {
  [OptionalProps]?: 'phoneNumber' | 'postalCode' | 'createdAt';

  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** The provider that created this test beneficiary. */
  @ManyToOne(() => Provider, { deleteRule: 'cascade', index: false })
  provider!: Provider;

  @Field(() => String)
  @Property({ type: 'string', length: 120 })
  email!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  firstName!: string;

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  lastName!: string;

  /** YYYY-MM-DD. */
  @Field(() => String)
  @Property({ type: 'string', length: 10 })
  birthDate!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 20, nullable: true })
  phoneNumber: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 5, nullable: true })
  postalCode: string | null = null;

  @Field(() => Int, { description: 'Credit left, in euro cents.' })
  @Property({ type: 'integer' })
  credit!: number;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

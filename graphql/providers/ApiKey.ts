import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Offerer } from './Offerer.js';
import { Provider } from './Provider.js';

/**
 * An API key, stored as its public prefix and a SHA-256 hash of its secret part:
 * the clear key exists only in the answer to the command that issued it.
 */
@ObjectType({ description: 'An API key, as its prefix (the secret is never shown again).' })
@Entity({ tableName: 'api_key' })
export class ApiKey {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** `{env}_{12 hex}`: unique, safe to show and to log. */
  @Field(() => String)
  @Property({ type: 'string', length: 40, unique: true })
  prefix!: string;

  @Property({ type: 'string', length: 64, hidden: true })
  secretHash!: string;

  /** Null for internal keys, which serve internal tools across providers. */
  @ManyToOne(() => Provider, { nullable: true, deleteRule: 'cascade', index: false })
  provider: Provider | null = null;

  @ManyToOne(() => Offerer, { nullable: true, deleteRule: 'cascade', index: false })
  offerer: Offerer | null = null;

  @Property({ type: 'boolean', default: false })
  isInternal: boolean = false;

  @Field(() => String, { nullable: true })
  @Property({ type: 'string', length: 140, nullable: true })
  label: string | null = null;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  /** Written on use at most once a minute (apiKeys.ts): precise enough to tell a live key from a dead one. */
  @Field(() => Date, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;
}

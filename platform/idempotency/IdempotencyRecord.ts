import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/core';

/**
 * One `Idempotency-Key` of one API key: the fingerprint of the request that first used it and,
 * once that request has answered, its answer, replayed to every retry for 24 hours. While the
 * first request runs, `lockedUntil` says until when a retry is told to wait (409) rather than run
 * it again; a process that died meanwhile leaves a lock that lapses.
 */
@Entity({ tableName: 'idempotency_key' })
@Unique({ properties: ['apiKeyId', 'idempotencyKey'] })
@Index({ properties: ['expiresAt'] })
export class IdempotencyRecord {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** Not a foreign key: the platform knows no API key entity, and a record outlives nothing for long. */
  @Property({ type: 'integer' })
  apiKeyId!: number;

  @Property({ type: 'string', length: 255 })
  idempotencyKey!: string;

  /** SHA-256 of the method, the path with its query, and the body. */
  @Property({ type: 'string', length: 64 })
  fingerprint!: string;

  @Property({ type: 'datetime', nullable: true })
  lockedUntil: Date | null = null;

  @Property({ type: 'integer', nullable: true })
  status: number | null = null;

  @Property({ type: 'string', length: 100, nullable: true })
  contentType: string | null = null;

  @Property({ type: 'text', nullable: true })
  body: string | null = null;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime' })
  expiresAt!: Date;
}

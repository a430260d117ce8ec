import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One action of the platform's staff, as it was taken: who, when, what, on what, the values
 * before and after (never a secret), and the request that carried it. Written in the same
 * transaction as the action (auditLog.ts), then never changed nor deleted: the entity is
 * read-only for the ORM (a flush ignores it; rows are inserted natively), the application has
 * no update or delete path, and a trigger refuses both (migration 20261129030000).
 *
 * No foreign key: an entry outlives what it names (a provider, a key, a job), and a cascade
 * would try to delete it.
 */
@Entity({ tableName: 'audit_entry', readonly: true })
@Index({ properties: ['createdAt'] })
@Index({ properties: ['action', 'id'] })
@Index({ properties: ['targetType', 'targetId'] })
export class AuditEntry {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  readonly id!: number;

  @Property({ type: 'datetime' })
  readonly createdAt!: Date;

  /** `api_key` (a machine: an internal key) or `person` (someone signed in with the identity provider). */
  @Property({ type: 'string', length: 20 })
  readonly actorKind!: string;

  /** The key acting, for a machine; the key itself is looked up for its label when entries are read. */
  @Property({ type: 'integer', nullable: true })
  readonly actorKeyId!: number | null;

  @Property({ type: 'string', length: 40, nullable: true })
  readonly actorKeyPrefix!: string | null;

  /** The person's subject at the identity provider (its `sub` claim). */
  @Property({ type: 'string', length: 255, nullable: true })
  readonly actorSubject!: string | null;

  @Property({ type: 'string', length: 320, nullable: true })
  readonly actorEmail!: string | null;

  /** What was done, `offer.approved`…: the list is the domain's (graphql/shared/audit.ts). */
  @Property({ type: 'string', length: 60 })
  readonly action!: string;

  /** What it was done to: `offer`, `provider`, `api_key`, `job`… and its id, as text. */
  @Property({ type: 'string', length: 40 })
  readonly targetType!: string;

  @Property({ type: 'string', length: 64 })
  readonly targetId!: string;

  /** The values the action changed, before and after, as JSON text; null when it changed none that can be shown. */
  @Property({ type: 'text', nullable: true })
  readonly beforeValues!: string | null;

  @Property({ type: 'text', nullable: true })
  readonly afterValues!: string | null;

  /** The X-Request-Id of the request that carried the action. */
  @Property({ type: 'string', length: 64, nullable: true })
  readonly requestId!: string | null;
}

import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A JSON body of the request log, as text cut at 64 KB (marked when cut), stored once per provider
 * and key (the SHA-256 digest of its bytes, storedBodies.mjs): an integration that polls the same
 * read gets the same answer thousands of times a day, and writing it each time made recording cost
 * more than the read itself (decision 034). Entries refer to it by key.
 */
@Entity({ tableName: 'request_log_body' })
@Index({ properties: ['lastSeenAt'] })
export class RequestLogBody {
  /** A provider's bodies are its own: a key reaches a body only through that provider's entries. */
  @PrimaryKey({ type: 'integer', autoincrement: false })
  providerId!: number;

  @PrimaryKey({ type: 'string', length: 64 })
  bodyKey!: string;

  @Property({ type: 'text' })
  bodyText!: string;

  @Property({ type: 'boolean' })
  truncated: boolean = false;

  /** When the newest entry that carries it was recorded: the retention drops the bodies no entry kept can carry. */
  @Property({ type: 'datetime' })
  lastSeenAt!: Date;
}

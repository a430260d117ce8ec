import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ApiKey } from './ApiKey.js';

/**
 * A session opened by signing in with a key: an internal key's in the back office, a provider
 * key's in the console. It lasts until it expires or is signed out, and ends when its key is
 * revoked. The browser holds a random token; only its SHA-256 hash is stored. The table keeps the
 * name it had when only staff signed in (renaming it would change nothing but the name).
 */
@Entity({ tableName: 'staff_session' })
export class KeySession {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 64, unique: true })
  tokenHash!: string;

  @ManyToOne(() => ApiKey, { deleteRule: 'cascade', index: false })
  apiKey!: ApiKey;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  endedAt: Date | null = null;
}

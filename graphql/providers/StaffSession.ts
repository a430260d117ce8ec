import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ApiKey } from './ApiKey.js';

/**
 * A back-office session: opened by signing in with an internal key, it lasts until it expires
 * or is signed out. The browser holds a random token; only its SHA-256 hash is stored.
 */
@Entity({ tableName: 'staff_session' })
export class StaffSession {
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

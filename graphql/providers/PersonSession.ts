import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A session a member of staff opened by signing in with the organisation's identity provider
 * (decision 031): who they are there (subject, e-mail, name) and the roles the sign-in gave them,
 * kept until it expires or is signed out; roles changed at the IdP apply from the next sign-in.
 * As for key sessions, the browser holds a random token and only its SHA-256 hash is stored.
 */
@Entity({ tableName: 'person_session' })
export class PersonSession {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 64, unique: true })
  tokenHash!: string;

  /** The IdP's `sub`: stable for a person, unlike their e-mail. */
  @Property({ type: 'string', length: 255 })
  subject!: string;

  @Property({ type: 'string', length: 320 })
  email!: string;

  @Property({ type: 'string', length: 255, nullable: true })
  name: string | null = null;

  /** Space-separated role names. */
  @Property({ type: 'string', length: 64 })
  roles!: string;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  endedAt: Date | null = null;
}

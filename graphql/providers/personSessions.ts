import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../platform/time/clock.js';
import type { Caller } from '../shared/caller.js';
import { isStaffRole, type StaffRole } from '../shared/staffRoles.js';
import { isToken, KEY_SESSION_TTL_MS, newSessionToken, type OpenedKeySession, tokenHash } from './keySessions.js';
import { PersonSession } from './PersonSession.js';

/** A member of staff as the identity provider named them at sign-in, with the roles it gave them here. */
export interface StaffPerson {
  subject: string;
  email: string;
  name: string | null;
  roles: readonly StaffRole[];
}

export type StaffCaller = Extract<Caller, { kind: 'staff' }>;

/** Opens a person's session, for as long as a key's (a working day). */
export async function openPersonSession(
  em: EntityManager,
  clock: Clock,
  person: StaffPerson,
): Promise<OpenedKeySession> {
  const now = clock.now();
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + KEY_SESSION_TTL_MS);
  const session = em.create(PersonSession, {
    tokenHash: tokenHash(token),
    subject: person.subject,
    email: person.email,
    name: person.name,
    roles: person.roles.join(' '),
    createdAt: now,
    expiresAt,
    endedAt: null,
  });
  await em.flush();
  return { token, expiresAt, sessionId: session.id, caller: callerOf(session) };
}

function callerOf(session: PersonSession): StaffCaller {
  return {
    kind: 'staff',
    sessionId: session.id,
    subject: session.subject,
    email: session.email,
    roles: session.roles.split(' ').filter(isStaffRole),
  };
}

/** The person a session token stands for while it is neither ended nor expired; null otherwise. */
export async function personOfSession(
  em: EntityManager,
  token: string,
  now: Date,
): Promise<{ caller: StaffCaller; name: string | null } | null> {
  if (!isToken(token)) return null;
  const session = await em.findOne(PersonSession, { tokenHash: tokenHash(token) });
  if (!session || session.endedAt || session.expiresAt.getTime() <= now.getTime()) return null;
  return { caller: callerOf(session), name: session.name };
}

/** Signing out: the session ends now, whatever the browser keeps. Its id when it was live, for the audit trail. */
export async function endPersonSession(em: EntityManager, token: string, now: Date): Promise<number | null> {
  if (!isToken(token)) return null;
  const session = await em.findOne(PersonSession, { tokenHash: tokenHash(token), endedAt: null });
  if (!session) return null;
  session.endedAt = now;
  await em.flush();
  return session.id;
}

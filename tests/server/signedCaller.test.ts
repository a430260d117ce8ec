import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  digestOf,
  type HopCaller,
  type HopTarget,
  SIGNED_CALLER_LIFETIME_MS,
  signCaller,
  verifyCaller,
} from '../../server/subgraphs/signedCaller.js';

const secret = 'a-secret-of-the-platform-32-chars-long!';
const now = Date.parse('2026-11-26T12:00:00Z');
const hop: HopCaller = {
  caller: { kind: 'provider', apiKeyId: 7, apiKeyPrefix: 'development_abc', providerId: 3, offererId: 4 },
  callerProvider: {
    id: 3,
    name: 'Ticketing',
    bookingUrl: null,
    cancelUrl: null,
    notificationUrl: 'https://ticketing.example.com/notify',
    logoUrl: null,
    isActive: true,
    canManageIndividualOffers: true,
  },
  requestId: 'req-1',
};
const target: HopTarget = {
  schemaDigest: digestOf('type Query { a: Int }'),
  bodyDigest: digestOf('{"query":"{ a }"}'),
};

function claimsOf(header: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(header.split('.')[0], 'base64url').toString('utf8')) as Record<string, unknown>;
}

function withClaims(claims: Record<string, unknown>, signature: string): string {
  return `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

describe('the caller signed across the hop to a subgraph service', () => {
  it('comes back as it was signed, within its lifetime', () => {
    const header = signCaller(secret, hop, target, now);
    expect(verifyCaller(secret, header, now + SIGNED_CALLER_LIFETIME_MS - 1)).toEqual({ ok: true, hop, target });
  });

  it('is refused when missing, malformed or unsigned', () => {
    expect(verifyCaller(secret, undefined, now)).toEqual({ ok: false, reason: 'no signed caller' });
    expect(verifyCaller(secret, 'not-a-token', now)).toEqual({ ok: false, reason: 'malformed signed caller' });
    const claims = signCaller(secret, hop, target, now).split('.')[0];
    expect(verifyCaller(secret, `${claims}.`, now)).toEqual({ ok: false, reason: 'malformed signed caller' });
  });

  it('is refused once expired, and when dated further ahead than a process of the platform signs', () => {
    const header = signCaller(secret, hop, target, now);
    expect(verifyCaller(secret, header, now + SIGNED_CALLER_LIFETIME_MS)).toEqual({ ok: false, reason: 'expired' });
    const farAhead = signCaller(secret, hop, target, now + 10 * SIGNED_CALLER_LIFETIME_MS);
    expect(verifyCaller(secret, farAhead, now)).toEqual({ ok: false, reason: 'expired' });
  });

  it('is refused when its claims were altered after signing: another provider, another expiry', () => {
    const header = signCaller(secret, hop, target, now);
    const signature = header.split('.')[1];
    const claims = claimsOf(header);
    const otherProvider = { ...claims, caller: { ...(claims.caller as object), providerId: 99 } };
    expect(verifyCaller(secret, withClaims(otherProvider, signature), now)).toEqual({
      ok: false,
      reason: 'bad signature',
    });
    const later = { ...claims, expiresAt: (claims.expiresAt as number) + 60_000 };
    const anotherBody = { ...claims, bodyDigest: digestOf('{"query":"mutation { b }"}') };
    expect(verifyCaller(secret, withClaims(anotherBody, signature), now)).toEqual({
      ok: false,
      reason: 'bad signature',
    });
    expect(verifyCaller(secret, withClaims(later, signature), now)).toEqual({ ok: false, reason: 'bad signature' });
  });

  it('is refused when signed with another secret', () => {
    const forged = signCaller('another-secret-that-is-also-32-chars-long', hop, target, now);
    expect(verifyCaller(secret, forged, now)).toEqual({ ok: false, reason: 'bad signature' });
  });

  it('is refused when signed right but not a caller', () => {
    // A process of ours never signs this; a leaked secret must still not make anything of it.
    const payload = Buffer.from(
      JSON.stringify({ caller: { kind: 'admin' }, ...target, expiresAt: now + 1000 }),
    ).toString('base64url');
    const signature = createHmac('sha256', secret).update(payload).digest('base64url');
    expect(verifyCaller(secret, `${payload}.${signature}`, now)).toEqual({
      ok: false,
      reason: 'malformed signed caller',
    });
  });
});

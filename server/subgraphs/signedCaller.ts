import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Caller, ProviderView } from '../../graphql/shared/caller.js';

/**
 * Who is calling, as the API process resolved it, carried to a subgraph service: the service
 * trusts it only when signed with the secret the platform's processes share, and only briefly,
 * so a header copied off the network stops working within the minute.
 */
export const SIGNED_CALLER_HEADER = 'x-platform-caller';

/** Long enough for a slow hop, short enough that a captured header is soon worthless. */
export const SIGNED_CALLER_LIFETIME_MS = 60_000;

export interface HopCaller {
  caller: Caller;
  callerProvider: ProviderView | null;
  requestId?: string;
}

const callerSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('provider'),
    apiKeyId: z.number().int(),
    apiKeyPrefix: z.string(),
    providerId: z.number().int(),
    offererId: z.number().int().nullable(),
  }),
  z.object({ kind: z.literal('internal'), apiKeyId: z.number().int(), apiKeyPrefix: z.string() }),
]);

const providerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  bookingUrl: z.string().nullable(),
  cancelUrl: z.string().nullable(),
  notificationUrl: z.string().nullable(),
  logoUrl: z.string().nullable(),
  isActive: z.boolean(),
  canManageIndividualOffers: z.boolean(),
});

const claimsSchema = z.object({
  caller: callerSchema,
  callerProvider: providerSchema.nullable(),
  requestId: z.string().optional(),
  /** Milliseconds since the epoch after which the claims are refused. */
  expiresAt: z.number().int(),
});

function signatureOf(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

/** `<claims, base64url JSON>.<HMAC-SHA256 of that text, base64url>` */
export function signCaller(secret: string, hop: HopCaller, now: number = Date.now()): string {
  const claims = { ...hop, expiresAt: now + SIGNED_CALLER_LIFETIME_MS };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${signatureOf(secret, payload).toString('base64url')}`;
}

export type CallerCheck = { ok: true; hop: HopCaller } | { ok: false; reason: string };

/** The caller a header names, or why it is refused: unsigned, forged, altered or expired. */
export function verifyCaller(secret: string, header: string | undefined, now: number = Date.now()): CallerCheck {
  if (!header) return { ok: false, reason: 'no signed caller' };
  const [payload, signature, ...rest] = header.split('.');
  if (!payload || !signature || rest.length > 0) return { ok: false, reason: 'malformed signed caller' };
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad signature' };
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed signed caller' };
  }
  const claims = claimsSchema.safeParse(decoded);
  if (!claims.success) return { ok: false, reason: 'malformed signed caller' };
  const { expiresAt, ...hop } = claims.data;
  // A signature dated far ahead was not made by a process of ours, whose clocks agree.
  if (expiresAt <= now || expiresAt > now + 2 * SIGNED_CALLER_LIFETIME_MS) return { ok: false, reason: 'expired' };
  return { ok: true, hop };
}

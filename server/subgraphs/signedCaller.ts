import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Caller, ProviderView } from '../../graphql/shared/caller.js';
import { staffRoles } from '../../graphql/shared/staffRoles.js';

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

/**
 * What a signature binds besides the caller: the schema the API process expects of the service
 * (so a service of another build, or another subgraph, refuses before it runs anything) and the
 * body's digest (so a header copied off the network cannot carry another document).
 */
export interface HopTarget {
  schemaDigest: string;
  bodyDigest: string;
}

export function digestOf(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('base64url');
}

const callerSchema: z.ZodType<Caller> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('provider'),
    apiKeyId: z.number().int(),
    apiKeyPrefix: z.string(),
    providerId: z.number().int(),
    offererId: z.number().int().nullable(),
  }),
  z.object({ kind: z.literal('internal'), apiKeyId: z.number().int(), apiKeyPrefix: z.string() }),
  z.object({
    kind: z.literal('staff'),
    sessionId: z.number().int(),
    subject: z.string(),
    email: z.string(),
    roles: z.array(z.enum(staffRoles)),
  }),
]);

// Typed as the view, so that a field added to it and not here fails the typecheck, not the hop.
const providerSchema: z.ZodType<ProviderView> = z.object({
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
  schemaDigest: z.string(),
  bodyDigest: z.string(),
  /** Milliseconds since the epoch after which the claims are refused. */
  expiresAt: z.number().int(),
});

function signatureOf(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

/** `<claims, base64url JSON>.<HMAC-SHA256 of that text, base64url>` */
export function signCaller(secret: string, hop: HopCaller, target: HopTarget, now: number = Date.now()): string {
  const claims = { ...hop, ...target, expiresAt: now + SIGNED_CALLER_LIFETIME_MS };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${signatureOf(secret, payload).toString('base64url')}`;
}

export type CallerCheck = { ok: true; hop: HopCaller; target: HopTarget } | { ok: false; reason: string };

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
  const { expiresAt, schemaDigest, bodyDigest, ...hop } = claims.data;
  // A signature dated far ahead was not made by a process of ours, whose clocks agree.
  if (expiresAt <= now || expiresAt > now + 2 * SIGNED_CALLER_LIFETIME_MS) return { ok: false, reason: 'expired' };
  return { ok: true, hop, target: { schemaDigest, bodyDigest } };
}

/** What a service answers to a call signed for another schema (SCHEMA_MISMATCH). */
export const SCHEMA_MISMATCH_STATUS = 409;

/** What a service answers a call it refuses unrun, whichever transport brought it. */
export interface CallRefusal {
  status: number;
  code: string;
  message: string;
}

/** A signed caller that `verifyCaller` refused. */
export function callerRefusal(reason: string): CallRefusal {
  return { status: 401, code: 'UNAUTHENTICATED', message: `Caller refused: ${reason}` };
}

/**
 * The checks after the signature, in order: the call was signed for what this service runs
 * (`own.digest`, a digest of its schema, or of its schema and routes; `serves` says which in the
 * refusal) and for this body. Another build, or another document, is refused unrun.
 */
export function targetRefusal(
  target: HopTarget,
  own: { digest: string; serves: string },
  bodyDigest: string,
): CallRefusal | null {
  if (target.schemaDigest !== own.digest) {
    return {
      status: SCHEMA_MISMATCH_STATUS,
      code: 'SCHEMA_MISMATCH',
      message: `This service serves ${own.serves} than its caller expects`,
    };
  }
  return target.bodyDigest === bodyDigest ? null : callerRefusal('the body is not the one signed');
}

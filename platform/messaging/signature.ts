import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header every message to a provider carries. */
export const SIGNATURE_HEADER = 'PassCulture-Signature';

/** Hex HMAC-SHA256 of the exact body bytes, keyed with the provider's messaging secret. */
export function signBody(body: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** What a receiver does: recompute and compare in constant time. */
export function hasValidSignature(body: string | Buffer, secret: string, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  return timingSafeEqual(Buffer.from(signBody(body, secret), 'hex'), Buffer.from(signature, 'hex'));
}

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasValidSignature, signBody } from '../../platform/messaging/signature.js';

describe('PassCulture-Signature', () => {
  const secret = 'a'.repeat(64);
  const body = '{"action":"BOOK","booking":{"id":1,"quantity":1}}';

  it('is the hex HMAC-SHA256 of the exact body bytes with the secret', () => {
    expect(signBody(body, secret)).toBe(createHmac('sha256', secret).update(Buffer.from(body, 'utf8')).digest('hex'));
    expect(signBody(body, secret)).toMatch(/^[0-9a-f]{64}$/);
    // Bytes, not characters: a non-ASCII body is signed as its UTF-8 encoding.
    expect(signBody('{"venue":"Théâtre"}', secret)).toBe(signBody(Buffer.from('{"venue":"Théâtre"}', 'utf8'), secret));
  });

  it('changes with any byte of the body, and with the secret', () => {
    expect(signBody(`${body} `, secret)).not.toBe(signBody(body, secret));
    expect(signBody('{"action":"BOOK", "booking":{"id":1,"quantity":1}}', secret)).not.toBe(signBody(body, secret));
    expect(signBody(body, 'b'.repeat(64))).not.toBe(signBody(body, secret));
  });

  it('is verified in constant time, refusing a missing, malformed or wrong signature', () => {
    const signature = signBody(body, secret);
    expect(hasValidSignature(body, secret, signature)).toBe(true);
    expect(hasValidSignature(body, secret, signature.toUpperCase())).toBe(true);
    expect(hasValidSignature(body, secret, undefined)).toBe(false);
    expect(hasValidSignature(body, secret, 'not-hex')).toBe(false);
    expect(hasValidSignature(body, secret, signature.slice(0, 63))).toBe(false);
    expect(hasValidSignature(`${body}\\n`, secret, signature)).toBe(false);
  });
});

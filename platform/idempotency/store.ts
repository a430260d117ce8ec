import { type MikroORM, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Clock } from '../time/clock.js';
import { IdempotencyRecord } from './IdempotencyRecord.js';

/** How long an answer is replayed: the IETF draft leaves it to the server; 24 hours as Stripe's. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a retry is told to wait for the first request. Far longer than any request runs; once
 * it lapses, the first request's process is taken for dead and a retry runs the request itself.
 */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;

/** What to do with a request that carries a key, given what the key already holds. */
export type Claim =
  | { kind: 'first' }
  | { kind: 'replay'; status: number; contentType: string | null; body: string | null }
  | { kind: 'reused' }
  | { kind: 'running'; retryAfterSeconds: number };

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string | null;
}

/**
 * The keys' records in the database, so that every process of the platform sees the same ones.
 * Each statement commits on its own: a claim must be visible to a retry arriving at another
 * process while the first request still runs.
 */
export class IdempotencyStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {}

  async claim(apiKeyId: number, idempotencyKey: string, fingerprint: string): Promise<Claim> {
    const now = this.clock.now();
    // Two rounds at most: a record that expired or was released in between is claimed again once.
    for (let round = 0; round < 2; round += 1) {
      if (await this.insert(apiKeyId, idempotencyKey, fingerprint, now)) return { kind: 'first' };
      const em = this.orm.em.fork();
      const record = await em.findOne(IdempotencyRecord, { apiKeyId, idempotencyKey });
      if (!record) continue;
      if (record.expiresAt.getTime() <= now.getTime()) {
        await em.nativeDelete(IdempotencyRecord, { id: record.id, expiresAt: { $lte: now } });
        continue;
      }
      if (record.fingerprint !== fingerprint) return { kind: 'reused' };
      if (record.status !== null) {
        return { kind: 'replay', status: record.status, contentType: record.contentType, body: record.body };
      }
      const lockedUntil = record.lockedUntil?.getTime() ?? 0;
      if (lockedUntil > now.getTime()) {
        return { kind: 'running', retryAfterSeconds: Math.max(1, Math.ceil((lockedUntil - now.getTime()) / 1000)) };
      }
      // The first request's lock lapsed without an answer: its process died. One retry takes it over.
      const taken = await em.nativeUpdate(
        IdempotencyRecord,
        { id: record.id, status: null, lockedUntil: record.lockedUntil },
        { lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS) },
      );
      if (taken === 1) return { kind: 'first' };
    }
    return { kind: 'running', retryAfterSeconds: 1 };
  }

  /** Keeps the first request's answer, for the retries of the next 24 hours. */
  async complete(apiKeyId: number, idempotencyKey: string, answer: StoredAnswer): Promise<void> {
    await this.orm.em
      .fork()
      .nativeUpdate(IdempotencyRecord, { apiKeyId, idempotencyKey, status: null }, { ...answer, lockedUntil: null });
  }

  /** Frees the key of a request that did not run (invalid input, a server error): a retry runs it. */
  async release(apiKeyId: number, idempotencyKey: string): Promise<void> {
    await this.orm.em.fork().nativeDelete(IdempotencyRecord, { apiKeyId, idempotencyKey, status: null });
  }

  /** Drops the records past their 24 hours; claims ignore them anyway, this keeps the table small. */
  async purgeExpired(): Promise<number> {
    return this.orm.em.fork().nativeDelete(IdempotencyRecord, { expiresAt: { $lte: this.clock.now() } });
  }

  private async insert(apiKeyId: number, idempotencyKey: string, fingerprint: string, now: Date): Promise<boolean> {
    try {
      await this.orm.em.fork().insert(IdempotencyRecord, {
        apiKeyId,
        idempotencyKey,
        fingerprint,
        lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
        status: null,
        contentType: null,
        body: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      });
      return true;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return false;
      throw error;
    }
  }
}

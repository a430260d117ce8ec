import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/** discarded: a failed job that staff gave up (the back office), kept for the record. */
export const JOB_STATUSES = ['pending', 'running', 'done', 'failed', 'discarded'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * A row of the transactional outbox: written in the same transaction as the change
 * that causes it, so a job exists exactly when its cause was committed.
 */
@Entity({ tableName: 'job' })
@Index({ properties: ['status', 'runAt'] })
export class Job {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 100 })
  type!: string;

  @Property({ type: 'json' })
  payload!: Record<string, unknown>;

  @Property({ type: 'string', length: 10 })
  status: JobStatus = 'pending';

  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  @Property({ type: 'integer', default: 8 })
  maxAttempts: number = 8;

  @Property({ type: 'datetime' })
  runAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  lockedAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  finishedAt: Date | null = null;

  /**
   * The W3C `traceparent` of the request (or job) that queued it, so that its runs join the trace
   * of their cause; null when that was not traced.
   */
  @Property({ type: 'string', length: 128, nullable: true })
  traceParent: string | null = null;
}

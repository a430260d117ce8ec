import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A running job worker, as it last said: the job types it claims and when it said so. Each worker
 * renews its row while it runs and deletes it when it stops; a row not renewed for a while is a
 * process that died. Read to find the jobs that no running process handles (decision 023).
 */
@Entity({ tableName: 'job_worker' })
export class JobWorkerPresence {
  /** Random per worker start: two processes on one machine never share a row. */
  @PrimaryKey({ type: 'string', length: 36 })
  id!: string;

  /** The job types it has a handler for, as a JSON array. */
  @Property({ type: 'text' })
  types!: string;

  @Property({ type: 'datetime' })
  seenAt!: Date;
}

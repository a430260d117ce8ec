import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { EntityManager } from '@mikro-orm/core';
import { recordStaffAction } from '../../shared/audit.js';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, NotFoundError } from '../../shared/errors.js';
import { requireRole } from '../../shared/internalOnly.js';
import { Job, JOB_STATUSES, type JobStatus } from '../../../platform/jobs/Job.js';
import { graphEnum } from '../../shared/graphEnums.js';
import { PageInput, pageBounds } from '../../shared/pagination.js';
import { StaffOnly } from '../../shared/staffOnly.js';

/*
 * The job queue is the platform's, not a subgraph's domain: its operations are served by the
 * providers subgraph, beside the other administration of the platform (keys, providers).
 */

const JobStatusEnum = graphEnum('JobStatus', JOB_STATUSES, 'Where a job of the outbox stands.');

const READ = 'read the job queue';
const OPERATE = 'retry jobs';
const DISCARD = 'discard jobs';

@ObjectType('QueuedJob', { description: 'Internal tools: a job of the outbox and what became of it.' })
class QueuedJob {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  type!: string;

  @Field(() => JobStatusEnum, { description: 'pending, running, done, failed or discarded.' })
  status!: JobStatus;

  @Field(() => Int)
  attempts!: number;

  @Field(() => Int)
  maxAttempts!: number;

  @Field(() => Date, { description: 'When a pending job is due (its next attempt).' })
  runAt!: Date;

  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @Field(() => String, { description: 'The payload, as JSON text.' })
  payload!: string;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;
}

@ObjectType({ description: 'Internal tools: how many jobs of a type are in a status.' })
class JobCount {
  @Field(() => String)
  type!: string;

  @Field(() => JobStatusEnum)
  status!: JobStatus;

  @Field(() => Int)
  count!: number;
}

@InputType({ description: 'Jobs in a status and of a type; every job without them.' })
class JobFilter {
  @Field(() => String, { nullable: true, description: 'pending, running, done, failed or discarded.' })
  status?: string | null;

  @Field(() => String, { nullable: true })
  type?: string | null;
}

function queuedJobOf(job: Job): QueuedJob {
  return { ...job, payload: JSON.stringify(job.payload) };
}

async function failedJob(em: EntityManager, id: number): Promise<Job> {
  const job = await em.findOne(Job, id);
  if (!job) throw new NotFoundError('Job not found');
  if (job.status !== 'failed')
    throw BadRequestError.on('id', `Only a failed job can be retried or discarded (${job.status})`);
  return job;
}

@Resolver()
export class JobResolver {
  @StaffOnly()
  @Query(() => [QueuedJob], { description: 'Internal tools: jobs, one page in id order (oldest first).' })
  async jobs(
    @Ctx() context: GraphContext,
    @Arg('filter', () => JobFilter, { nullable: true }) filter: JobFilter | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
  ): Promise<QueuedJob[]> {
    requireRole(context.caller, 'support', READ);
    const { firstIndex, limit } = pageBounds(page ?? new PageInput());
    const jobs = await context.em.find(
      Job,
      {
        id: { $gte: firstIndex },
        ...(filter?.status ? { status: filter.status as JobStatus } : {}),
        ...(filter?.type ? { type: filter.type } : {}),
      },
      { orderBy: { id: 'asc' }, limit },
    );
    return jobs.map(queuedJobOf);
  }

  @StaffOnly()
  @Query(() => [JobCount], { description: 'Internal tools: the number of jobs by type and status.' })
  async jobCounts(@Ctx() context: GraphContext): Promise<JobCount[]> {
    requireRole(context.caller, 'support', READ);
    const rows = (await context.em
      .getConnection()
      .execute('select type, status, count(*) as count from job group by type, status order by type, status')) as {
      type: string;
      status: JobStatus;
      count: number | string;
    }[];
    return rows.map((row) => ({ type: row.type, status: row.status, count: Number(row.count) }));
  }

  @StaffOnly()
  @Mutation(() => QueuedJob, { description: 'Internal tools: runs a failed job again now, with its attempts anew.' })
  async retryJob(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<QueuedJob> {
    requireRole(context.caller, 'support', OPERATE);
    const job = await context.em.transactional(async (em) => {
      const failed = await failedJob(em, id);
      const before = { status: failed.status, attempts: failed.attempts };
      Object.assign(failed, {
        status: 'pending',
        attempts: 0,
        runAt: context.clock.now(),
        finishedAt: null,
        lockedAt: null,
      });
      const after = { status: failed.status, attempts: failed.attempts };
      await recordStaffAction(em, context, { action: 'job.retried', target: { type: 'job', id }, before, after });
      return failed;
    });
    context.services.jobs.wake();
    return queuedJobOf(job);
  }

  @StaffOnly()
  @Mutation(() => QueuedJob, { description: 'Internal tools: gives up a failed job for good (kept, as discarded).' })
  async discardJob(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<QueuedJob> {
    requireRole(context.caller, 'admin', DISCARD);
    const job = await context.em.transactional(async (em) => {
      const failed = await failedJob(em, id);
      failed.status = 'discarded';
      failed.finishedAt = context.clock.now();
      const facts = { before: { status: 'failed' }, after: { status: failed.status } };
      await recordStaffAction(em, context, { action: 'job.discarded', target: { type: 'job', id }, ...facts });
      return failed;
    });
    return queuedJobOf(job);
  }
}

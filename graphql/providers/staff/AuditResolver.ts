import { Arg, Ctx, Field, InputType, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { requireRole } from '../../shared/internalOnly.js';
import { StaffOnly } from '../../shared/staffOnly.js';
import { PAGE_SIZE_MAX } from '../../shared/pagination.js';
import { type AuditEntryRow, listAuditEntries } from './auditTrail.js';

@ObjectType('AuditEntry', {
  description: 'Internal tools: one action of the platform’s staff, as it was taken; never changed nor deleted.',
})
class AuditEntryView {
  @Field(() => Int)
  id!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => String, { description: 'api_key (an internal key) or person (signed in with the identity provider).' })
  actorKind!: string;

  @Field(() => String, { nullable: true, description: 'The prefix of the internal key that acted.' })
  actorKeyPrefix!: string | null;

  @Field(() => String, { nullable: true, description: 'The label of that key, as it is now (its owner, its purpose).' })
  actorLabel!: string | null;

  @Field(() => String, { nullable: true, description: 'The person’s subject at the identity provider.' })
  actorSubject!: string | null;

  @Field(() => String, { nullable: true })
  actorEmail!: string | null;

  @Field(() => String, { description: 'What was done: offer.approved, api_key.revoked, job.retried…' })
  action!: string;

  @Field(() => String, { description: 'What it was done to: offer, provider, api_key, job…' })
  targetType!: string;

  @Field(() => String)
  targetId!: string;

  @Field(() => String, { nullable: true, description: 'The values it changed, before, as JSON text (never a secret).' })
  beforeValues!: string | null;

  @Field(() => String, { nullable: true, description: 'The same values after, as JSON text.' })
  afterValues!: string | null;

  @Field(() => String, { nullable: true, description: 'The X-Request-Id of the request that carried it.' })
  requestId!: string | null;
}

@InputType({ description: 'Entries that match every field given; every entry without them.' })
class AuditEntryFilter {
  @Field(() => String, { nullable: true, description: 'Who acted: a key’s prefix, a person’s subject or e-mail.' })
  actor?: string | null;

  @Field(() => String, { nullable: true, description: 'What was done (offer.approved…).' })
  action?: string | null;

  @Field(() => String, { nullable: true, description: 'What it was done to (offer, provider, api_key…).' })
  targetType?: string | null;

  @Field(() => String, { nullable: true })
  targetId?: string | null;

  @Field(() => Date, { nullable: true, description: 'Written at or after this moment.' })
  from?: Date | null;

  @Field(() => Date, { nullable: true, description: 'Written before this moment.' })
  to?: Date | null;
}

@InputType({ description: 'Entries written before an id (the last of the page before), newest first.' })
class AuditEntryPage {
  @Field(() => Int, { nullable: true })
  before?: number | null;

  @Field(() => Int, { defaultValue: PAGE_SIZE_MAX })
  limit: number = PAGE_SIZE_MAX;
}

const viewOf = ({ entry, actorLabel }: AuditEntryRow): AuditEntryView => ({ ...entry, actorLabel });

/** The audit trail of staff actions, read in the back office: internal-only, and read-only (there is no mutation). */
@Resolver()
export class AuditResolver {
  @StaffOnly()
  @Query(() => [AuditEntryView], {
    description: 'Internal tools: the audit trail of staff actions, newest first, filtered.',
  })
  async auditEntries(
    @Ctx() context: GraphContext,
    @Arg('filter', () => AuditEntryFilter, { nullable: true }) filter: AuditEntryFilter | null,
    @Arg('page', () => AuditEntryPage, { nullable: true }) page: AuditEntryPage | null,
  ): Promise<AuditEntryView[]> {
    requireRole(context.caller, 'admin', 'read the audit trail');
    const limit = Math.min(Math.max(1, page?.limit ?? PAGE_SIZE_MAX), PAGE_SIZE_MAX);
    const rows = await listAuditEntries(context.em, filter ?? {}, { before: page?.before ?? null, limit });
    return rows.map(viewOf);
  }
}

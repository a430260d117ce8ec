import type { EntityManager } from '@mikro-orm/core';
import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { recordStaffAction, type StaffActionFacts } from '../shared/audit.js';
import type { GraphContext } from '../shared/context.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../shared/errors.js';
import { requireRole } from '../shared/internalOnly.js';
import { PageInput, pageBounds } from '../shared/pagination.js';
import { CollectiveOfferReference } from '../shared/references.js';
import { Offer } from './Offer.js';
import { StaffOnly } from '../shared/staffOnly.js';

declare module '../shared/domainEvents.js' {
  interface DomainEventMap {
    /**
     * The compliance decision on a collective offer, taken through reviewOffer: the
     * collective subgraph, which owns those offers, applies it in the same transaction.
     */
    'offers.collectiveReviewDecided': {
      offerId: number;
      decision: 'APPROVED' | 'REJECTED';
      reason: string | null;
      at: Date;
    };
  }
}

type Decision = 'APPROVED' | 'REJECTED';

@ObjectType({ description: 'A compliance decision and the offer it applies to.' })
class OfferReview {
  @Field(() => Int)
  offerId!: number;

  @Field(() => Boolean, { description: 'Whether the offer is a collective offer.' })
  collective!: boolean;

  @Field(() => String, { description: 'APPROVED or REJECTED.' })
  decision!: string;

  @Field(() => String, { nullable: true })
  reason!: string | null;

  @Field(() => Offer, { nullable: true, description: 'The individual offer reviewed.' })
  offer!: Offer | null;

  @Field(() => CollectiveOfferReference, { nullable: true, description: 'The collective offer reviewed.' })
  collectiveOffer!: CollectiveOfferReference | null;
}

@InputType({ description: 'An offer to review: an individual one, or a collective one with collective: true.' })
class OfferToReview {
  @Field(() => Int)
  offerId!: number;

  @Field(() => Boolean, { defaultValue: false })
  collective: boolean = false;
}

interface ReviewTarget {
  offerId: number;
  collective: boolean;
}

/** Applies one decision inside the caller's transaction. */
async function decide(
  context: GraphContext,
  em: EntityManager,
  target: ReviewTarget,
  decision: Decision,
  reason: string | null,
  at: Date,
): Promise<OfferReview> {
  const { offerId, collective } = target;
  if (collective) {
    if (context.events.handlerCount('offers.collectiveReviewDecided') === 0)
      throw new NotFoundError('Collective offer not found');
    await context.events.publish(em, 'offers.collectiveReviewDecided', { offerId, decision, reason, at });
    // The collective offer's state before is the collective subgraph's (maybe another process): the decision is recorded.
    await recordStaffAction(
      em,
      context,
      decisionFacts({ type: 'collective_offer', id: offerId }, null, decision, reason),
    );
    return { offerId, collective, decision, reason, offer: null, collectiveOffer: { id: offerId } };
  }
  const offer = await em.findOne(Offer, offerId);
  if (!offer) throw new NotFoundError('Offer not found');
  const before = { validation: offer.validation, validationReason: offer.validationReason };
  await recordStaffAction(em, context, decisionFacts({ type: 'offer', id: offerId }, before, decision, reason));
  offer.validation = decision;
  offer.validationReason = reason;
  offer.validatedAt = at;
  await em.flush();
  return { offerId, collective, decision, reason, offer, collectiveOffer: null };
}

function decisionFacts(
  target: StaffActionFacts['target'],
  before: StaffActionFacts['before'],
  decision: Decision,
  reason: string | null,
): StaffActionFacts {
  const action = decision === 'APPROVED' ? 'offer.approved' : 'offer.rejected';
  return { action, target, before, after: { validation: decision, validationReason: reason } };
}

function decisionOf(value: string): Decision {
  if (value !== 'APPROVED' && value !== 'REJECTED') throw new ForbiddenError('The decision is APPROVED or REJECTED');
  return value;
}

@Resolver()
export class OfferReviewResolver {
  @StaffOnly()
  @Mutation(() => OfferReview, {
    description:
      'Internal tools: the compliance decision (APPROVED or REJECTED) on an individual offer, or on a collective ' +
      'offer with collective: true.',
  })
  async reviewOffer(
    @Ctx() context: GraphContext,
    @Arg('offerId', () => Int) offerId: number,
    @Arg('decision', () => String) decision: string,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Arg('collective', () => Boolean, { defaultValue: false }) collective: boolean,
  ): Promise<OfferReview> {
    requireRole(context.caller, 'reviewer', 'review offers');
    const decided = decisionOf(decision);
    const at = context.clock.now();
    return context.em.transactional((em) => decide(context, em, { offerId, collective }, decided, reason, at));
  }

  @StaffOnly()
  @Mutation(() => OfferReview, {
    description: 'Internal tools: rejects an offer with the reason its provider then reads on it (validationReason).',
  })
  async rejectOffer(
    @Ctx() context: GraphContext,
    @Arg('offerId', () => Int) offerId: number,
    @Arg('reason', () => String) reason: string,
    @Arg('collective', () => Boolean, { defaultValue: false }) collective: boolean,
  ): Promise<OfferReview> {
    requireRole(context.caller, 'reviewer', 'review offers');
    const at = context.clock.now();
    return context.em.transactional((em) => decide(context, em, { offerId, collective }, 'REJECTED', reason, at));
  }

  @StaffOnly()
  @Mutation(() => [OfferReview], {
    description:
      'Internal tools: one decision on several offers, all or none. A rejection needs a reason, which each ' +
      'provider reads on its offer.',
  })
  async reviewOffers(
    @Ctx() context: GraphContext,
    @Arg('offers', () => [OfferToReview]) offers: OfferToReview[],
    @Arg('decision', () => String) decision: string,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
  ): Promise<OfferReview[]> {
    requireRole(context.caller, 'reviewer', 'review offers');
    const decided = decisionOf(decision);
    if (decided === 'REJECTED' && !reason) throw BadRequestError.on('reason', 'A rejection needs a reason');
    const at = context.clock.now();
    return context.em.transactional(async (em) => {
      const reviews: OfferReview[] = [];
      for (const target of offers) reviews.push(await decide(context, em, target, decided, reason, at));
      return reviews;
    });
  }

  @StaffOnly()
  @Query(() => [Offer], {
    description:
      'Internal tools: individual offers awaiting review (status PENDING), oldest first, one page in id order; ' +
      'of one provider and one category when given.',
  })
  offersAwaitingReview(
    @Ctx() context: GraphContext,
    @Arg('providerId', () => Int, { nullable: true }) providerId: number | null,
    @Arg('category', () => String, { nullable: true }) category: string | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
  ): Promise<Offer[]> {
    requireRole(context.caller, 'reviewer', 'read the review queue');
    const { firstIndex, limit } = pageBounds(page ?? new PageInput());
    return context.em.find(
      Offer,
      {
        id: { $gte: firstIndex },
        validation: 'PENDING',
        ...(providerId != null ? { provider: providerId } : {}),
        ...(category ? { category } : {}),
      },
      { orderBy: { id: 'asc' }, limit },
    );
  }
}

import { Arg, Ctx, Field, Int, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import { CollectiveOfferReference } from '../shared/references.js';
import { Offer } from './Offer.js';

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

@Resolver()
export class OfferReviewResolver {
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
    if (context.caller.kind !== 'internal') throw new ForbiddenError('Only internal tools review offers');
    if (decision !== 'APPROVED' && decision !== 'REJECTED')
      throw new ForbiddenError('The decision is APPROVED or REJECTED');
    const at = context.clock.now();
    if (collective) {
      if (context.events.handlerCount('offers.collectiveReviewDecided') === 0)
        throw new NotFoundError('Collective offer not found');
      await context.em.transactional((em) =>
        context.events.publish(em, 'offers.collectiveReviewDecided', { offerId, decision, reason, at }),
      );
      return { offerId, collective, decision, reason, offer: null, collectiveOffer: { id: offerId } };
    }
    const offer = await context.em.findOne(Offer, offerId);
    if (!offer) throw new NotFoundError('Offer not found');
    offer.validation = decision;
    offer.validationReason = reason;
    offer.validatedAt = at;
    await context.em.flush();
    return { offerId, collective, decision, reason, offer, collectiveOffer: null };
  }
}

import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../shared/context.js';
import { requireRole } from '../shared/internalOnly.js';
import { PageInput, pageBounds } from '../shared/pagination.js';
import { ProviderReference, referenceTo } from '../shared/references.js';
import { CollectiveOffer } from './CollectiveOffer.js';
import { StaffOnly } from '../shared/staffOnly.js';

/** The collective side of the back office's review queue. */
@Resolver(() => CollectiveOffer)
export class CollectiveReviewResolver {
  @StaffOnly()
  @Query(() => [CollectiveOffer], {
    description:
      'Internal tools: collective offers awaiting review (UNDER_REVIEW), oldest first, one page in id order; ' +
      'of one provider when given.',
  })
  collectiveOffersAwaitingReview(
    @Ctx() context: GraphContext,
    @Arg('providerId', () => Int, { nullable: true }) providerId: number | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
  ): Promise<CollectiveOffer[]> {
    requireRole(context.caller, 'reviewer', 'read the review queue');
    const { firstIndex, limit } = pageBounds(page ?? new PageInput());
    return context.em.find(
      CollectiveOffer,
      { id: { $gte: firstIndex }, validation: 'PENDING', ...(providerId != null ? { provider: providerId } : {}) },
      { populate: ['bookings'], orderBy: { id: 'asc' }, limit },
    );
  }

  @FieldResolver(() => ProviderReference, { description: 'The provider that sent the offer.' })
  provider(@Root() offer: CollectiveOffer): ProviderReference | null {
    return referenceTo(offer.provider);
  }
}

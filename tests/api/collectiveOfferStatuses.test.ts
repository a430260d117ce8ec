import { describe, expect, it } from 'vitest';
import { CollectiveBooking } from '../../graphql/collective/CollectiveBooking.js';
import { drainJobs } from '../support/builders.js';
import { collectiveWorld, NOW } from '../support/collectiveWorld.js';

describe('Collective offers: archiving and review', () => {
  const world = collectiveWorld();
  const { getOne, list, archive, book, move, created, published, underReview, bookedOffer, stored, patch, review, em } =
    world;

  describe('archiving', () => {
    it('archives offers (204): ARCHIVED, archivedAt stored; archiving again is refused (400)', async () => {
      const first = await published();
      const second = await published();
      const untouched = await published();
      const response = await archive({ ids: [first.id, second.id, first.id] });
      expect(response.status).toBe(204);
      expect((await getOne(untouched.id)).body).toMatchObject({ offerStatus: 'PUBLISHED', isActive: true });
      expect((await stored(untouched.id)).archivedAt).toBeNull();
      for (const offer of [first, second]) {
        expect((await getOne(offer.id)).body).toMatchObject({
          offerStatus: 'ARCHIVED',
          status: 'ARCHIVED',
          isActive: false,
        });
        expect((await stored(offer.id)).archivedAt?.toISOString()).toBe(NOW.toISOString());
      }
      world.testApp.clock.advance(3_600_000);
      const again = await archive({ ids: [first.id] });
      expect([again.status, again.body]).toEqual([
        400,
        { ids: [`The offer ${first.id} is ARCHIVED: it cannot be archived`] },
      ]);
      expect((await stored(first.id)).archivedAt?.toISOString()).toBe(NOW.toISOString());
      const archivedIds = (await list('?offerStatus=ARCHIVED')).body.map((offer: { id: number }) => offer.id);
      expect(archivedIds).toEqual(expect.arrayContaining([first.id, second.id]));
    });

    it('archives rejected and expired offers too, but not hidden ones (400)', async () => {
      const rejected = await created();
      expect((await review(rejected.id, 'REJECTED')).body.errors).toBeUndefined();
      const hidden = await created({ isActive: false });
      await drainJobs(world.testApp);
      expect((await getOne(hidden.id)).body.offerStatus).toBe('HIDDEN');
      const expiring = await published({ bookingLimitDatetime: '2026-11-23T10:00:00Z' });
      world.testApp.clock.set(new Date('2026-11-24T10:00:00Z'));
      expect((await getOne(expiring.id)).body.offerStatus).toBe('EXPIRED');
      const refused = await archive({ ids: [rejected.id, hidden.id, expiring.id] });
      expect([refused.status, refused.body]).toEqual([
        400,
        { ids: [`The offer ${hidden.id} is HIDDEN: it cannot be archived`] },
      ]);
      expect((await getOne(rejected.id)).body.offerStatus).toBe('REJECTED');
      expect((await archive({ ids: [rejected.id, expiring.id] })).status).toBe(204);
      for (const offer of [rejected, expiring]) expect((await getOne(offer.id)).body.offerStatus).toBe('ARCHIVED');
      expect((await getOne(hidden.id)).body.offerStatus).toBe('HIDDEN');
    });

    it('archives cancelled and reimbursed offers, and refuses an ended one (400)', async () => {
      const cancelled = (await bookedOffer(['cancelByProvider'])).offer;
      const reimbursed = (await bookedOffer(['confirm', 'use', 'reimburse'])).offer;
      const ended = (await bookedOffer(['confirm', 'use'])).offer;
      expect((await getOne(ended.id)).body.offerStatus).toBe('ENDED');
      const refused = await archive({ ids: [ended.id] });
      expect(refused.status).toBe(400);
      expect((await stored(ended.id)).archivedAt).toBeNull();
      for (const [offer, status] of [
        [cancelled, 'CANCELLED'],
        [reimbursed, 'REIMBURSED'],
      ] as const) {
        expect((await getOne(offer.id)).body.offerStatus).toBe(status);
        expect((await archive({ ids: [offer.id] })).status, status).toBe(204);
        expect((await getOne(offer.id)).body.offerStatus).toBe('ARCHIVED');
        expect((await stored(offer.id)).archivedAt?.toISOString()).toBe(NOW.toISOString());
      }
      expect((await getOne(ended.id)).body.offerStatus).toBe('ENDED');
    });

    it('is all or none: an unknown id is 404 and nothing is archived', async () => {
      const offer = await published();
      const response = await archive({ ids: [offer.id, 999_999] });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ global: [expect.stringContaining('999999')] });
      expect((await stored(offer.id)).archivedAt).toBeNull();
      expect((await getOne(offer.id)).body.offerStatus).toBe('PUBLISHED');
    });

    it('refuses to archive a hidden offer, booked or not, and to confirm a booking of an archived offer', async () => {
      const { offer, bookingId } = await bookedOffer([]);
      expect((await patch(offer.id, { isActive: false })).status).toBe(200);
      expect((await getOne(offer.id)).body.offerStatus).toBe('PREBOOKED');
      const refused = await archive({ ids: [offer.id] });
      expect(refused.status).toBe(400);
      expect(refused.body.ids[0]).toContain('PENDING booking');
      expect((await stored(offer.id)).archivedAt).toBeNull();
      // Cancelled by the school, the offer is still hidden: not archivable.
      expect((await move('cancel', bookingId)).status).toBe(204);
      const hidden = await archive({ ids: [offer.id] });
      expect([hidden.status, hidden.body]).toEqual([
        400,
        { ids: [`The offer ${offer.id} is HIDDEN: it cannot be archived`] },
      ]);
      // A shown offer whose booking was cancelled may be archived; its booking cannot be reopened then.
      const shown = await bookedOffer([]);
      expect((await move('cancel', shown.bookingId)).status).toBe(204);
      expect((await archive({ ids: [shown.offer.id] })).status).toBe(204);
      expect((await move('pending', shown.bookingId)).status).toBe(403);
    });

    it('lets an archive and a booking of one offer race: exactly one wins, and no archived offer holds a live booking', async () => {
      for (let round = 0; round < 5; round += 1) {
        const offer = await published();
        const [archived, booked] = await Promise.all([archive({ ids: [offer.id] }), book(offer.id)]);
        expect([archived.status, booked.status].sort()).toEqual(archived.status === 204 ? [204, 403] : [200, 400]);
        const row = await stored(offer.id);
        const live = await em().count(CollectiveBooking, { offer: offer.id, status: { $ne: 'CANCELLED' } });
        expect(row.archivedAt === null ? live : 0, `round ${round}`).toBe(row.archivedAt === null ? 1 : 0);
        if (row.archivedAt) expect(live).toBe(0);
      }
    });

    it('is all or none: an offer under review, pre-booked or booked is 400 and nothing is archived', async () => {
      const { offer: prebooked } = await bookedOffer([]);
      const { offer: booked } = await bookedOffer(['confirm']);
      const archivable = await published();
      const pending = await underReview();
      for (const refused of [pending, prebooked, booked]) {
        const response = await archive({ ids: [archivable.id, refused.id] });
        expect(response.status, String(refused.id)).toBe(400);
        expect(response.body).toEqual({
          ids: [expect.stringMatching(new RegExp(`^The offer ${refused.id} (is|has)`))],
        });
      }
      const all = await archive({ ids: [archivable.id, pending.id, prebooked.id, booked.id] });
      expect(all.status).toBe(400);
      expect(all.body.ids).toHaveLength(3);
      for (const offer of [archivable, pending, prebooked, booked])
        expect((await stored(offer.id)).archivedAt).toBeNull();
      expect((await getOne(archivable.id)).body.offerStatus).toBe('PUBLISHED');
    });

    it('validates its body (422): ids required, positive integers, no other field', async () => {
      const offer = await published();
      const cases: [unknown, string[], string][] = [
        [{ ids: [offer.id], surprise: true }, ['surprise'], 'extra_forbidden'],
        [{}, ['ids'], 'missing'],
        [{ ids: [] }, ['ids'], 'too_short'],
        [{ ids: ['one'] }, ['ids', '0'], 'int_parsing'],
        [{ ids: [0] }, ['ids', '0'], 'greater_than'],
      ];
      for (const [body, loc, type] of cases) {
        const response = await archive(body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc, type })]);
      }
      expect((await stored(offer.id)).archivedAt).toBeNull();
    });
  });

  describe('review', () => {
    /** A new offer reviewed: the decision answered, with the offer's status read from the collective subgraph. */
    const reviewed = async (decision: string, displayedStatus: string) => {
      const offer = await underReview();
      const response = await review(offer.id, decision);
      expect(response.body.errors, JSON.stringify(response.body)).toBeUndefined();
      // The gateway asks the collective subgraph for the offer's own fields: the federation reference works.
      expect(response.body.data.reviewOffer).toEqual({
        offerId: offer.id,
        collective: true,
        decision,
        collectiveOffer: { id: offer.id, displayedStatus },
      });
      return offer;
    };

    it('REJECTED through reviewOffer (collective: true, internal key) shows REJECTED', async () => {
      const offer = await reviewed('REJECTED', 'REJECTED');
      expect((await getOne(offer.id)).body).toMatchObject({ offerStatus: 'REJECTED', status: 'REJECTED' });
      expect(await stored(offer.id)).toMatchObject({ validation: 'REJECTED', validationReason: 'Checked' });
      // Not bookable.
      expect((await book(offer.id)).status).toBe(403);
    });

    it('APPROVED through reviewOffer publishes the offer', async () => {
      const offer = await reviewed('APPROVED', 'PUBLISHED');
      expect((await getOne(offer.id)).body).toMatchObject({ offerStatus: 'PUBLISHED', status: 'ACTIVE' });
      expect((await stored(offer.id)).validation).toBe('APPROVED');
    });

    it('is for internal tools only: a provider key finds no reviewOffer in its graph', async () => {
      const offer = await underReview();
      const response = await review(offer.id, 'APPROVED', world.key);
      expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(response.body)).toBe(
        'GRAPHQL_VALIDATION_FAILED',
      );
      expect((await stored(offer.id)).validation).toBe('PENDING');
    });

    it('answers NOT_FOUND for an unknown collective offer', async () => {
      const response = await review(999_999, 'APPROVED');
      expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(response.body)).toBe('NOT_FOUND');
    });
  });
});

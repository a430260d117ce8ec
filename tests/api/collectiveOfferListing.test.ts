import { wrap } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { CollectiveOffer } from '../../graphql/collective/CollectiveOffer.js';
import { collectiveWorld, contractFormats, START } from '../support/collectiveWorld.js';
import { expectStatus } from '../support/api.js';

describe('Collective offers: reading and listing', () => {
  const world = collectiveWorld();
  const {
    patch,
    getOne,
    list,
    archive,
    created,
    published,
    underReview,
    bookedOffer,
    stored,
    review,
    post,
    aBody,
    theatre,
    bookshop,
    anotherProvider,
    em,
  } = world;

  describe('reading one', () => {
    it('answers an offer of the caller (200), 404 for an unknown id, 403 for another provider’s', async () => {
      const offer = await created();
      const mine = await getOne(offer.id);
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual(offer);
      const unknown = await getOne(999_999);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ global: ['Collective offer not found'] });
      const unknownChange = await patch(999_999, { name: 'Nobody' });
      expect(unknownChange.status).toBe(404);
      expect(unknownChange.body).toEqual({ global: ['Collective offer not found'] });

      const schoolProvider = await anotherProvider(true);
      const theirs = await created({ venueId: schoolProvider.venueId }, schoolProvider.key);
      expect((await getOne(theirs.id, schoolProvider.key)).status).toBe(200);
      const forbidden = await getOne(theirs.id);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual({ global: ['You are not allowed to access this collective offer'] });
      const before = await stored(theirs.id);
      const changed = await patch(theirs.id, { name: 'Taken over' });
      expect(changed.status).toBe(403);
      expect(changed.body).toEqual({ global: ['You are not allowed to access this collective offer'] });
      expect((await stored(theirs.id)).name).toBe(before.name);
      // Not the caller's to archive either: not found among its offers.
      const archived = await archive({ ids: [theirs.id] });
      expect(archived.status).toBe(404);
      expect((await stored(theirs.id)).archivedAt).toBeNull();
    });

    it('takes an id in the path only (422 otherwise)', async () => {
      for (const id of ['abc', '0', '-1', '1.5']) {
        const response = await getOne(id);
        expect(response.status, id).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: ['offer_id'] })]);
      }
    });

    it('does not take /formats for an offer id: the formats the contract enumerates (200)', async () => {
      const response = await world.api.call('GetOffersFormats');
      expectStatus(response, 200);
      expect(response.body).toEqual(contractFormats());
    });
  });

  // pass Culture's API answers {"auth": "API key required"} to a call without a key, on every operation.
  it('answers 401 without a key and with an unknown key, on every collective offer operation, and changes nothing', async () => {
    const offer = await published();
    const unknownKey = `test_000000000000_${'a'.repeat(64)}`;
    for (const key of [null, unknownKey]) {
      const answers = [
        await getOne(offer.id, key),
        await list('', key),
        await post(aBody(), key),
        await patch(offer.id, { name: 'Sans clé' }, key),
        await archive({ ids: [offer.id] }, key),
      ];
      for (const response of answers) {
        expect(response.status, String(key)).toBe(401);
        expect(response.body).toEqual({ auth: 'API key required' });
      }
    }
    expect(await stored(offer.id)).toMatchObject({ name: offer.name, archivedAt: null });
  });

  describe('the list', () => {
    it('lists only the caller’s offers, in id order, with their bookings; none is an empty list', async () => {
      const schoolProvider = await anotherProvider(true);
      const none = await list('', schoolProvider.key);
      expect([none.status, none.body]).toEqual([200, []]);
      const theirs = await created({ venueId: schoolProvider.venueId }, schoolProvider.key);
      const first = await created();
      const second = await underReview({ venueId: bookshop() });
      const response = await list();
      expect(response.status).toBe(200);
      const ids = response.body.map((offer: { id: number }) => offer.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
      expect(ids).not.toContain(theirs.id);
      expect(response.body.find((offer: { id: number }) => offer.id === second.id)).toEqual({
        id: second.id,
        status: 'PENDING',
        offerStatus: 'UNDER_REVIEW',
        venueId: bookshop(),
        startDatetime: START,
        endDatetime: START,
        bookings: [],
      });
      const theirList = await list('', schoolProvider.key);
      expect(theirList.body.map((offer: { id: number }) => offer.id)).toEqual([theirs.id]);
    });

    it('filters by displayed status (offerStatus) and by the deprecated status', async () => {
      const live = await published();
      const { offer: prebooked, bookingId } = await bookedOffer([]);
      const pending = await underReview();
      /** The ids listed with this filter, each offer listed showing the status filtered on. */
      const idsWith = async (filter: 'offerStatus' | 'status', value: string) => {
        const response = await list(`?${filter}=${value}`);
        expectStatus(response, 200);
        expect(response.body.every((offer) => offer[filter] === value)).toBe(true);
        return response.body.map((offer) => offer.id);
      };
      const byOfferStatus = (offerStatus: string) => idsWith('offerStatus', offerStatus);
      const byStatus = (status: string) => idsWith('status', status);
      expect(await byOfferStatus('PUBLISHED')).toContain(live.id);
      expect(await byOfferStatus('PUBLISHED')).not.toContain(pending.id);
      expect(await byOfferStatus('UNDER_REVIEW')).toContain(pending.id);
      expect(await byOfferStatus('UNDER_REVIEW')).not.toContain(live.id);
      const prebookedIds = await byOfferStatus('PREBOOKED');
      expect(prebookedIds).toContain(prebooked.id);
      expect(prebookedIds).not.toContain(live.id);
      const withBooking = (await list('?offerStatus=PREBOOKED')).body.find(
        (offer: { id: number }) => offer.id === prebooked.id,
      );
      expect(withBooking.bookings).toEqual([expect.objectContaining({ id: bookingId, status: 'PENDING' })]);
      expect(await byOfferStatus('ARCHIVED')).not.toContain(live.id);

      expect(await byStatus('ACTIVE')).toContain(live.id);
      expect(await byStatus('PENDING')).toContain(pending.id);
      expect(await byStatus('SOLD_OUT')).toContain(prebooked.id);
      expect(await byStatus('ACTIVE')).not.toContain(prebooked.id);

      for (const query of ['?offerStatus=LIVE', '?status=PUBLISHED']) {
        const bad = await list(query);
        expect(bad.status, query).toBe(422);
        expect(bad.body).toEqual([expect.objectContaining({ type: 'enum' })]);
      }
    });

    it('filters by each displayed status an offer reaches through the API, and lists it with that status', async () => {
      const rejected = await created();
      expect((await review(rejected.id, 'REJECTED')).body.errors).toBeUndefined();
      const reached: [string, { id: number }][] = [
        ['PUBLISHED', await published()],
        ['UNDER_REVIEW', await underReview()],
        ['REJECTED', rejected],
        ['PREBOOKED', (await bookedOffer([])).offer],
        ['BOOKED', (await bookedOffer(['confirm'])).offer],
        ['ENDED', (await bookedOffer(['confirm', 'use'])).offer],
        ['CANCELLED', (await bookedOffer(['cancelByProvider'])).offer],
        ['REIMBURSED', (await bookedOffer(['confirm', 'use', 'reimburse'])).offer],
        ['EXPIRED', await published({ bookingLimitDatetime: '2026-11-23T10:00:00Z' })],
      ];
      world.testApp.clock.set(new Date('2026-11-24T10:00:00Z'));
      for (const [status, offer] of reached) {
        const response = await list(`?offerStatus=${status}`);
        expectStatus(response, 200);
        const ids = response.body.map((listed: { id: number }) => listed.id);
        expect(ids, status).toContain(offer.id);
        for (const [other, otherOffer] of reached) {
          if (other !== status) expect(ids, `${status} lists the ${other} offer`).not.toContain(otherOffer.id);
        }
        expect(response.body.every((listed: { offerStatus: string }) => listed.offerStatus === status)).toBe(true);
      }
    });

    it('answers at most 500 offers, the lowest ids first; a status filter reads on until its list is full', async () => {
      const school = await anotherProvider(true);
      const first = await created({ venueId: school.venueId }, school.key);
      // 520 more: copies of the first, written in the database (through the API they would take
      // the key's budget three times over).
      const fork = em();
      const source = await fork.findOneOrFail(CollectiveOffer, first.id);
      const { id: _id, bookings: _bookings, ...fields } = wrap(source).toObject();
      const copies = Array.from({ length: 520 }, () => fork.create(CollectiveOffer, fields, { persist: false }));
      await fork.insertMany(copies);
      const every = [first.id, ...copies.map((copy) => copy.id)].sort((a, b) => a - b);
      const last = every.at(-1)!;
      // The last one under review: the others' status matches 520 offers, this one's only one.
      await fork.nativeUpdate(CollectiveOffer, last, {
        validation: 'PENDING',
        validationReason: null,
        validatedAt: null,
      });

      const idsOf = async (query: string) => {
        const response = await list(query, school.key);
        expectStatus(response, 200);
        return response.body.map((offer: { id: number }) => offer.id);
      };
      expect(await idsOf('')).toEqual(every.slice(0, 500));
      const others = (await getOne(first.id, school.key)).body.offerStatus as string;
      expect(others).not.toBe('UNDER_REVIEW');
      expect(await idsOf(`?offerStatus=${others}`)).toEqual(every.slice(0, 500));
      // Only past the first 500 offers read: found all the same.
      expect(await idsOf('?offerStatus=UNDER_REVIEW')).toEqual([last]);
      expect(await idsOf('?status=PENDING')).toEqual([last]);
    });

    it('filters by venue; a venue out of reach is 404', async () => {
      const atTheatre = await created({ venueId: theatre() });
      const atBookshop = await created({ venueId: bookshop() });
      const theatreOnly = await list(`?venueId=${theatre()}`);
      expect(theatreOnly.status).toBe(200);
      const ids = theatreOnly.body.map((offer: { id: number }) => offer.id);
      expect(ids).toContain(atTheatre.id);
      expect(ids).not.toContain(atBookshop.id);
      expect(theatreOnly.body.every((offer: { venueId: number }) => offer.venueId === theatre())).toBe(true);
      const schoolProvider = await anotherProvider(true);
      for (const venueId of [999_999, schoolProvider.venueId]) {
        const unreachable = await list(`?venueId=${venueId}`);
        expect(unreachable.status, String(venueId)).toBe(404);
        expect(unreachable.body).toEqual({ global: ['Venue not found'] });
      }
      const bad = await list('?venueId=theatre');
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual([expect.objectContaining({ loc: ['venueId'] })]);
    });

    it('filters by the period the start falls in: days (UTC, bounds included) or datetimes; a bad date is 422', async () => {
      const startingAt = (startDatetime: string) =>
        created({ startDatetime, bookingLimitDatetime: '2027-02-01T00:00:00Z' });
      const early = await startingAt('2027-03-01T00:00:00Z');
      const middle = await startingAt('2027-03-10T12:00:00Z');
      const late = await startingAt('2027-03-20T23:59:59Z');
      const after = await startingAt('2027-03-21T00:00:00Z');
      const ours = [early.id, middle.id, late.id, after.id];
      const within = async (query: string) => {
        const response = await list(query);
        expect(response.status, query).toBe(200);
        return response.body.map((offer: { id: number }) => offer.id).filter((id: number) => ours.includes(id));
      };
      expect(await within('?periodBeginningDate=2027-03-01&periodEndingDate=2027-03-20')).toEqual([
        early.id,
        middle.id,
        late.id,
      ]);
      expect(await within('?periodBeginningDate=2027-03-02')).toEqual([middle.id, late.id, after.id]);
      expect(await within('?periodEndingDate=2027-03-10')).toEqual([early.id, middle.id]);
      expect(await within('?periodBeginningDate=2027-03-10T12:00:00Z&periodEndingDate=2027-03-20T23:59:58Z')).toEqual([
        middle.id,
      ]);
      expect(await within(`?periodBeginningDate=${encodeURIComponent('2027-03-10T13:00:00+01:00')}`)).toEqual([
        middle.id,
        late.id,
        after.id,
      ]);
      expect(await within(`?periodBeginningDate=${encodeURIComponent('2027-03-10T13:00:01+01:00')}`)).toEqual([
        late.id,
        after.id,
      ]);
      expect(await within('?periodBeginningDate=2027-03-21&periodEndingDate=2027-03-01')).toEqual([]);
      for (const [query, loc] of [
        ['?periodBeginningDate=tomorrow', 'periodBeginningDate'],
        ['?periodEndingDate=2027-13-01', 'periodEndingDate'],
        ['?periodBeginningDate=2027-03', 'periodBeginningDate'],
        ['?periodEndingDate=12/03/2027', 'periodEndingDate'],
      ]) {
        const bad = await list(query);
        expect(bad.status, query).toBe(422);
        expect(bad.body).toEqual([expect.objectContaining({ loc: [loc], type: 'date_parsing' })]);
      }
    });

    // Date.parse would roll 2027-02-30 over into March: such a day is refused, as in bodies.
    it('refuses a day that does not exist (422 date_parsing)', async () => {
      for (const query of ['?periodBeginningDate=2027-02-30', '?periodEndingDate=2027-04-31']) {
        const bad = await list(query);
        expect(bad.status, query).toBe(422);
        expect(bad.body).toEqual([expect.objectContaining({ type: 'date_parsing' })]);
      }
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  collectiveWorld,
  contractRequiredOnCreation,
  type Json,
  LIMIT,
  type Move,
  seed,
  START,
} from '../support/collectiveWorld.js';
import { drainJobs } from '../support/builders.js';
import { aGif, aPng } from '../support/images.js';

describe('Collective offers: changes', () => {
  const world = collectiveWorld({ images: true });
  const {
    patch,
    getOne,
    archive,
    created,
    published,
    underReview,
    bookedOffer,
    stored,
    storedBooking,
    offerCount,
    theatre,
    bookshop,
    online,
    anotherProvider,
    anAddress,
  } = world;

  describe('changes', () => {
    it('changes only the fields sent (200), and stores them', async () => {
      const offer = await published({ durationMinutes: 90, educationalPriceDetail: 'Tout compris' });
      const before = await stored(offer.id);
      const response = await patch(offer.id, { name: 'Atelier masques', totalPrice: 700 });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toEqual({ ...offer, name: 'Atelier masques', totalPrice: 700 });
      const after = await stored(offer.id);
      expect(after).toMatchObject({
        name: 'Atelier masques',
        totalPriceCents: 70000,
        description: before.description,
        durationMinutes: 90,
        priceDetail: 'Tout compris',
        domains: before.domains,
        students: before.students,
        locationType: 'SCHOOL',
      });
      expect(after.startDatetime.getTime()).toBe(before.startDatetime.getTime());
      // An empty body changes nothing.
      const nothing = await patch(offer.id, {});
      expect(nothing.status).toBe(200);
      expect(nothing.body).toEqual(response.body);
    });

    it('clears the nullable fields sent null (duration, price detail, programme, image)', async () => {
      const offer = await published({
        durationMinutes: 90,
        educationalPriceDetail: 'Tout compris',
        nationalProgramId: seed.theatreAtSchool.id,
        imageFile: aPng(400, 600).toString('base64'),
        imageCredit: 'Photo: A. Demo',
      });
      expect(offer.imageUrl).not.toBeNull();
      const response = await patch(offer.id, {
        durationMinutes: null,
        educationalPriceDetail: null,
        nationalProgramId: null,
        imageFile: null,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({
        durationMinutes: null,
        educationalPriceDetail: null,
        educationalInstitutionId: seed.activeInstitution.id,
        nationalProgram: null,
        imageUrl: null,
        imageCredit: null,
      });
      expect(await stored(offer.id)).toMatchObject({
        durationMinutes: null,
        priceDetail: null,
        institution: { id: seed.activeInstitution.id },
        nationalProgram: null,
        imageKey: null,
        imageCredit: null,
      });
    });

    // pass Culture's API links the two fields: an image needs a credit, a credit an image.
    it('keeps an image and its credit together (400 naming the field otherwise), and changes nothing then', async () => {
      const png = aPng(400, 600).toString('base64');
      const bare = await published();
      const cases: [Json, string, string][] = [
        [{ imageFile: png }, 'imageFile', 'A new image needs a credit: send imageCredit with imageFile'],
        [{ imageCredit: 'Photo: C. Demo' }, 'imageCredit', 'A credit needs an image: send imageFile with imageCredit'],
        [
          { imageFile: png, imageCredit: null },
          'imageCredit',
          'An image needs its credit: imageCredit cannot be null while there is one',
        ],
      ];
      for (const [body, field, message] of cases) {
        const response = await patch(bare.id, body);
        expect([response.status, response.body], JSON.stringify(Object.keys(body))).toEqual([
          400,
          { [field]: [message] },
        ]);
      }
      expect(await stored(bare.id)).toMatchObject({ imageKey: null, imageCredit: null });

      const pictured = await published({ imageFile: png, imageCredit: 'Photo: A. Demo' });
      const keptCredit = await patch(pictured.id, { imageCredit: null });
      expect([keptCredit.status, keptCredit.body]).toEqual([
        400,
        { imageCredit: ['An image needs its credit: imageCredit cannot be null while there is one'] },
      ]);
      expect((await stored(pictured.id)).imageCredit).toBe('Photo: A. Demo');
      // A new image keeps the credit it has, a new credit alone changes it, and removing both clears the image.
      const newImage = await patch(pictured.id, { imageFile: aPng(800, 1200).toString('base64') });
      expect(newImage.status, JSON.stringify(newImage.body)).toBe(200);
      expect(newImage.body).toMatchObject({ imageCredit: 'Photo: A. Demo', imageUrl: expect.any(String) });
      const newCredit = await patch(pictured.id, { imageCredit: 'Photo: B. Demo' });
      expect(newCredit.body).toMatchObject({ imageCredit: 'Photo: B. Demo' });
      const removed = await patch(pictured.id, { imageFile: null, imageCredit: null });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect(await stored(pictured.id)).toMatchObject({ imageKey: null, imageCredit: null });
      // Both together on an offer without an image: fine.
      const both = await patch(bare.id, { imageFile: png, imageCredit: 'Photo: D. Demo' });
      expect(both.status, JSON.stringify(both.body)).toBe(200);
      expect(await stored(bare.id)).toMatchObject({ imageKey: expect.any(String), imageCredit: 'Photo: D. Demo' });
    });

    it('refuses null on a field that cannot be empty (422 not_nullable), and changes nothing', async () => {
      const offer = await published({ endDatetime: '2027-01-16T09:00:00Z' });
      // What every offer has cannot be emptied: what creation requires (but the booking limit), the location, the
      // area, the flag it defaults, and, as in pass Culture's API, the end and the institution (by id or by UAI).
      const notNullable = [
        ...contractRequiredOnCreation().filter((field) => field !== 'bookingLimitDatetime'),
        'location',
        'interventionArea',
        'isActive',
        'endDatetime',
        'educationalInstitutionId',
        'educationalInstitution',
      ];
      for (const field of notNullable) {
        const response = await patch(offer.id, { [field]: null });
        expect(response.status, field).toBe(422);
        expect(response.body, field).toEqual([
          { loc: [field], msg: 'This field cannot be null', type: 'not_nullable' },
        ]);
      }
      const both = await patch(offer.id, { educationalInstitutionId: null, educationalInstitution: null });
      expect(both.status).toBe(422);
      expect(both.body.map((issue: { loc: string[] }) => issue.loc[0]).sort()).toEqual([
        'educationalInstitution',
        'educationalInstitutionId',
      ]);
      expect((await getOne(offer.id)).body).toEqual(offer);
      const row = await stored(offer.id);
      expect(row.institution?.id).toBe(seed.activeInstitution.id);
      expect(row.endDatetime.toISOString()).toBe('2027-01-16T09:00:00.000Z');
    });

    // pass Culture's API reads a null booking limit as "until the event starts".
    it('sets a booking limit sent null to the start, the new one if it moves too; a pending pre-booking follows', async () => {
      const offer = await published();
      const response = await patch(offer.id, { bookingLimitDatetime: null });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ bookingLimitDatetime: START, startDatetime: START });
      expect((await stored(offer.id)).bookingLimitDatetime.toISOString()).toBe(START);

      const { offer: prebooked, bookingId } = await bookedOffer([]);
      const moved = await patch(prebooked.id, { bookingLimitDatetime: null, startDatetime: '2027-02-01T09:00:00Z' });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({
        bookingLimitDatetime: '2027-02-01T09:00:00.000Z',
        startDatetime: '2027-02-01T09:00:00.000Z',
        offerStatus: 'PREBOOKED',
      });
      expect((await stored(prebooked.id)).bookingLimitDatetime.toISOString()).toBe('2027-02-01T09:00:00.000Z');
      expect((await storedBooking(bookingId)).confirmationLimitDate.toISOString()).toBe('2027-02-01T09:00:00.000Z');

      // A dates change all the same: refused where the dates may not change.
      const { offer: booked } = await bookedOffer(['confirm']);
      const refused = await patch(booked.id, { bookingLimitDatetime: null });
      expect([refused.status, refused.body]).toEqual([
        400,
        { bookingLimitDatetime: ['bookingLimitDatetime cannot change while the offer is BOOKED'] },
      ]);
      expect((await stored(booked.id)).bookingLimitDatetime.toISOString()).toBe(LIMIT);
    });

    // The flags are NOT NULL columns: null is refused before it reaches them (it once gave a 500).
    it('refuses null on an accessibility flag (422 not_nullable), as on isActive', async () => {
      const offer = await created({ audioDisabilityCompliant: true });
      for (const field of [
        'audioDisabilityCompliant',
        'mentalDisabilityCompliant',
        'motorDisabilityCompliant',
        'visualDisabilityCompliant',
      ]) {
        const response = await patch(offer.id, { [field]: null });
        expect(response.status, `${field}: ${JSON.stringify(response.body)}`).toBe(422);
        expect(response.body, field).toEqual([
          { loc: [field], msg: 'This field cannot be null', type: 'not_nullable' },
        ]);
      }
      expect((await stored(offer.id)).audioDisabilityCompliant).toBe(true);
    });

    // pass Culture's API stores the number it reads: '01 00 99 27.98' is +33100992798.
    it('stores a French phone number in its international form (+33), on creation and on change', async () => {
      const offer = await created({ contactPhone: '01 00 99 27.98' });
      expect(offer.contactPhone).toBe('+33100992798');
      expect((await stored(offer.id)).contactPhone).toBe('+33100992798');
      for (const [sent, kept] of [
        ['01 99 00 63 28', '+33199006328'],
        ['06-12-34-56-78', '+33612345678'],
        ['0033 6 12 34 56 78', '+33612345678'],
        ['+44 20 7946 0958', '+442079460958'],
        ['+33 1 99 00 63 28', '+33199006328'],
      ]) {
        const response = await patch(offer.id, { contactPhone: sent });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body.contactPhone, sent).toBe(kept);
        expect((await stored(offer.id)).contactPhone).toBe(kept);
      }
      // The same number written otherwise is no change: allowed even where the details may not change.
      const { offer: booked } = await bookedOffer(['confirm'], { contactPhone: '+33199006328' });
      expect((await patch(booked.id, { contactPhone: '01.99.00.63.28' })).status).toBe(200);
    });

    it('is strict: an unknown field, at the top or in a location, is 422 extra_forbidden; bad values are 422', async () => {
      const offer = await created();
      const extras: [Json, string[]][] = [
        [{ surprise: 1 }, ['surprise']],
        [{ id: 5 }, ['id']],
        [{ location: { type: 'SCHOOL', comment: 'x' } }, ['location', 'comment']],
        [{ location: { type: 'ADDRESS', isVenueAddress: false, addressId: 1, comment: 'x' } }, ['location', 'comment']],
      ];
      for (const [body, loc] of extras) {
        const response = await patch(offer.id, body);
        expect(response.status, loc.join('.')).toBe(422);
        expect(response.body).toEqual([{ loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
      }
      const values: [Json, string[], string][] = [
        [{ formats: ['Cirque'] }, ['formats', '0'], 'enum'],
        [{ contactEmail: 'nope' }, ['contactEmail'], 'email_parsing'],
        [{ totalPrice: 10.015 }, ['totalPrice'], 'decimal_max_places'],
        [{ startDatetime: '2027-01-15 09:00' }, ['startDatetime'], 'timezone_aware'],
        [{ interventionArea: ['x'.repeat(11)] }, ['interventionArea', '0'], 'string_too_long'],
        [{ contactPhone: 'NOT A PHONE NUMBER' }, ['contactPhone'], 'string_pattern_mismatch'],
        [{ description: 'too_long'.repeat(200) }, ['description'], 'string_too_long'],
        [{ domains: [] }, ['domains'], 'too_short'],
        [{ bookingLimitDatetime: '2027-01-10T15:00:00' }, ['bookingLimitDatetime'], 'timezone_aware'],
        [{ endDatetime: '2027-01-16 15:00:00' }, ['endDatetime'], 'timezone_aware'],
        [{ formats: [] }, ['formats'], 'too_short'],
        [{ students: [] }, ['students'], 'too_short'],
        [{ name: '   ' }, ['name'], 'string_too_short'],
        [{ name: 'x'.repeat(111) }, ['name'], 'string_too_long'],
        [{ educationalPriceDetail: 'x'.repeat(1001) }, ['educationalPriceDetail'], 'string_too_long'],
        [{ numberOfTickets: -1 }, ['numberOfTickets'], 'greater_than_equal'],
        [{ totalPrice: -1 }, ['totalPrice'], 'greater_than_equal'],
        [{ bookingEmails: [] }, ['bookingEmails'], 'too_short'],
        [{ imageFile: '', imageCredit: 'Photo: A. Demo' }, ['imageFile'], 'string_too_short'],
      ];
      for (const [body, loc, type] of values) {
        const response = await patch(offer.id, body);
        expect(response.status, loc.join('.')).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc, type })]);
      }
      expect((await getOne(offer.id)).body).toEqual(offer);
    });

    it('checks the dates as they would be: not in the past, the booking limit not after the start, the end not before it', async () => {
      const offer = await published({ endDatetime: '2027-01-16T09:00:00Z' });
      const cases: [Json, string[]][] = [
        [{ startDatetime: '2026-11-01T09:00:00Z' }, ['startDatetime', 'bookingLimitDatetime']],
        [{ bookingLimitDatetime: '2026-11-21T09:00:00Z' }, ['bookingLimitDatetime']],
        [{ bookingLimitDatetime: '2027-01-15T09:00:01Z' }, ['bookingLimitDatetime']],
        [{ startDatetime: '2027-01-05T17:00:00Z' }, ['bookingLimitDatetime']],
        [{ endDatetime: '2027-01-15T08:00:00Z' }, ['endDatetime']],
        [{ startDatetime: '2027-01-17T09:00:00Z' }, ['endDatetime']],
      ];
      for (const [body, locs] of cases) {
        const response = await patch(offer.id, body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        for (const loc of locs) {
          expect(
            response.body.map((issue: { loc: string[] }) => issue.loc[0]),
            JSON.stringify(response.body),
          ).toContain(loc);
        }
      }
      expect((await getOne(offer.id)).body).toEqual(offer);
      // Both moved together, consistently: fine.
      const moved = await patch(offer.id, {
        startDatetime: '2027-02-01T09:00:00Z',
        endDatetime: '2027-02-02T09:00:00Z',
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({
        startDatetime: '2027-02-01T09:00:00.000Z',
        endDatetime: '2027-02-02T09:00:00.000Z',
        bookingLimitDatetime: LIMIT,
      });
    });

    it('moves a one-moment offer’s end with its start', async () => {
      const offer = await published();
      const response = await patch(offer.id, { startDatetime: '2027-02-01T09:00:00Z' });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({
        startDatetime: '2027-02-01T09:00:00.000Z',
        endDatetime: '2027-02-01T09:00:00.000Z',
      });
      expect((await stored(offer.id)).endDatetime.toISOString()).toBe('2027-02-01T09:00:00.000Z');
    });

    it('applies the creation rules to what changes: domains and programme, students, venue, location', async () => {
      const offer = await published({ nationalProgramId: seed.theatreAtSchool.id });
      const before = await offerCount();
      const cases: [Json, number, Json][] = [
        [{ domains: [99] }, 404, { global: [expect.stringContaining('99')] }],
        // The programme stays: it must belong to the new domains.
        [{ domains: [seed.cinemaDomain.id] }, 400, { nationalProgramId: [expect.any(String)] }],
        [{ nationalProgramId: seed.schoolCinema.id }, 400, { nationalProgramId: [expect.any(String)] }],
        // New domains and a programme of none of them, together.
        [
          { domains: [seed.cinemaDomain.id], nationalProgramId: seed.theatreAtSchool.id },
          400,
          { nationalProgramId: [expect.any(String)] },
        ],
        [{ students: ['NOPE'] }, 400, { students: [expect.any(String)] }],
        [{ venueId: 999_999 }, 404, { global: ['Venue not found'] }],
        [
          { venueId: online(), location: { type: 'ADDRESS', isVenueAddress: true } },
          400,
          { location: [expect.any(String)] },
        ],
        [
          { location: { type: 'ADDRESS', isVenueAddress: false, addressId: 999_999 } },
          404,
          { global: ['Address not found'] },
        ],
      ];
      for (const [body, status, answer] of cases) {
        const response = await patch(offer.id, body);
        expect(response.status, JSON.stringify(body)).toBe(status);
        expect(response.body, JSON.stringify(body)).toEqual(answer);
      }
      expect((await getOne(offer.id)).body).toEqual(offer);
      expect(await offerCount()).toBe(before);
      const notForSchools = await anotherProvider(false);
      const otherVenue = await patch(offer.id, { venueId: notForSchools.venueId });
      expect(otherVenue.status).toBe(404);
      // New domains the programme belongs to one of: the programme stays.
      const domains = await patch(offer.id, { domains: [seed.theatreDomain.id, seed.cinemaDomain.id] });
      expect(domains.status, JSON.stringify(domains.body)).toBe(200);
      expect(domains.body).toMatchObject({
        domains: [seed.theatreDomain.id, seed.cinemaDomain.id],
        nationalProgram: { id: seed.theatreAtSchool.id },
      });
    });

    it('moves an offer to each kind of location: SCHOOL, TO_BE_DEFINED with a comment, ADDRESS at the venue, ADDRESS elsewhere', async () => {
      const offer = await published();
      const address = await anAddress();
      const moves: [Json, Json, Json][] = [
        [
          { type: 'TO_BE_DEFINED', comment: 'In Paris' },
          { type: 'TO_BE_DEFINED', comment: 'In Paris' },
          { locationType: 'TO_BE_DEFINED', locationComment: 'In Paris', address: null, atVenueAddress: false },
        ],
        [
          { type: 'ADDRESS', isVenueAddress: true },
          { type: 'ADDRESS', isVenueAddress: true },
          { locationType: 'ADDRESS', locationComment: null, address: null, atVenueAddress: true },
        ],
        [
          { type: 'ADDRESS', isVenueAddress: false, addressLabel: 'My second address', addressId: address.id },
          { type: 'ADDRESS', isVenueAddress: false, addressLabel: 'My second address', addressId: address.id },
          {
            locationType: 'ADDRESS',
            locationComment: null,
            address: { id: address.id },
            addressLabel: 'My second address',
            atVenueAddress: false,
          },
        ],
        [
          { type: 'SCHOOL' },
          { type: 'SCHOOL' },
          { locationType: 'SCHOOL', locationComment: null, address: null, addressLabel: null, atVenueAddress: false },
        ],
      ];
      for (const [location, answered, row] of moves) {
        const response = await patch(offer.id, { location });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body.location).toEqual(answered);
        expect(await stored(offer.id)).toMatchObject(row);
      }
    });

    it('refuses a malformed location (422 under location), and changes nothing', async () => {
      const offer = await published({ location: { type: 'TO_BE_DEFINED', comment: 'Au gymnase' } });
      for (const location of [
        1,
        {},
        { type: 'bloup' },
        { type: 'SCHOOL', isVenueAddress: true },
        { type: 'ADDRESS', locationComment: 'hello' },
        { type: 'ADDRESS' },
        { type: 'ADDRESS', isVenueAddress: true, addressId: 1 },
        { type: 'ADDRESS', isVenueAddress: false },
        { type: 'TO_BE_DEFINED', addressId: 1 },
      ]) {
        const response = await patch(offer.id, { location });
        expect(response.status, JSON.stringify(location)).toBe(422);
        expect(response.body.length, JSON.stringify(response.body)).toBeGreaterThan(0);
        for (const issue of response.body as { loc: string[] }[]) {
          expect(issue.loc[0], JSON.stringify(location)).toBe('location');
        }
      }
      expect((await getOne(offer.id)).body).toEqual(offer);
    });

    it('refuses an image of the wrong size or of a type it cannot read (422 at imageFile), and changes nothing sent with it', async () => {
      const offer = await published();
      for (const imageFile of [
        aPng(200, 300).toString('base64'),
        aGif(400, 600).toString('base64'),
        Buffer.from('not an image at all').toString('base64'),
      ]) {
        const response = await patch(offer.id, { name: 'pouet', imageCredit: 'a great artist', imageFile });
        expect(response.status, JSON.stringify(response.body)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: ['imageFile'] })]);
      }
      expect(await stored(offer.id)).toMatchObject({ name: offer.name, imageKey: null, imageCredit: null });
    });

    // Creation refuses ADDRESS at the venue for a venue without an address; moving there is refused alike.
    it('refuses to move an offer at its venue’s address to a venue without one (400)', async () => {
      const offer = await published({ location: { type: 'ADDRESS', isVenueAddress: true } });
      const response = await patch(offer.id, { venueId: online() });
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(await stored(offer.id)).toMatchObject({ venue: { id: theatre() }, atVenueAddress: true });
    });

    describe('as the offer’s displayed status allows', () => {
      /** A change of every field but the institution (set at creation), valid on a fresh offer. */
      const everything = async () => {
        const address = await anAddress();
        return {
          venueId: bookshop(),
          name: 'Visite des coulisses',
          description: 'Les coulisses du théâtre.',
          formats: ['Visite guidée'],
          bookingEmails: ['other@example.com'],
          contactEmail: 'other@example.com',
          contactPhone: '01 99 00 63 29',
          domains: [seed.cinemaDomain.id, seed.theatreDomain.id],
          students: ['GENERAL2'],
          interventionArea: ['75', '2A', '974'],
          location: {
            type: 'ADDRESS',
            isVenueAddress: false,
            addressId: address.id,
            addressLabel: 'Entrée des artistes',
          },
          startDatetime: '2027-02-01T09:00:00Z',
          endDatetime: '2027-02-01T12:00:00Z',
          bookingLimitDatetime: '2027-01-20T09:00:00Z',
          totalPrice: 480.25,
          numberOfTickets: 25,
          educationalPriceDetail: 'Guide compris',
          durationMinutes: 180,
          nationalProgramId: seed.schoolCinema.id,
          imageFile: aPng(400, 600).toString('base64'),
          imageCredit: 'Photo: B. Demo',
          isActive: false,
          audioDisabilityCompliant: true,
          mentalDisabilityCompliant: true,
          motorDisabilityCompliant: true,
          visualDisabilityCompliant: true,
          address,
        };
      };
      const expectEverythingChanged = async (
        id: number,
        response: { body: Json },
        change: Awaited<ReturnType<typeof everything>>,
      ) => {
        const { address, imageFile: _imageFile, nationalProgramId: _programme, ...plain } = change;
        expect(response.body).toMatchObject({
          ...plain,
          contactPhone: '+33199006329',
          startDatetime: '2027-02-01T09:00:00.000Z',
          endDatetime: '2027-02-01T12:00:00.000Z',
          bookingLimitDatetime: '2027-01-20T09:00:00.000Z',
          educationalInstitution: seed.activeInstitution.uai,
          educationalInstitutionId: seed.activeInstitution.id,
          nationalProgram: { id: seed.schoolCinema.id, name: seed.schoolCinema.name },
          imageUrl: expect.stringMatching(/^http:\/\/api\.test\/images\//),
          offerVenue: {
            addressType: 'other',
            otherAddress: `Entrée des artistes, ${address.street}, 75004 Paris`,
            venueId: null,
          },
        });
        expect(await stored(id)).toMatchObject({
          venue: { id: bookshop() },
          name: 'Visite des coulisses',
          totalPriceCents: 48025,
          numberOfTickets: 25,
          interventionArea: ['75', '2A', '974'],
          locationType: 'ADDRESS',
          address: { id: address.id },
          addressLabel: 'Entrée des artistes',
          institution: { id: seed.activeInstitution.id },
          nationalProgram: { id: seed.schoolCinema.id },
          priceDetail: 'Guide compris',
          isActive: change.isActive,
          visualDisabilityCompliant: true,
        });
      };

      it('PUBLISHED: every field but the institution may change', async () => {
        const offer = await published();
        const { address, ...change } = await everything();
        const response = await patch(offer.id, change);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        await expectEverythingChanged(offer.id, response, { address, ...change });
      });

      it('PREBOOKED: every field but the institution may change, and the pre-booking follows the new dates', async () => {
        const { offer, bookingId } = await bookedOffer([]);
        expect((await getOne(offer.id)).body).toMatchObject({
          offerStatus: 'PREBOOKED',
          status: 'SOLD_OUT',
          isSoldOut: true,
        });
        const { address, ...change } = await everything();
        const response = await patch(offer.id, { ...change, isActive: true });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        await expectEverythingChanged(offer.id, response, { address, ...change, isActive: true });
        expect(response.body.offerStatus).toBe('PREBOOKED');
        const booking = await storedBooking(bookingId);
        expect(booking.confirmationLimitDate.toISOString()).toBe('2027-01-20T09:00:00.000Z');
        // Free cancellation until 15 days before the new start.
        expect(booking.cancellationLimitDate.toISOString()).toBe('2027-01-17T09:00:00.000Z');
      });

      // pass Culture's API lets the institution change only on a draft, which an offer created through the API never is.
      it('PUBLISHED and PREBOOKED: the institution is set at creation (400 naming the field), resending it is no change', async () => {
        const offer = await published();
        const { offer: prebooked } = await bookedOffer([]);
        for (const [target, status] of [
          [offer, 'PUBLISHED'],
          [prebooked, 'PREBOOKED'],
        ] as const) {
          for (const change of [
            { educationalInstitutionId: seed.otherActiveInstitution.id },
            { educationalInstitution: seed.otherActiveInstitution.uai },
            { educationalInstitutionId: 999_999 },
          ]) {
            const [field] = Object.keys(change);
            const response = await patch(target.id, change);
            expect([response.status, response.body], `${status} ${field}`).toEqual([
              400,
              { [field]: [`${field} cannot change while the offer is ${status}`] },
            ]);
          }
          const both = await patch(target.id, {
            educationalInstitution: seed.otherActiveInstitution.uai,
            educationalInstitutionId: seed.otherActiveInstitution.id,
          });
          expect(both.status, `${status} both`).toBe(400);
          expect((await stored(target.id)).institution?.id).toBe(seed.activeInstitution.id);
          const same = await patch(target.id, {
            educationalInstitution: seed.activeInstitution.uai.toLowerCase(),
            name: 'Même école',
          });
          expect(same.status, JSON.stringify(same.body)).toBe(200);
          expect(same.body).toMatchObject({ name: 'Même école', educationalInstitutionId: seed.activeInstitution.id });
        }
      });

      it('BOOKED: the discount only (participants up or down, price detail, a lower price); each other field is 400 naming it', async () => {
        const { offer } = await bookedOffer(['confirm'], { educationalPriceDetail: 'Tout compris' });
        expect((await getOne(offer.id)).body).toMatchObject({ offerStatus: 'BOOKED', status: 'SOLD_OUT' });

        const fewer = await patch(offer.id, {
          numberOfTickets: 25,
          totalPrice: 600,
          educationalPriceDetail: 'Sans costumes',
        });
        expect(fewer.status, JSON.stringify(fewer.body)).toBe(200);
        expect(fewer.body).toMatchObject({
          numberOfTickets: 25,
          totalPrice: 600,
          educationalPriceDetail: 'Sans costumes',
          offerStatus: 'BOOKED',
        });
        expect(await stored(offer.id)).toMatchObject({
          numberOfTickets: 25,
          totalPriceCents: 60000,
          priceDetail: 'Sans costumes',
        });
        const more = await patch(offer.id, { numberOfTickets: 32 });
        expect(more.status, JSON.stringify(more.body)).toBe(200);
        expect((await stored(offer.id)).numberOfTickets).toBe(32);

        const up = await patch(offer.id, { totalPrice: 600.01 });
        expect([up.status, up.body]).toEqual([
          400,
          { totalPrice: ['totalPrice can only go down while the offer is BOOKED'] },
        ]);

        const { address: _address, ...everyField } = await everything();
        const refusable = Object.keys(everyField).filter(
          (field) => !['numberOfTickets', 'educationalPriceDetail', 'totalPrice'].includes(field),
        );
        expect(refusable).toContain('students');
        for (const field of [...refusable, 'educationalInstitutionId']) {
          const value =
            field === 'educationalInstitutionId'
              ? seed.otherActiveInstitution.id
              : everyField[field as keyof typeof everyField];
          const response = await patch(offer.id, { [field]: value });
          expect(response.status, field).toBe(400);
          expect(response.body, field).toEqual({ [field]: [`${field} cannot change while the offer is BOOKED`] });
        }
        // Refused together with an allowed change: nothing changes.
        const mixed = await patch(offer.id, { totalPrice: 500, name: 'Autre' });
        expect(mixed.status).toBe(400);
        expect(mixed.body).toEqual({ name: ['name cannot change while the offer is BOOKED'] });
        const row = await stored(offer.id);
        expect(row).toMatchObject({
          totalPriceCents: 60000,
          numberOfTickets: 32,
          name: 'Atelier théâtre',
          students: ['COLLEGE6', 'COLLEGE5'],
          venue: { id: theatre() },
          locationType: 'SCHOOL',
        });
        expect(row.startDatetime.toISOString()).toBe(START);
      });

      it('BOOKED: resending unchanged values is no change (200)', async () => {
        const { offer } = await bookedOffer(['confirm'], {
          educationalInstitution: seed.activeInstitution.uai,
          nationalProgramId: seed.theatreAtSchool.id,
          durationMinutes: 60,
        });
        const unchanged = {
          // Every field creation requires, as the offer answered it.
          ...Object.fromEntries(
            contractRequiredOnCreation().map((field) => [field, offer[field as keyof typeof offer]]),
          ),
          durationMinutes: 60,
          nationalProgramId: seed.theatreAtSchool.id,
          educationalInstitutionId: seed.activeInstitution.id,
          isActive: true,
          audioDisabilityCompliant: false,
          // The same moments, written otherwise.
          startDatetime: '2027-01-15T10:00:00+01:00',
          bookingLimitDatetime: '2027-01-05T18:00:00Z',
        };
        const response = await patch(offer.id, unchanged);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body).toMatchObject({
          ...offer,
          offerStatus: 'BOOKED',
          status: 'SOLD_OUT',
          isSoldOut: true,
          bookings: [expect.objectContaining({ status: 'CONFIRMED' })],
        });
      });

      // The UAI resent is compared with the offer's institution, which must be loaded for it (an
      // unloaded reference has no uai: an unchanged UAI would count as a change and be refused).
      it('BOOKED: resending the institution’s UAI unchanged is no change (200)', async () => {
        const { offer } = await bookedOffer(['confirm'], { educationalInstitution: seed.activeInstitution.uai });
        const response = await patch(offer.id, { educationalInstitution: seed.activeInstitution.uai });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body.educationalInstitutionId).toBe(seed.activeInstitution.id);
      });

      for (const [label, moves, afterEnd] of [
        ['its booking used', ['confirm', 'use'], false],
        ['its booking confirmed, the event over', ['confirm'], true],
      ] as [string, Move[], boolean][]) {
        it(`ENDED (${label}): the discount only`, async () => {
          const { offer } = await bookedOffer(moves);
          if (afterEnd) world.testApp.clock.set(new Date('2027-01-16T09:00:00Z'));
          expect((await getOne(offer.id)).body.offerStatus).toBe('ENDED');
          const discount = await patch(offer.id, { numberOfTickets: 20, totalPrice: 500 });
          expect(discount.status, JSON.stringify(discount.body)).toBe(200);
          expect(await stored(offer.id)).toMatchObject({ numberOfTickets: 20, totalPriceCents: 50000 });
          for (const [change, message] of [
            [{ name: 'Autre' }, 'name cannot change while the offer is ENDED'],
            [{ startDatetime: '2027-02-01T09:00:00Z' }, 'startDatetime cannot change while the offer is ENDED'],
            [{ totalPrice: 501 }, 'totalPrice can only go down while the offer is ENDED'],
          ] as [Json, string][]) {
            const [field] = Object.keys(change);
            const response = await patch(offer.id, change);
            expect([response.status, response.body], field).toEqual([400, { [field]: [message] }]);
          }
          expect(await stored(offer.id)).toMatchObject({ name: 'Atelier théâtre', totalPriceCents: 50000 });
        });
      }

      it('EXPIRED: the dates only; new dates publish it again', async () => {
        const offer = await published({ bookingLimitDatetime: '2026-11-23T10:00:00Z' });
        world.testApp.clock.set(new Date('2026-11-24T10:00:00Z'));
        expect((await getOne(offer.id)).body.offerStatus).toBe('EXPIRED');
        for (const change of [{ name: 'Autre' }, { totalPrice: 1 }, { numberOfTickets: 10 }]) {
          const [field] = Object.keys(change);
          const response = await patch(offer.id, change);
          expect([response.status, response.body], field).toEqual([
            400,
            { [field]: [`${field} cannot change while the offer is EXPIRED`] },
          ]);
        }
        const moved = await patch(offer.id, {
          bookingLimitDatetime: '2026-12-20T10:00:00Z',
          startDatetime: '2027-01-20T09:00:00Z',
        });
        expect(moved.status, JSON.stringify(moved.body)).toBe(200);
        expect(moved.body).toMatchObject({
          offerStatus: 'PUBLISHED',
          bookingLimitDatetime: '2026-12-20T10:00:00.000Z',
          startDatetime: '2027-01-20T09:00:00.000Z',
          endDatetime: '2027-01-20T09:00:00.000Z',
        });
        const row = await stored(offer.id);
        expect(row).toMatchObject({ name: 'Atelier théâtre', totalPriceCents: 65050 });
        expect(row.bookingLimitDatetime.toISOString()).toBe('2026-12-20T10:00:00.000Z');
      });

      it('EXPIRED with a lapsed pre-booking: new dates reopen it for the school to confirm', async () => {
        const { offer, bookingId } = await bookedOffer([], { bookingLimitDatetime: '2026-11-23T10:00:00Z' });
        world.testApp.clock.set(new Date('2026-11-24T10:00:00Z'));
        expect((await getOne(offer.id)).body.offerStatus).toBe('EXPIRED');
        const moved = await patch(offer.id, { bookingLimitDatetime: '2026-12-20T10:00:00Z' });
        expect(moved.status, JSON.stringify(moved.body)).toBe(200);
        expect(moved.body.offerStatus).toBe('PREBOOKED');
        expect((await storedBooking(bookingId)).confirmationLimitDate.toISOString()).toBe('2026-12-20T10:00:00.000Z');
      });

      // pass Culture's API tests each group of fields against each displayed status (AllowedActionsTest).
      it('allows and refuses each group of fields by displayed status, as pass Culture’s API does (400 naming the field)', async () => {
        const rejected = await created();
        expect((await world.review(rejected.id, 'REJECTED')).body.errors).toBeUndefined();
        const archived = await published();
        expect((await archive({ ids: [archived.id] })).status).toBe(204);
        const reached: [string, { id: number }][] = [
          ['PUBLISHED', await published()],
          ['PREBOOKED', (await bookedOffer([])).offer],
          ['BOOKED', (await bookedOffer(['confirm'])).offer],
          ['ENDED', (await bookedOffer(['confirm', 'use'])).offer],
          ['EXPIRED', await published({ bookingLimitDatetime: '2026-11-23T10:00:00Z' })],
          ['UNDER_REVIEW', await underReview()],
          ['REJECTED', rejected],
          ['CANCELLED', (await bookedOffer(['cancelByProvider'])).offer],
          ['REIMBURSED', (await bookedOffer(['confirm', 'use', 'reimburse'])).offer],
          ['ARCHIVED', archived],
        ];
        world.testApp.clock.set(new Date('2026-11-24T10:00:00Z'));
        /** The groups each status allows, as pass Culture's API has them (an API offer is never a draft). */
        const allows: Record<string, string[]> = {
          PUBLISHED: ['details', 'higherPrice', 'dates', 'discount'],
          PREBOOKED: ['details', 'higherPrice', 'dates', 'discount'],
          BOOKED: ['discount'],
          ENDED: ['discount'],
          EXPIRED: ['dates'],
        };
        const dates = {
          bookingLimitDatetime: '2027-01-20T09:00:00Z',
          startDatetime: '2027-02-01T09:00:00Z',
          endDatetime: '2027-02-01T12:00:00Z',
        };
        /** The changes of each group, each sent on its own when refused, together when allowed. */
        const groups: [string, Json[]][] = [
          ['details', [{ name: 'New name', description: 'New description' }]],
          ['higherPrice', [{ totalPrice: 750.5 }]],
          ['dates', Object.entries(dates).map(([field, value]) => ({ [field]: value }))],
          [
            'institution',
            [
              { educationalInstitution: seed.otherActiveInstitution.uai },
              { educationalInstitutionId: seed.otherActiveInstitution.id },
            ],
          ],
          ['discount', [{ totalPrice: 1 }, { educationalPriceDetail: 'yes', numberOfTickets: 1200 }]],
        ];
        for (const [status, offer] of reached) {
          expect((await getOne(offer.id)).body.offerStatus, status).toBe(status);
          const allowed = allows[status] ?? [];
          const before = await getOne(offer.id);
          for (const [group, changes] of groups) {
            if (allowed.includes(group)) continue;
            for (const change of changes) {
              const response = await patch(offer.id, change);
              const refusal = (field: string) =>
                field === 'totalPrice' && allowed.includes('discount')
                  ? `totalPrice can only go down while the offer is ${status}`
                  : `${field} cannot change while the offer is ${status}`;
              expect([response.status, response.body], `${status} ${group}`).toEqual([
                400,
                Object.fromEntries(Object.keys(change).map((field) => [field, [refusal(field)]])),
              ]);
            }
          }
          expect((await getOne(offer.id)).body, status).toEqual(before.body);
          for (const group of allowed) {
            const change =
              group === 'dates' ? dates : Object.assign({}, ...groups.find(([name]) => name === group)![1]);
            const response = await patch(offer.id, change);
            expect(response.status, `${status} ${group}: ${JSON.stringify(response.body)}`).toBe(200);
            const row = await stored(offer.id);
            if (group === 'details') expect(row).toMatchObject({ name: 'New name', description: 'New description' });
            if (group === 'higherPrice') expect(row.totalPriceCents).toBe(75050);
            if (group === 'dates') {
              expect(row.startDatetime.toISOString()).toBe('2027-02-01T09:00:00.000Z');
              expect(row.endDatetime.toISOString()).toBe('2027-02-01T12:00:00.000Z');
              expect(row.bookingLimitDatetime.toISOString()).toBe('2027-01-20T09:00:00.000Z');
            }
            if (group === 'discount') {
              expect(row).toMatchObject({ totalPriceCents: 100, priceDetail: 'yes', numberOfTickets: 1200 });
            }
          }
        }
      });

      /** An offer in each state where nothing may change, reached through the API. */
      const frozen: [string, () => Promise<{ id: number }>, Json[]][] = [
        ['UNDER_REVIEW', () => underReview(), []],
        [
          'REJECTED',
          async () => {
            const offer = await created();
            expect((await world.review(offer.id, 'REJECTED')).body.errors).toBeUndefined();
            return offer;
          },
          [],
        ],
        [
          'HIDDEN',
          async () => {
            const offer = await created({ isActive: false });
            await drainJobs(world.testApp);
            return offer;
          },
          // Shown again neither: pass Culture's API lets nothing of a hidden offer change.
          [{ isActive: true }],
        ],
        ['CANCELLED', async () => (await bookedOffer(['cancelByProvider'])).offer, []],
        ['CANCELLED after confirmation', async () => (await bookedOffer(['confirm', 'cancelByProvider'])).offer, []],
        ['REIMBURSED', async () => (await bookedOffer(['confirm', 'use', 'reimburse'])).offer, []],
        [
          'ARCHIVED',
          async () => {
            const offer = await published();
            expect((await archive({ ids: [offer.id] })).status).toBe(204);
            return offer;
          },
          [],
        ],
      ];
      for (const [label, reach, extra] of frozen) {
        it(`${label}: nothing may change (400 naming the field)`, async () => {
          const [status] = label.split(' ');
          const offer = await reach();
          const before = await getOne(offer.id);
          expect(before.body.offerStatus).toBe(status);
          for (const change of [
            { totalPrice: 1 },
            { name: 'Autre' },
            { students: ['COLLEGE3'] },
            { numberOfTickets: 10 },
            { educationalPriceDetail: 'Autre' },
            { startDatetime: '2027-02-01T09:00:00Z' },
            ...extra,
          ]) {
            const [field] = Object.keys(change);
            const response = await patch(offer.id, change);
            expect(response.status, field).toBe(400);
            expect(response.body).toEqual({ [field]: [`${field} cannot change while the offer is ${status}`] });
          }
          expect((await getOne(offer.id)).body).toEqual(before.body);
          // Resending a value unchanged is still no change.
          expect((await patch(offer.id, { name: 'Atelier théâtre' })).status).toBe(200);
        });
      }
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  collectiveWorld,
  contractRequiredOnCreation,
  type Json,
  LIMIT,
  NOW,
  seed,
  START,
} from '../support/collectiveWorld.js';

describe('Collective offers: validation on creation', () => {
  const world = collectiveWorld();
  const { aBody, post, patch, created, stored, offerCount, without, anotherProvider, graphql } = world;

  describe('validation on creation', () => {
    const required = contractRequiredOnCreation();

    it('reports each field the contract requires, missing (422 Field required at its loc), and writes nothing', async () => {
      expect(required.length).toBeGreaterThan(0);
      const before = await offerCount();
      for (const field of required) {
        const response = await post(without(field));
        expect(response.status, field).toBe(422);
        expect(response.body, field).toEqual([{ loc: [field], msg: 'Field required', type: 'missing' }]);
      }
      expect(await offerCount()).toBe(before);
      // Those fields, a location and an institution are enough: the suite's body has no other, and creates an offer.
      expect(Object.keys(aBody()).sort()).toEqual([...required, 'location', 'educationalInstitutionId'].sort());
      expect((await post(aBody())).status).toBe(201);
      expect(await offerCount()).toBe(before + 1);
    });

    it('is strict: an unknown field, at the top or in a location, is 422 extra_forbidden', async () => {
      const before = await offerCount();
      const cases: [Json, string[]][] = [
        [aBody({ surprise: true }), ['surprise']],
        [aBody({ interventionArea: ['75'] }), ['interventionArea']],
        [aBody({ location: { type: 'SCHOOL', comment: 'x' } }), ['location', 'comment']],
        [aBody({ location: { type: 'ADDRESS', isVenueAddress: true, addressId: 1 } }), ['location', 'addressId']],
        [aBody({ location: { type: 'TO_BE_DEFINED', addressLabel: 'x' } }), ['location', 'addressLabel']],
        [aBody({ offerVenue: { addressType: 'school', colour: 'red' } }), ['offerVenue', 'colour']],
      ];
      for (const [body, loc] of cases) {
        const response = await post(body);
        expect(response.status, loc.join('.')).toBe(422);
        expect(response.body).toEqual([{ loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }]);
      }
      expect(await offerCount()).toBe(before);
    });

    it('checks formats, e-mails, phone, lengths, numbers and location types (422), and writes nothing', async () => {
      const before = await offerCount();
      const cases: [Json, string[], string | null][] = [
        [aBody({ formats: ['Cirque'] }), ['formats', '0'], 'enum'],
        [aBody({ formats: [] }), ['formats'], 'too_short'],
        [aBody({ contactEmail: 'not-an-email' }), ['contactEmail'], 'email_parsing'],
        [aBody({ bookingEmails: ['booking@example.com', 'nope'] }), ['bookingEmails', '1'], 'email_parsing'],
        [aBody({ bookingEmails: [] }), ['bookingEmails'], 'too_short'],
        [aBody({ contactPhone: 'call me' }), ['contactPhone'], 'string_pattern_mismatch'],
        [aBody({ name: '' }), ['name'], 'string_too_short'],
        [aBody({ name: 'x'.repeat(111) }), ['name'], 'string_too_long'],
        [aBody({ name: '   ' }), ['name'], 'string_too_short'],
        [aBody({ educationalPriceDetail: 'x'.repeat(1001) }), ['educationalPriceDetail'], 'string_too_long'],
        [aBody({ numberOfTickets: -1 }), ['numberOfTickets'], 'greater_than_equal'],
        [aBody({ contactEmail: '' }), ['contactEmail'], 'email_parsing'],
        [aBody({ imageFile: '', imageCredit: 'Photo: A. Demo' }), ['imageFile'], 'string_too_short'],
        [aBody({ description: 'x'.repeat(1501) }), ['description'], 'string_too_long'],
        [aBody({ domains: [] }), ['domains'], 'too_short'],
        [aBody({ students: [] }), ['students'], 'too_short'],
        [aBody({ numberOfTickets: 2.5 }), ['numberOfTickets'], 'int_type'],
        [aBody({ totalPrice: -1 }), ['totalPrice'], 'greater_than_equal'],
        [aBody({ totalPrice: '12.50' }), ['totalPrice'], 'float_parsing'],
        [aBody({ venueId: 0 }), ['venueId'], 'greater_than'],
        [aBody({ startDatetime: '2027-01-15T09:00:00' }), ['startDatetime'], 'timezone_aware'],
        [aBody({ bookingLimitDatetime: 'soon' }), ['bookingLimitDatetime'], 'datetime_parsing'],
        [aBody({ location: { type: 'CASTLE' } }), ['location', 'type'], null],
        [aBody({ location: { type: 'ADDRESS', isVenueAddress: false } }), ['location', 'addressId'], 'missing'],
        [aBody({ offerVenue: { addressType: 'moon' }, location: undefined }), ['offerVenue', 'addressType'], 'enum'],
      ];
      for (const [body, loc, type] of cases) {
        const response = await post(body);
        expect(response.status, loc.join('.')).toBe(422);
        const issue = response.body.find((entry: { loc: string[] }) => entry.loc.join('.') === loc.join('.'));
        expect(issue, `${loc.join('.')}: ${JSON.stringify(response.body)}`).toBeDefined();
        if (type) expect(issue.type, JSON.stringify(issue)).toBe(type);
      }
      expect(await offerCount()).toBe(before);
    });

    it('refuses dates in the past, a booking limit after the start, an end before the start (422), and writes nothing', async () => {
      const before = await offerCount();
      const cases: [Json, Json[]][] = [
        [
          aBody({ startDatetime: '2026-11-20T09:00:00Z', bookingLimitDatetime: '2026-11-19T09:00:00Z' }),
          [
            { loc: ['startDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' },
            { loc: ['endDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' },
            { loc: ['bookingLimitDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' },
          ],
        ],
        [
          aBody({ bookingLimitDatetime: '2026-11-22T09:59:59Z' }),
          [{ loc: ['bookingLimitDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' }],
        ],
        [
          aBody({ endDatetime: '2026-11-21T09:00:00Z' }),
          [
            { loc: ['endDatetime'], msg: 'The datetime must not be in the past', type: 'datetime_future' },
            { loc: ['endDatetime'], msg: 'The end must not be before the start', type: 'value_error' },
          ],
        ],
        [
          aBody({ bookingLimitDatetime: '2027-01-15T09:00:01Z' }),
          [
            {
              loc: ['bookingLimitDatetime'],
              msg: 'The booking limit must not be after the start',
              type: 'value_error',
            },
          ],
        ],
        [
          aBody({ endDatetime: '2027-01-15T08:59:59Z' }),
          [{ loc: ['endDatetime'], msg: 'The end must not be before the start', type: 'value_error' }],
        ],
      ];
      for (const [body, issues] of cases) {
        const response = await post(body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(response.body).toEqual(issues);
      }
      expect(await offerCount()).toBe(before);
      // The edges are allowed: a booking limit at the start, an end at the start, a start now.
      const edges = await post(aBody({ bookingLimitDatetime: START, endDatetime: START }));
      expect(edges.status, JSON.stringify(edges.body)).toBe(201);
      const now = await post(aBody({ startDatetime: NOW.toISOString(), bookingLimitDatetime: NOW.toISOString() }));
      expect(now.status, JSON.stringify(now.body)).toBe(201);
    });

    // pass Culture's API keeps an offer within one school year (1 September to 31 August), on creation and edition.
    it('keeps the start and the end in one school year (400 naming endDatetime otherwise), and writes nothing', async () => {
      const before = await offerCount();
      const across = await post(
        aBody({
          startDatetime: '2027-08-31T09:00:00Z',
          endDatetime: '2027-09-01T09:00:00Z',
          bookingLimitDatetime: '2027-08-20T09:00:00Z',
        }),
      );
      expect([across.status, across.body]).toEqual([
        400,
        {
          endDatetime: [
            'The start and the end must fall in the same school year (1 September to 31 August): the start is in 2026-2027, the end in 2027-2028',
          ],
        },
      ]);
      expect(await offerCount()).toBe(before);
      const lastDay = await post(
        aBody({
          startDatetime: '2027-08-30T09:00:00Z',
          endDatetime: '2027-08-31T23:59:00Z',
          bookingLimitDatetime: '2027-08-20T09:00:00Z',
        }),
      );
      expect(lastDay.status, JSON.stringify(lastDay.body)).toBe(201);
      const firstDay = await post(
        aBody({
          startDatetime: '2027-09-01T00:00:00Z',
          endDatetime: '2028-08-31T09:00:00Z',
          bookingLimitDatetime: '2027-08-20T09:00:00Z',
        }),
      );
      expect(firstDay.status, JSON.stringify(firstDay.body)).toBe(201);
      expect(await offerCount()).toBe(before + 2);

      // On edition, as the dates would be: the end moved into the next school year, or the start out of it.
      const offer = await world.published({ endDatetime: '2027-01-16T09:00:00Z' });
      const nextYear = await world.published({
        startDatetime: '2027-09-02T09:00:00Z',
        endDatetime: '2027-09-03T09:00:00Z',
      });
      for (const [target, change] of [
        [offer, { endDatetime: '2027-09-02T09:00:00Z' }],
        [nextYear, { startDatetime: '2027-08-31T09:00:00Z' }],
      ] as const) {
        const response = await patch(target.id, change);
        expect(response.status, JSON.stringify(change)).toBe(400);
        expect(Object.keys(response.body), JSON.stringify(change)).toEqual(['endDatetime']);
      }
      const rows = [await stored(offer.id), await stored(nextYear.id)];
      expect(rows.map((row) => [row.startDatetime.toISOString(), row.endDatetime.toISOString()])).toEqual([
        ['2027-01-15T09:00:00.000Z', '2027-01-16T09:00:00.000Z'],
        ['2027-09-02T09:00:00.000Z', '2027-09-03T09:00:00.000Z'],
      ]);
    });

    it('takes euros with at most two decimals (422 otherwise), and stores cents', async () => {
      const before = await offerCount();
      for (const totalPrice of [10.015, 0.001, 99.999]) {
        const response = await post(aBody({ totalPrice }));
        expect(response.status, String(totalPrice)).toBe(422);
        expect(response.body).toEqual([{ loc: ['totalPrice'], msg: expect.any(String), type: 'decimal_max_places' }]);
      }
      expect(await offerCount()).toBe(before);
      for (const [totalPrice, cents] of [
        [0, 0],
        [19.99, 1999],
        [1200, 120000],
        [1_000_000, 100_000_000],
      ]) {
        const offer = await created({ totalPrice });
        expect(offer.totalPrice).toBe(totalPrice);
        expect((await stored(offer.id)).totalPriceCents).toBe(cents);
      }
    });

    it('takes 0 participants, on creation and on change, and refuses a negative number (422)', async () => {
      const offer = await created({ numberOfTickets: 0 });
      expect(offer.numberOfTickets).toBe(0);
      expect((await stored(offer.id)).numberOfTickets).toBe(0);
      const other = await created({ numberOfTickets: 12 });
      const changed = await patch(other.id, { numberOfTickets: 0 });
      expect([changed.status, changed.body.numberOfTickets]).toEqual([200, 0]);
      expect((await stored(other.id)).numberOfTickets).toBe(0);
      const negative = await patch(other.id, { numberOfTickets: -1 });
      expect(negative.status).toBe(422);
      expect(negative.body).toEqual([
        expect.objectContaining({ loc: ['numberOfTickets'], type: 'greater_than_equal' }),
      ]);
      expect((await stored(other.id)).numberOfTickets).toBe(0);
    });

    it('refuses an institution named twice (400), unknown (404), inactive (403), by id and by UAI, and writes nothing', async () => {
      const before = await offerCount();
      const both = await post(
        aBody({
          educationalInstitutionId: seed.activeInstitution.id,
          educationalInstitution: seed.activeInstitution.uai,
        }),
      );
      expect(both.status).toBe(400);
      expect(both.body).toEqual({ educationalInstitutionId: [expect.stringContaining('not both')] });
      for (const named of [{ educationalInstitutionId: 999_999 }, { educationalInstitution: '0000000A' }]) {
        const unknown = await post(aBody(named));
        expect(unknown.status, JSON.stringify(named)).toBe(404);
        expect(unknown.body).toEqual({ global: ['Educational institution not found'] });
      }
      for (const [named, uai] of [
        [{ educationalInstitutionId: seed.inactiveInstitution.id }, seed.inactiveInstitution.uai],
        [{ educationalInstitution: seed.otherInactiveInstitution.uai }, seed.otherInactiveInstitution.uai],
        [{ educationalInstitution: seed.inactiveInstitution.uai.toLowerCase() }, seed.inactiveInstitution.uai],
      ] as const) {
        const inactive = await post(aBody(named));
        expect(inactive.status, JSON.stringify(named)).toBe(403);
        expect(inactive.body).toEqual({ global: [`The educational institution ${uai} is not active`] });
      }
      expect(await offerCount()).toBe(before);
    });

    it('answers 404 to unknown domains and 400 to unknown student levels, and writes nothing', async () => {
      const before = await offerCount();
      const domain = await post(aBody({ domains: [seed.theatreDomain.id, 99] }));
      expect(domain.status).toBe(404);
      expect(domain.body).toEqual({ global: [expect.stringContaining('99')] });
      const level = await post(aBody({ students: ['COLLEGE6', 'COLLEGE7'] }));
      expect(level.status).toBe(400);
      expect(level.body).toEqual({ students: [expect.stringContaining('COLLEGE7')] });
      expect(await offerCount()).toBe(before);
      const patched = await patch((await world.published()).id, { domains: [99] });
      expect([patched.status, patched.body]).toEqual([404, { global: [expect.stringContaining('99')] }]);
    });

    it('takes a national programme of one of the domains only (400 otherwise, 404 when unknown)', async () => {
      const before = await offerCount();
      const unlinked = await post(aBody({ domains: [seed.theatreDomain.id], nationalProgramId: seed.schoolCinema.id }));
      expect(unlinked.status).toBe(400);
      expect(unlinked.body).toEqual({ nationalProgramId: [expect.stringContaining('none of the offer')] });
      const unknown = await post(aBody({ nationalProgramId: 999 }));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ global: [expect.stringContaining('999')] });
      expect(await offerCount()).toBe(before);
      // Linked through any one of the domains.
      const linked = await created({
        domains: [seed.theatreDomain.id, seed.cinemaDomain.id],
        nationalProgramId: seed.schoolCinema.id,
      });
      expect(linked.nationalProgram).toEqual({ id: seed.schoolCinema.id, name: seed.schoolCinema.name });
      expect((await stored(linked.id)).nationalProgram?.id).toBe(seed.schoolCinema.id);
    });

    it('refuses a venue out of reach (404) and an offerer not allowed on the school platform (403), and writes nothing', async () => {
      const before = await offerCount();
      const schoolProvider = await anotherProvider(true);
      const notForSchools = await anotherProvider(false);
      for (const venueId of [schoolProvider.venueId, notForSchools.venueId, 999_999]) {
        const response = await post(aBody({ venueId }));
        expect(response.status, String(venueId)).toBe(404);
        expect(response.body).toEqual({ global: ['Venue not found'] });
      }
      const refused = await post(aBody({ venueId: notForSchools.venueId }), notForSchools.key);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ global: [expect.stringContaining('not allowed to publish collective offers')] });
      expect(await offerCount()).toBe(before);
    });
  });

  describe('through /graphql, where no REST schema checks the input', () => {
    const createThroughGraph = (input: Json) =>
      graphql('mutation ($input: CollectiveOfferInput!) { createCollectiveOffer(input: $input) { id } }', { input });

    it('refuses what would not fit the columns or the contract (VALIDATION_FAILED), and writes nothing', async () => {
      const before = await offerCount();
      const cases: [Json, string][] = [
        [{ name: 'n'.repeat(111) }, 'name'],
        [{ name: 'a\u0000b' }, 'name'],
        [{ contactPhone: '0'.repeat(60) }, 'contactPhone'],
        [{ contactEmail: 'not an email' }, 'contactEmail'],
        [{ location: { type: 'TO_BE_DEFINED', comment: 'c'.repeat(201) } }, 'location'],
        [{ totalPrice: 30_000_000 }, 'totalPrice'],
        [{ numberOfTickets: -3 }, 'numberOfTickets'],
        [{ durationMinutes: -5 }, 'durationMinutes'],
        [{ formats: [] }, 'formats'],
        [{ bookingEmails: [] }, 'bookingEmails'],
      ];
      for (const [overrides, field] of cases) {
        const response = await createThroughGraph({
          ...aBody(overrides),
          startDatetime: START,
          bookingLimitDatetime: LIMIT,
        });
        expect(response.status).toBe(200);
        const error = response.body.errors?.[0];
        expect(error?.extensions?.code, JSON.stringify(overrides)).toBe('VALIDATION_FAILED');
        expect(error.extensions.issues[0].loc[0], JSON.stringify(overrides)).toBe(field);
      }
      expect(await offerCount()).toBe(before);
    });

    it('stores a domain, a level or a format named twice once', async () => {
      const response = await createThroughGraph({
        ...aBody({
          domains: [seed.theatreDomain.id, seed.theatreDomain.id],
          students: ['COLLEGE6', 'COLLEGE6'],
          formats: ['Concert', 'Concert'],
        }),
      });
      expect(response.body.errors, JSON.stringify(response.body)).toBeUndefined();
      const row = await stored(response.body.data.createCollectiveOffer.id);
      expect(row).toMatchObject({ domains: [seed.theatreDomain.id], students: ['COLLEGE6'], formats: ['Concert'] });
    });
  });
});

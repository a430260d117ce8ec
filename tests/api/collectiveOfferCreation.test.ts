import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { Job } from '../../platform/jobs/Job.js';
import { drainJobs } from '../support/builders.js';
import { collectiveWorld, type Json, LIMIT, NOW, seed, START } from '../support/collectiveWorld.js';
import { aGif, aPng } from '../support/images.js';

describe('Collective offers: creation', () => {
  const world = collectiveWorld({ images: true });
  const { aBody, post, getOne, created, stored, offerCount, without, theatre, bookshop, online, anAddress } = world;

  it('leans on reference data and sandbox venues that are as the tests assume', () => {
    expect(seed.theatreDomain.nationalProgramIds).toContain(seed.theatreAtSchool.id);
    expect(seed.theatreDomain.nationalProgramIds).not.toContain(seed.schoolCinema.id);
    expect(seed.cinemaDomain.nationalProgramIds).toContain(seed.schoolCinema.id);
    expect([seed.activeInstitution.isActive, seed.otherActiveInstitution.isActive]).toEqual([true, true]);
    expect([seed.inactiveInstitution.isActive, seed.otherInactiveInstitution.isActive]).toEqual([false, false]);
    expect(world.sandbox.offerer.allowedOnAdage).toBe(true);
    expect(world.sandbox.venues.map((venue) => [venue.isVirtual, venue.address !== null])).toEqual([
      [false, true],
      [false, true],
      [true, false],
    ]);
  });

  describe('creation', () => {
    it('creates an offer (201), published at once with no approval delay, with the full detail, the defaults, and the price stored in cents', async () => {
      const before = await offerCount();
      const response = await post(aBody());
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        status: 'ACTIVE',
        offerStatus: 'PUBLISHED',
        venueId: theatre(),
        startDatetime: START,
        endDatetime: START,
        bookings: [],
        audioDisabilityCompliant: false,
        mentalDisabilityCompliant: false,
        motorDisabilityCompliant: false,
        visualDisabilityCompliant: false,
        bookingEmails: ['booking@example.com', 'team@example.com'],
        bookingLimitDatetime: LIMIT,
        contactEmail: 'contact@example.com',
        contactPhone: '+33199006328',
        dateCreated: NOW.toISOString(),
        description: 'Une semaine de pratique théâtrale avec une troupe.',
        domains: [seed.theatreDomain.id],
        durationMinutes: null,
        educationalInstitution: seed.activeInstitution.uai,
        educationalInstitutionId: seed.activeInstitution.id,
        educationalPriceDetail: null,
        formats: ['Atelier de pratique', 'Représentation'],
        hasBookingLimitDatetimesPassed: false,
        imageCredit: null,
        imageUrl: null,
        interventionArea: [],
        isActive: true,
        isSoldOut: false,
        location: { type: 'SCHOOL' },
        name: 'Atelier théâtre',
        nationalProgram: null,
        numberOfTickets: 30,
        offerVenue: { addressType: 'school', otherAddress: null, venueId: null },
        students: ['COLLEGE6', 'COLLEGE5'],
        totalPrice: 650.5,
      });
      expect(await offerCount()).toBe(before + 1);
      const row = await stored(response.body.id);
      expect(row).toMatchObject({
        provider: { id: world.sandbox.provider.id },
        venue: { id: theatre() },
        totalPriceCents: 65050,
        numberOfTickets: 30,
        locationType: 'SCHOOL',
        atVenueAddress: false,
        address: null,
        institution: { id: seed.activeInstitution.id },
        interventionArea: [],
        validation: 'APPROVED',
        validationReason: 'Approved automatically outside production',
        isActive: true,
        archivedAt: null,
        audioDisabilityCompliant: false,
        visualDisabilityCompliant: false,
      });
      expect(row.startDatetime.toISOString()).toBe(START);
      expect(row.endDatetime.toISOString()).toBe(START);
      expect(row.bookingLimitDatetime.toISOString()).toBe(LIMIT);
      expect((await getOne(response.body.id)).body).toEqual(response.body);
    });

    it('keeps every optional field sent: end, duration, price detail, accessibility, institution, programme, hidden', async () => {
      const response = await post(
        aBody({
          endDatetime: '2027-01-19T17:00:00+01:00',
          durationMinutes: 120,
          educationalPriceDetail: 'Intervenants et costumes',
          audioDisabilityCompliant: true,
          motorDisabilityCompliant: true,
          educationalInstitutionId: seed.activeInstitution.id,
          nationalProgramId: seed.theatreAtSchool.id,
          isActive: false,
          totalPrice: 0.29,
          startDatetime: '2027-01-15T10:00:00+01:00',
        }),
      );
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({
        startDatetime: START,
        endDatetime: '2027-01-19T16:00:00.000Z',
        durationMinutes: 120,
        educationalPriceDetail: 'Intervenants et costumes',
        audioDisabilityCompliant: true,
        mentalDisabilityCompliant: false,
        motorDisabilityCompliant: true,
        visualDisabilityCompliant: false,
        educationalInstitution: seed.activeInstitution.uai,
        educationalInstitutionId: seed.activeInstitution.id,
        nationalProgram: { id: seed.theatreAtSchool.id, name: seed.theatreAtSchool.name },
        isActive: false,
        totalPrice: 0.29,
      });
      const row = await stored(response.body.id);
      expect(row).toMatchObject({
        totalPriceCents: 29,
        durationMinutes: 120,
        priceDetail: 'Intervenants et costumes',
        institution: { id: seed.activeInstitution.id },
        nationalProgram: { id: seed.theatreAtSchool.id },
        isActive: false,
      });
      // Hidden from schools once approved.
      await drainJobs(world.testApp);
      expect((await getOne(response.body.id)).body).toMatchObject({ offerStatus: 'HIDDEN', status: 'INACTIVE' });
    });

    it('names the institution by UAI, in any case', async () => {
      const response = await post(aBody({ educationalInstitution: seed.otherActiveInstitution.uai.toLowerCase() }));
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body).toMatchObject({
        educationalInstitution: seed.otherActiveInstitution.uai,
        educationalInstitutionId: seed.otherActiveInstitution.id,
      });
      expect((await stored(response.body.id)).institution?.id).toBe(seed.otherActiveInstitution.id);
    });

    // An offer is made for one school: without one, as pass Culture's API, it is not found (an
    // earlier rule let an offer name none, and the mock booked it for a test school).
    it('refuses an offer naming no institution (404 naming it), null or absent, and writes nothing', async () => {
      const before = await offerCount();
      for (const body of [
        without('educationalInstitutionId'),
        aBody({ educationalInstitutionId: null }),
        aBody({ educationalInstitutionId: null, educationalInstitution: null }),
      ]) {
        const response = await post(body);
        expect(response.status, JSON.stringify(body)).toBe(404);
        expect(response.body).toEqual({
          global: [
            'Educational institution not found: name it by educationalInstitutionId or by its UAI in educationalInstitution',
          ],
        });
      }
      expect(await offerCount()).toBe(before);
    });

    describe('locations', () => {
      it('SCHOOL: at the school; offerVenue school', async () => {
        const offer = await created({ location: { type: 'SCHOOL' } });
        expect(offer.location).toEqual({ type: 'SCHOOL' });
        expect((await getOne(offer.id)).body.location).toEqual({ type: 'SCHOOL' });
        expect(offer.offerVenue).toEqual({ addressType: 'school', otherAddress: null, venueId: null });
        expect(await stored(offer.id)).toMatchObject({
          locationType: 'SCHOOL',
          atVenueAddress: false,
          address: null,
          addressLabel: null,
          locationComment: null,
        });
      });

      it('ADDRESS at the venue: offerVenue offererVenue with the venue', async () => {
        const offer = await created({ venueId: bookshop(), location: { type: 'ADDRESS', isVenueAddress: true } });
        expect(offer.location).toEqual({ type: 'ADDRESS', isVenueAddress: true });
        expect((await getOne(offer.id)).body.location).toEqual({ type: 'ADDRESS', isVenueAddress: true });
        expect(offer.offerVenue).toEqual({ addressType: 'offererVenue', otherAddress: null, venueId: bookshop() });
        expect(await stored(offer.id)).toMatchObject({ locationType: 'ADDRESS', atVenueAddress: true, address: null });
      });

      it('ADDRESS elsewhere: an address created through the API, with a label; offerVenue other, written out', async () => {
        const address = await anAddress();
        const offer = await created({
          location: {
            type: 'ADDRESS',
            isVenueAddress: false,
            addressId: address.id,
            addressLabel: 'Gymnase municipal',
          },
        });
        expect(offer.location).toEqual({
          type: 'ADDRESS',
          isVenueAddress: false,
          addressId: address.id,
          addressLabel: 'Gymnase municipal',
        });
        expect((await getOne(offer.id)).body.location).toEqual(offer.location);
        expect(offer.offerVenue).toEqual({
          addressType: 'other',
          otherAddress: `Gymnase municipal, ${address.street}, 75004 Paris`,
          venueId: null,
        });
        expect(await stored(offer.id)).toMatchObject({
          locationType: 'ADDRESS',
          atVenueAddress: false,
          address: { id: address.id },
          addressLabel: 'Gymnase municipal',
        });
      });

      it('ADDRESS elsewhere: the address of a sandbox venue, without a label', async () => {
        const venueAddress = world.sandbox.venues[1].address!;
        const offer = await created({
          location: { type: 'ADDRESS', isVenueAddress: false, addressId: venueAddress.id },
        });
        expect(offer.location).toEqual({
          type: 'ADDRESS',
          isVenueAddress: false,
          addressId: venueAddress.id,
          addressLabel: null,
        });
        expect(offer.offerVenue).toEqual({
          addressType: 'other',
          otherAddress: '4 Place Bellecour, 69002 Lyon',
          venueId: null,
        });
      });

      it('ADDRESS elsewhere: an unknown address is 404, and nothing is written', async () => {
        const before = await offerCount();
        const response = await post(
          aBody({ location: { type: 'ADDRESS', isVenueAddress: false, addressId: 999_999 } }),
        );
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ global: ['Address not found'] });
        expect(await offerCount()).toBe(before);
      });

      it('TO_BE_DEFINED, with or without a comment; offerVenue other with the comment', async () => {
        const withComment = await created({ location: { type: 'TO_BE_DEFINED', comment: 'Dans la cour ou au préau' } });
        expect(withComment.location).toEqual({ type: 'TO_BE_DEFINED', comment: 'Dans la cour ou au préau' });
        expect((await getOne(withComment.id)).body.location).toEqual(withComment.location);
        expect(withComment.offerVenue).toEqual({
          addressType: 'other',
          otherAddress: 'Dans la cour ou au préau',
          venueId: null,
        });
        expect(await stored(withComment.id)).toMatchObject({
          locationType: 'TO_BE_DEFINED',
          locationComment: 'Dans la cour ou au préau',
        });
        const withoutComment = await created({ location: { type: 'TO_BE_DEFINED' } });
        expect(withoutComment.location).toEqual({ type: 'TO_BE_DEFINED', comment: null });
        expect(withoutComment.offerVenue).toEqual({ addressType: 'other', otherAddress: null, venueId: null });
      });

      it('a digital venue has no address to be at: ADDRESS at the venue is 400, and nothing is written', async () => {
        const before = await offerCount();
        const response = await post(aBody({ venueId: online(), location: { type: 'ADDRESS', isVenueAddress: true } }));
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ location: [expect.stringContaining('has no address')] });
        expect(await offerCount()).toBe(before);
        // Elsewhere is fine for it.
        expect((await created({ venueId: online(), location: { type: 'SCHOOL' } })).venueId).toBe(online());
      });

      it('takes the deprecated offerVenue instead of the location: offererVenue, school, other', async () => {
        const { location: _location, ...body } = aBody();
        const cases: [Json, Json, Json][] = [
          [
            { addressType: 'offererVenue', venueId: theatre(), otherAddress: null },
            { type: 'ADDRESS', isVenueAddress: true },
            { addressType: 'offererVenue', otherAddress: null, venueId: theatre() },
          ],
          [{ addressType: 'school' }, { type: 'SCHOOL' }, { addressType: 'school', otherAddress: null, venueId: null }],
          [
            { addressType: 'other', otherAddress: 'Salle des fêtes de la mairie' },
            { type: 'TO_BE_DEFINED', comment: 'Salle des fêtes de la mairie' },
            { addressType: 'other', otherAddress: 'Salle des fêtes de la mairie', venueId: null },
          ],
        ];
        for (const [offerVenue, location, derived] of cases) {
          const response = await post({ ...body, offerVenue });
          expect(response.status, JSON.stringify(response.body)).toBe(201);
          expect(response.body.location, JSON.stringify(offerVenue)).toEqual(location);
          expect(response.body.offerVenue).toEqual(derived);
        }
      });

      // pass Culture's API reads offerVenue's venueId: the offer is at that venue's address, which must be the caller's.
      it('reads offerVenue offererVenue as the address of the venue it names, one in reach (404 otherwise), and writes nothing then', async () => {
        const { location: _location, ...body } = aBody();
        const bookshopAddress = world.sandbox.venues[1].address!;
        const elsewhere = await post({
          ...body,
          offerVenue: { addressType: 'offererVenue', venueId: bookshop(), otherAddress: '' },
        });
        expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(201);
        expect(elsewhere.body.location).toEqual({
          type: 'ADDRESS',
          isVenueAddress: false,
          addressId: bookshopAddress.id,
          addressLabel: null,
        });
        expect(await stored(elsewhere.body.id)).toMatchObject({
          venue: { id: theatre() },
          locationType: 'ADDRESS',
          atVenueAddress: false,
          address: { id: bookshopAddress.id },
          addressLabel: null,
        });
        const own = await post({ ...body, offerVenue: { addressType: 'offererVenue', venueId: theatre() } });
        expect(own.status, JSON.stringify(own.body)).toBe(201);
        expect(own.body.location).toEqual({ type: 'ADDRESS', isVenueAddress: true });

        const before = await offerCount();
        const stranger = await world.anotherProvider(true);
        for (const venueId of [stranger.venueId, 999_999]) {
          const response = await post({ ...body, offerVenue: { addressType: 'offererVenue', venueId } });
          expect([response.status, response.body], String(venueId)).toEqual([404, { global: ['Venue not found'] }]);
        }
        const negative = await post({ ...body, offerVenue: { addressType: 'offererVenue', venueId: -1 } });
        expect(negative.status).toBe(422);
        expect(negative.body).toEqual([expect.objectContaining({ loc: ['offerVenue', 'venueId'] })]);
        expect(await offerCount()).toBe(before);
      });

      it('refuses offerVenue other without an address (422 at offerVenue.otherAddress), and writes nothing', async () => {
        const { location: _location, ...body } = aBody();
        const before = await offerCount();
        for (const offerVenue of [
          { addressType: 'other', otherAddress: '' },
          { addressType: 'other', otherAddress: '   ' },
          { addressType: 'other', otherAddress: null },
          { addressType: 'other' },
        ]) {
          const response = await post({ ...body, offerVenue });
          expect(response.status, JSON.stringify(offerVenue)).toBe(422);
          expect(response.body).toEqual([
            {
              loc: ['offerVenue', 'otherAddress'],
              msg: 'With addressType other, otherAddress says where: it cannot be empty',
              type: 'missing',
            },
          ]);
        }
        expect(await offerCount()).toBe(before);
      });

      it('refuses offerVenue offererVenue without venueId, a venueId or an otherAddress with another addressType (422), and writes nothing', async () => {
        const { location: _location, ...body } = aBody();
        const before = await offerCount();
        const cases: [Json, string, string][] = [
          [{ addressType: 'offererVenue' }, 'venueId', 'missing'],
          [{ addressType: 'offererVenue', venueId: null }, 'venueId', 'missing'],
          [{ addressType: 'school', venueId: theatre() }, 'venueId', 'value_error'],
          [{ addressType: 'other', otherAddress: 'Salle des fêtes', venueId: theatre() }, 'venueId', 'value_error'],
          [{ addressType: 'school', otherAddress: 'Salle des fêtes' }, 'otherAddress', 'value_error'],
          [
            { addressType: 'offererVenue', venueId: theatre(), otherAddress: 'Salle des fêtes' },
            'otherAddress',
            'value_error',
          ],
        ];
        for (const [offerVenue, field, type] of cases) {
          const response = await post({ ...body, offerVenue });
          expect(response.status, JSON.stringify(offerVenue)).toBe(422);
          expect(response.body).toEqual([expect.objectContaining({ loc: ['offerVenue', field], type })]);
        }
        expect(await offerCount()).toBe(before);
      });

      it('lets the location win when both it and offerVenue are sent', async () => {
        const offer = await created({
          location: { type: 'TO_BE_DEFINED', comment: 'À convenir' },
          offerVenue: { addressType: 'school' },
        });
        expect(offer.location).toEqual({ type: 'TO_BE_DEFINED', comment: 'À convenir' });
        expect(offer.offerVenue).toEqual({ addressType: 'other', otherAddress: 'À convenir', venueId: null });
      });

      it('needs a location or an offerVenue (422 missing at location)', async () => {
        const before = await offerCount();
        for (const body of [
          without('location'),
          aBody({ location: null }),
          aBody({ location: null, offerVenue: null }),
        ]) {
          const response = await post(body);
          expect(response.status).toBe(422);
          expect(response.body).toEqual([{ loc: ['location'], msg: 'Field required', type: 'missing' }]);
        }
        expect(await offerCount()).toBe(before);
      });
    });

    it('stores an image sent as base64 and answers its URL and credit', async () => {
      const image = aPng(400, 600).toString('base64');
      const offer = await created({ imageFile: image, imageCredit: 'Photo: A. Demo' });
      expect(offer.imageUrl).toMatch(/^http:\/\/api\.test\/images\/[\w-]+\.png$/);
      expect(offer.imageCredit).toBe('Photo: A. Demo');
      const row = await stored(offer.id);
      expect(row.imageKey).not.toBeNull();
      expect(offer.imageUrl).toContain(row.imageKey);
      const served = await request(world.testApp.app).get(new URL(offer.imageUrl as string).pathname);
      expect(served.status).toBe(200);
      // An image too small is refused at imageFile, and nothing is written.
      const before = await offerCount();
      const tooSmall = await post(
        aBody({ imageFile: aPng(200, 300).toString('base64'), imageCredit: 'Photo: A. Demo' }),
      );
      expect(tooSmall.status).toBe(422);
      expect(tooSmall.body).toEqual([expect.objectContaining({ loc: ['imageFile'] })]);
      expect(await offerCount()).toBe(before);
    });

    it('refuses an image of the wrong size or of a type it cannot read (422 at imageFile), and writes nothing', async () => {
      const before = await offerCount();
      for (const imageFile of [
        aPng(200, 300).toString('base64'),
        aPng(400, 400).toString('base64'),
        aGif(400, 600).toString('base64'),
        Buffer.from('not an image at all').toString('base64'),
        'abc',
      ]) {
        const response = await post(aBody({ imageFile, imageCredit: 'pouet' }));
        expect(response.status, JSON.stringify(response.body)).toBe(422);
        expect(response.body).toEqual([expect.objectContaining({ loc: ['imageFile'] })]);
      }
      expect(await offerCount()).toBe(before);
    });

    it('refuses an image without its credit and a credit without its image (400 naming the field), and writes nothing', async () => {
      const before = await offerCount();
      const png = aPng(400, 600).toString('base64');
      const cases: [Json, string, string][] = [
        [{ imageFile: png }, 'imageFile', 'A new image needs a credit: send imageCredit with imageFile'],
        [
          { imageFile: png, imageCredit: null },
          'imageFile',
          'A new image needs a credit: send imageCredit with imageFile',
        ],
        [{ imageCredit: 'Photo: A. Demo' }, 'imageCredit', 'A credit needs an image: send imageFile with imageCredit'],
        [
          { imageFile: null, imageCredit: 'Photo: A. Demo' },
          'imageCredit',
          'A credit needs an image: send imageFile with imageCredit',
        ],
      ];
      for (const [fields, field, message] of cases) {
        const response = await post(aBody(fields));
        expect([response.status, response.body], JSON.stringify(fields)).toEqual([400, { [field]: [message] }]);
      }
      expect(await offerCount()).toBe(before);
    });

    it('refuses an image of more than 2,000,000 base64 characters (422 at imageFile), and writes nothing', async () => {
      const before = await offerCount();
      const response = await post(aBody({ imageFile: 'A'.repeat(2_000_004), imageCredit: 'Photo: A. Demo' }));
      expect(response.status).toBe(422);
      expect(response.body).toEqual([expect.objectContaining({ loc: ['imageFile'], type: 'string_too_long' })]);
      expect(await offerCount()).toBe(before);
      const edited = await world.published();
      const patched = await world.patch(edited.id, { imageFile: 'A'.repeat(2_000_004), imageCredit: 'Photo: A. Demo' });
      expect(patched.status).toBe(422);
      expect(patched.body).toEqual([expect.objectContaining({ loc: ['imageFile'], type: 'string_too_long' })]);
      expect(await stored(edited.id)).toMatchObject({ imageKey: null, imageCredit: null });
    });
  });
});

describe('Collective offers: creation with an approval delay (AUTO_APPROVAL_DELAY_SECONDS above 0)', () => {
  const world = collectiveWorld({ approvalDelaySeconds: 3600 });

  it('answers UNDER_REVIEW, then the job queued for the delay publishes it', async () => {
    const offer = await world.created();
    expect([offer.status, offer.offerStatus]).toEqual(['PENDING', 'UNDER_REVIEW']);
    const jobs = await world.em().find(Job, { type: 'collective.autoApprove' });
    expect(jobs.map((job) => [job.payload.offerIds, job.runAt.toISOString()])).toEqual([
      [[offer.id], new Date(NOW.getTime() + 3600 * 1000).toISOString()],
    ]);
    await drainJobs(world.testApp);
    expect((await world.stored(offer.id)).validation).toBe('PENDING');
    world.testApp.clock.advance(3600 * 1000);
    await drainJobs(world.testApp);
    expect((await world.getOne(offer.id)).body.offerStatus).toBe('PUBLISHED');
    expect((await world.stored(offer.id)).validation).toBe('APPROVED');
  });
});

describe('Collective offers: sandboxRunScheduledJobs runs the approvals due (AUTO_APPROVAL_DELAY_SECONDS above 0)', () => {
  const world = collectiveWorld({ approvalDelaySeconds: 3600 });
  const RUN = 'mutation Run($at: DateTimeISO!) { sandboxRunScheduledJobs(at: $at) { collectiveApproved approved } }';
  const run = async (at: Date, key?: string) => {
    const answer = await world.graphql(RUN, { at: at.toISOString() }, key);
    expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
    return answer.body.data.sandboxRunScheduledJobs;
  };

  it('publishes the caller’s offer once its approval is due by `at`, and not another provider’s', async () => {
    const mine = await world.created();
    const stranger = await world.anotherProvider(true);
    const theirs = await world.created({ venueId: stranger.venueId }, stranger.key);
    expect(await run(new Date(NOW.getTime() + 3600 * 1000 - 1))).toEqual({ collectiveApproved: 0, approved: 0 });
    expect((await world.getOne(mine.id)).body.offerStatus).toBe('UNDER_REVIEW');
    expect(await run(new Date(NOW.getTime() + 2 * 3600 * 1000))).toEqual({ collectiveApproved: 1, approved: 0 });
    expect((await world.getOne(mine.id)).body.offerStatus).toBe('PUBLISHED');
    expect((await world.stored(theirs.id)).validation).toBe('PENDING');
    const jobs = await world.em().find(Job, { type: 'collective.autoApprove' }, { orderBy: { id: 'asc' } });
    expect(jobs.map((job) => job.status)).toEqual(['done', 'pending']);
  });
});

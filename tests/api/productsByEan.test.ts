import { describe, expect, it } from 'vitest';
import { catalogueEntries } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { anEvent } from '../support/fixtures.js';
import {
  anItem,
  expectIssueAt,
  NOT_ALLOWED_INDIVIDUAL_OFFERS,
  useByEanWorld,
  withoutIndividualOffersRight,
  withWrongCheckDigit,
} from '../support/offerWorld.js';

describe('Product offers by EAN: availability and reading', () => {
  const byEan = useByEanWorld();
  const { books, cds, vinyls, saleable, notAllowed, notCompliant, unknownEans, isSaleableCategory } = byEan;
  const { world, aVenue, em, checkAvailability, getByEan, getProduct, upsert, runAllJobs, importCount, offersAt } =
    byEan;

  it('uses a catalogue with every kind of entry', () => {
    expect(books.length).toBeGreaterThan(3);
    expect(cds.length).toBeGreaterThan(3);
    expect(vinyls.length).toBeGreaterThan(1);
    expect(notAllowed.length).toBeGreaterThan(1);
    expect(notCompliant.length).toBeGreaterThan(1);
    expect(unknownEans.length).toBeGreaterThan(150);
  });

  describe('GET check_availability', () => {
    it('sorts EANs into available and rejected by reason, each once, in the order given', async () => {
      const wrong = withWrongCheckDigit(books[0].ean);
      const eans = [
        books[0].ean,
        notAllowed[0].ean,
        cds[0].ean,
        unknownEans[0],
        notCompliant[0].ean,
        vinyls[0].ean,
        wrong,
        books[0].ean,
        notAllowed[1].ean,
      ];
      const response = await checkAvailability(eans);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        available: [books[0].ean, cds[0].ean, vinyls[0].ean],
        rejected: {
          notFound: [unknownEans[0], wrong],
          subcategoryNotAllowed: [notAllowed[0].ean, notAllowed[1].ean],
          notCompliantWithCgu: [notCompliant[0].ean],
        },
      });
    });

    it('sorts every entry of the catalogue by its category and compliance', async () => {
      const entries = [...catalogueEntries];
      for (let start = 0; start < entries.length; start += 100) {
        const page = entries.slice(start, start + 100);
        const response = await checkAvailability(page.map((entry) => entry.ean));
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          available: page
            .filter((entry) => isSaleableCategory(entry.category) && entry.compliant)
            .map((entry) => entry.ean),
          rejected: {
            notFound: [],
            subcategoryNotAllowed: page
              .filter((entry) => !isSaleableCategory(entry.category))
              .map((entry) => entry.ean),
            notCompliantWithCgu: page
              .filter((entry) => isSaleableCategory(entry.category) && !entry.compliant)
              .map((entry) => entry.ean),
          },
        });
      }
    });

    it('takes 100 EANs, refuses 101, an EAN that is not 13 characters, or none (422)', async () => {
      const hundred = saleable.slice(0, 100).map((entry) => entry.ean);
      const ok = await checkAvailability(hundred);
      expect(ok.status).toBe(200);
      expect(ok.body.available).toEqual(hundred);

      for (const eans of [
        [...hundred, saleable[100].ean],
        [books[0].ean, books[1].ean.slice(0, 12)],
        [`${books[0].ean}0`],
        ['abcdefghijkl'],
        '',
      ]) {
        const response = await checkAvailability(eans);
        expect(response.status, JSON.stringify(eans)).toBe(422);
        expect(response.body[0].loc).toEqual(['eans']);
      }
      const missing = await world.api.call('CheckEansAvailability');
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual([expect.objectContaining({ loc: ['eans'], type: 'missing' })]);
    });

    it('calls 13 characters that are not digits not found', async () => {
      const response = await checkAvailability(['ABCDEFGHIJKLM', books[0].ean]);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        available: [books[0].ean],
        rejected: { notFound: ['ABCDEFGHIJKLM'], subcategoryNotAllowed: [], notCompliantWithCgu: [] },
      });
    });
  });

  describe('GET by EAN', () => {
    it("lists the key's provider's product offers at the venue with these EANs, the newest first, accessibility null where unknown", async () => {
      const venue = await aVenue();
      const elsewhere = await aVenue();
      const wanted = [cds[5], books[8], vinyls[1]];
      await upsert(venue.id, [...wanted.map((entry) => anItem(entry, { price: 1100, quantity: 2 })), anItem(books[9])]);
      await upsert(elsewhere.id, [anItem(books[8])]);
      await runAllJobs();
      // An event at the venue is never a product, even with an EAN that the query names.
      await anEvent(
        em(),
        world.testApp.clock,
        { providerId: world.sandbox.provider.id, venueId: venue.id },
        { ean: books[10].ean },
      );
      const ids = (await offersAt(venue.id))
        .filter((offer) => offer.ean !== books[9].ean && !offer.isEvent)
        .map((offer) => offer.id);
      expect(ids).toHaveLength(3);

      const query = [vinyls[1].ean, books[8].ean, unknownEans[2], cds[5].ean, books[10].ean, books[8].ean].join(',');
      const response = await getByEan({ eans: query, venueId: venue.id });
      expect(response.status).toBe(200);
      expect(response.body.products.map((product: { id: number }) => product.id)).toEqual([...ids].reverse());
      expect(ids[0]).toBeLessThan(ids[2]);
      expect(response.body.products[2]).toMatchObject({
        name: cds[5].title,
        categoryRelatedFields: { category: 'SUPPORT_PHYSIQUE_MUSIQUE_CD', ean: cds[5].ean },
        location: { type: 'physical', venueId: venue.id },
        stock: { price: 1100, quantity: 2, bookedQuantity: 0, bookingLimitDatetime: null },
        // The venue's accessibility, copied as it is: its motor accessibility is unknown (null).
        accessibility: {
          audioDisabilityCompliant: true,
          mentalDisabilityCompliant: false,
          motorDisabilityCompliant: null,
          visualDisabilityCompliant: true,
        },
      });
      const read = await getProduct(ids[0]);
      expect(response.body.products[2]).toEqual(read.body);

      expect((await getByEan({ eans: unknownEans[2], venueId: venue.id })).body).toEqual({ products: [] });
      expect((await getByEan({ eans: books[8].ean, venueId: world.sandbox.venues[0].id })).body).toEqual({
        products: [],
      });
    });

    it('refuses a missing parameter, 101 EANs, a wrong length or a wrong check digit (422)', async () => {
      const venueId = world.sandbox.venues[1].id;
      const hundred = saleable
        .slice(0, 100)
        .map((entry) => entry.ean)
        .join(',');
      expect((await getByEan({ eans: hundred, venueId: venueId })).status).toBe(200);
      const cases: [Record<string, string | number>, string[], string | null][] = [
        [{ venueId }, ['eans'], 'missing'],
        [{ eans: books[0].ean }, ['venueId'], 'missing'],
        [{ eans: books[0].ean, venueId: 'abc' }, ['venueId'], null],
        [{ eans: books[0].ean, venueId: 0 }, ['venueId'], null],
        [{ eans: `${hundred},${saleable[100].ean}`, venueId }, ['eans'], null],
        [{ eans: `${books[0].ean},123`, venueId }, ['eans'], null],
        [{ eans: `${books[0].ean},${withWrongCheckDigit(books[1].ean)}`, venueId }, ['eans', '1'], 'ean_check_digit'],
        [{ eans: 'ABCDEFGHIJKLM', venueId }, ['eans', '0'], 'ean_check_digit'],
      ];
      for (const [query, loc, type] of cases) expectIssueAt(await getByEan(query), loc, type, JSON.stringify(query));
    });

    it('answers 404 for a venue the key cannot reach', async () => {
      const notLinked = await aVenue({ offererId: world.sandbox.offerer.id, providerId: null });
      // A venue whose link to the provider is no longer active is out of reach too, its offers with it.
      const inactiveLink = await aVenue();
      await upsert(inactiveLink.id, [anItem(books[0])]);
      await runAllJobs();
      expect((await getByEan({ eans: books[0].ean, venueId: inactiveLink.id })).body.products).toHaveLength(1);
      await em().nativeUpdate(VenueProvider, { venue: inactiveLink.id }, { isActive: false });
      for (const venueId of [byEan.otherVenue.id, notLinked.id, inactiveLink.id, 999999]) {
        const response = await getByEan({ eans: books[0].ean, venueId: venueId });
        expect(response.status, String(venueId)).toBe(404);
        expect(response.body).toEqual({ global: ['Venue not found'] });
      }
    });
  });

  it('answers 403 on all three to a provider that may no longer manage individual offers, and records nothing', async () => {
    const before = await importCount();
    await withoutIndividualOffersRight(world.testApp, world.sandbox.provider.id, async () => {
      for (const response of [
        await checkAvailability([books[0].ean]),
        await getByEan({ eans: books[0].ean, venueId: world.sandbox.venues[1].id }),
        await upsert(world.sandbox.venues[1].id, [anItem(books[0])]),
      ]) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual(NOT_ALLOWED_INDIVIDUAL_OFFERS);
      }
    });
    expect(await importCount()).toBe(before);
  });
});

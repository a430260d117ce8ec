import { labelOfVenueType, venueTypes } from '../../graphql/providers/venueTypes.js';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  categories,
  categoryById,
  categoryFieldNames,
  categoryFieldTypes,
  categoryIds,
  conditionalFieldsOf,
  deprecatedMusicTypes,
  eventCategories,
  isCategoryId,
  isEventCategory,
  labelOfDeprecatedMusicType,
  labelOfShowType,
  labelOfTiteliveEventMusicType,
  labelOfTiteliveMusicType,
  productCategories,
  responseLocationTypeOf,
  showTypes,
  titeliveEventMusicTypes,
  titeliveMusicTypes,
  type CategoryId,
} from '../../graphql/offers/catalogue/index.js';
import { createTestApp } from '../support/app.js';
import { graphqlAs } from '../support/builders.js';
import { openApiDocument } from '../support/contract.js';
import { createSandbox } from '../support/fixtures.js';

// The facts below come from the product specification (section 3 "Event categories", section 4
// statuses) and the reference contract (its enum counts, its *_create schemas): a few of them, picked
// by hand, checked against what callers see (the generated OpenAPI document, the graph's answers) or
// against the catalogue, so that a bad transcription fails here.

/** The schemas of the generated OpenAPI document, as a client reads them. */
interface DocumentSchema {
  enum?: unknown[];
  properties?: Record<string, DocumentSchema & { $ref?: string; anyOf?: { $ref: string }[]; pattern?: string }>;
  oneOf?: { $ref: string }[];
}
const schemas = openApiDocument.components!.schemas as Record<string, DocumentSchema>;
const enumOf = (name: string): unknown[] => schemas[name].enum!;
/** A reference enum in the document: a schema of its name, or inline (beside null) on the one field using it. */
const referenceEnum = (name: string): unknown[] =>
  name === 'LocationTypeEnum'
    ? schemas.ProductCategoryResponse.properties!.locationType.enum!.filter((value) => value !== null)
    : enumOf(name);
/** The category of each `categoryRelatedFields` variant of a creation body (`CONCERT_create` -> CONCERT). */
const variantsOf = (body: string): unknown[] =>
  schemas[body].properties!.categoryRelatedFields.oneOf!.map(
    ({ $ref }) => schemas[$ref.split('/').pop()!].properties!.category.enum![0],
  );
/** Expects `values` to hold `expected` in this order (other values may stand between them). */
const inOrder = (values: readonly unknown[], expected: readonly unknown[]) =>
  expect(values.filter((value) => expected.includes(value))).toEqual(expected);

/** Event categories with no `*_create` schema in the reference: technical or closed to providers. */
const nonCreatableEventCategories = ['ACTIVATION_EVENT', 'DECOUVERTE_METIERS'];

const sorted = (ids: readonly unknown[]): unknown[] => [...ids].sort();
const idsWhere = (predicate: (id: CategoryId) => boolean): string[] =>
  sorted(categoryIds.filter(predicate)) as string[];

describe('reference enums, as the OpenAPI document names them', () => {
  it.each([
    ['BookingStatus', 4],
    ['CategoryEnum', 28],
    ['CollectiveBookingStatus', 5],
    ['CollectiveOfferDisplayedStatus', 12],
    ['CollectiveOfferStatus', 8],
    ['EacFormat', 8],
    ['LocationTypeEnum', 2],
    ['MusicTypeEnum__deprecated_', 200],
    ['OfferAddressType', 3],
    ['OfferStatus', 9],
    ['ShowTypeEnum', 85],
    ['TiteliveEventMusicTypeEnum', 15],
    ['TiteliveMusicTypeEnum', 19],
    ['VenueTypeEnum', 20],
  ])('%s has the reference count of distinct values', (name, count) => {
    const values = referenceEnum(name);
    expect(values).toHaveLength(count);
    expect(new Set(values).size).toBe(count);
  });

  it('keep the order of the product specification for statuses', () => {
    expect(enumOf('BookingStatus')).toEqual(['CONFIRMED', 'USED', 'CANCELLED', 'REIMBURSED']);
    expect(enumOf('CollectiveBookingStatus')).toEqual(['PENDING', 'CONFIRMED', 'USED', 'CANCELLED', 'REIMBURSED']);
    // An offer's life: drafted, reviewed, scheduled, published, open, sold out, expired.
    inOrder(enumOf('OfferStatus'), ['DRAFT', 'PENDING', 'SCHEDULED', 'PUBLISHED', 'ACTIVE', 'SOLD_OUT', 'EXPIRED']);
    expect(enumOf('OfferStatus').at(-1)).toBe('EXPIRED');
    // A collective offer's: published, reviewed, booked, ended; archived and draft last.
    inOrder(enumOf('CollectiveOfferDisplayedStatus'), ['PUBLISHED', 'UNDER_REVIEW', 'PREBOOKED', 'BOOKED', 'ENDED']);
    expect(enumOf('CollectiveOfferDisplayedStatus').slice(-2)).toEqual(['ARCHIVED', 'DRAFT']);
    expect(enumOf('CollectiveOfferStatus')[0]).toBe('ACTIVE');
  });

  it('keep the reference spelling and order of the music and show types', () => {
    const deprecatedMusicTypes = enumOf('MusicTypeEnum__deprecated_');
    expect(deprecatedMusicTypes[0]).toBe('JAZZ-ACID_JAZZ');
    expect(deprecatedMusicTypes).toContain('HIP_HOP_RAP-R&B_CONTEMPORAIN');
    expect(deprecatedMusicTypes).toContain('CHANSON_VARIETE-CHANSON_À_TEXTE');
    expect(deprecatedMusicTypes.at(-1)).toBe('OTHER');
    expect(enumOf('ShowTypeEnum')[0]).toBe('ART_DE_LA_RUE-CARNAVAL');
    expect(enumOf('ShowTypeEnum').at(-1)).toBe('OTHER');
    const titeliveMusicTypes = enumOf('TiteliveMusicTypeEnum');
    expect(titeliveMusicTypes).toContain('RAP-HIP HOP');
    expect(titeliveMusicTypes[0]).toBe('MUSIQUE_CLASSIQUE');
    expect(titeliveMusicTypes.at(-1)).toBe('AUTRES');
    expect(enumOf('EacFormat')).toContain('Conférence, rencontre');
    expect(enumOf('OfferAddressType')).toEqual(['offererVenue', 'school', 'other']);
    expect(schemas.ProductCategoryResponse.properties!.locationType.enum).toEqual(['DIGITAL', 'PHYSICAL', null]);
  });

  it('make the event music types a subset of the Titelive music types', () => {
    for (const musicType of enumOf('TiteliveEventMusicTypeEnum')) {
      expect(enumOf('TiteliveMusicTypeEnum')).toContain(musicType);
    }
  });

  it('make CategoryEnum the creatable product categories plus CAPTATION_MUSIQUE', () => {
    expect(sorted(enumOf('CategoryEnum'))).toEqual(
      sorted([...variantsOf('ProductOfferCreation'), 'CAPTATION_MUSIQUE']),
    );
  });
});

describe('the catalogue as the graph answers it', () => {
  it('lists the categories, music types and show types of the OpenAPI document, in its order', async () => {
    const testApp = await createTestApp();
    try {
      const { apiKey } = await createSandbox(testApp.database.orm.em.fork(), testApp.clock, 'test');
      const response = await graphqlAs(
        testApp,
        apiKey,
        `{ eventCategories { id } productCategories { id } musicTypes { id label } eventMusicTypes { id label }
           legacyMusicTypes { id } showTypes { id } }`,
      );
      expect(response.body.errors).toBeUndefined();
      const { data } = response.body;
      const ids = (field: string) => (data[field] as { id: string }[]).map(({ id }) => id);
      expect(ids('eventCategories')).toEqual(enumOf('EventCategoryEnum'));
      expect(ids('productCategories')).toEqual(variantsOf('ProductOfferCreation'));
      expect(ids('musicTypes')).toEqual(enumOf('TiteliveMusicTypeEnum'));
      expect(ids('eventMusicTypes')).toEqual(enumOf('TiteliveEventMusicTypeEnum'));
      expect(ids('legacyMusicTypes')).toEqual(enumOf('MusicTypeEnum__deprecated_'));
      expect(ids('showTypes')).toEqual(enumOf('ShowTypeEnum'));
      // An event music type reads as it does among all the music types.
      for (const musicType of data.eventMusicTypes) expect(data.musicTypes).toContainEqual(musicType);
    } finally {
      await testApp.close();
    }
  });
});

describe('labels', () => {
  it.each([
    ['deprecated music types', labelOfDeprecatedMusicType, deprecatedMusicTypes],
    ['Titelive music types', labelOfTiteliveMusicType, titeliveMusicTypes],
    ['Titelive event music types', labelOfTiteliveEventMusicType, titeliveEventMusicTypes],
    ['show types', labelOfShowType, showTypes],
    ['venue types', labelOfVenueType, venueTypes],
  ] as const)('cover every one of the %s with a label', (_name, labels, values) => {
    expect(sorted(Object.keys(labels))).toEqual(sorted(values));
    for (const text of Object.values<string>(labels)) expect(text.trim()).not.toBe('');
  });

  it('give every venue type a distinct, trimmed label', () => {
    const texts = Object.values<string>(labelOfVenueType);
    for (const text of texts) expect(text).toMatch(/^\S(.*\S)?$/);
    expect(new Set(texts).size).toBe(venueTypes.length);
  });

  it("read as pass Culture's own labels: a subgenre alone, spelling and trailing spaces kept", () => {
    expect(labelOfShowType['ART_DE_LA_RUE-CARNAVAL']).toBe('Carnaval');
    expect(labelOfShowType['THEATRE-TRAGEDIE']).toBe('Tragédie');
    expect(labelOfShowType['CIRQUE-CIRQUE_TRADITIONNEL']).toBe('Cirque Traditionel');
    expect(labelOfShowType['SPECTACLE_MUSICAL-OTHER']).toBe('Autre');
    expect(labelOfShowType.OTHER).toBe('Autre');
    expect(labelOfDeprecatedMusicType['JAZZ-BEBOP']).toBe('Bebop');
    expect(labelOfDeprecatedMusicType['JAZZ-OTHER']).toBe('Autre');
    expect(labelOfDeprecatedMusicType['REGGAE-ROOTS']).toBe('Roots ');
    expect(labelOfTiteliveMusicType.MUSIQUE_CLASSIQUE).toBe('Musique Classique');
    expect(labelOfTiteliveMusicType['RAP-HIP HOP']).toBe('Rap / Hip Hop');
    expect(labelOfTiteliveMusicType.AUTRES).toBe('Autre');
    expect(labelOfVenueType.BOOKSTORE).toBe('Librairie');
    expect(labelOfVenueType.MOVIE).toBe('Cinéma - Salle de projections');
    expect(labelOfVenueType.OTHER).toBe('Autre');
  });

  it('give an event music type the same label as in the list of all music types', () => {
    for (const musicType of titeliveEventMusicTypes) {
      expect(labelOfTiteliveEventMusicType[musicType]).toBe(labelOfTiteliveMusicType[musicType]);
    }
  });
});

describe('categories', () => {
  it('hold the 73 reference categories: 28 events and 45 products', () => {
    expect(categoryIds).toHaveLength(73);
    expect(new Set(categoryIds).size).toBe(73);
    expect(Object.keys(categories)).toHaveLength(73);
    expect(idsWhere((id) => categories[id].kind === 'event')).toHaveLength(28);
    expect(idsWhere((id) => categories[id].kind === 'product')).toHaveLength(45);
  });

  it("count the specification's event categories among the events, and no product", () => {
    const events = idsWhere((id) => categories[id].kind === 'event');
    // A few of the specification's list, from its start, its middle and its end.
    for (const id of ['ACTIVATION_EVENT', 'CONCERT', 'LIVESTREAM_MUSIQUE', 'SEANCE_CINE', 'VISITE_GUIDEE']) {
      expect(events).toContain(id);
    }
    for (const id of ['VOD', 'LIVRE_PAPIER', 'CAPTATION_MUSIQUE', 'SPECTACLE_ENREGISTRE'])
      expect(events).not.toContain(id);
    expect(events).toEqual(sorted([...variantsOf('EventOfferCreation'), ...nonCreatableEventCategories]));
  });

  it('offer for creation (EventOfferCreation in the document) the event categories but the two technical ones, in id order', () => {
    const creatable = variantsOf('EventOfferCreation');
    expect(creatable).toHaveLength(26);
    expect(creatable).toEqual(sorted(creatable));
    expect(eventCategories().map((category) => category.id)).toEqual(creatable);
    for (const id of nonCreatableEventCategories) expect(creatable).not.toContain(id);
  });

  it('offer for creation (ProductOfferCreation in the document) the creatable product categories, in id order', () => {
    const creatable = variantsOf('ProductOfferCreation');
    expect(creatable).toHaveLength(27);
    expect(creatable).toEqual(sorted(creatable));
    expect(productCategories().map((category) => category.id)).toEqual(creatable);
    expect(creatable).toEqual(idsWhere((id) => categories[id].kind === 'product' && categories[id].creatable));
    // Paper books and records are put on sale by EAN; a recorded concert is never created.
    for (const id of ['LIVRE_PAPIER', 'SUPPORT_PHYSIQUE_MUSIQUE_CD', 'CAPTATION_MUSIQUE']) {
      expect(creatable).not.toContain(id);
    }
  });

  it('are consistent: ids, trimmed labels, required fields among the fields, typed fields', () => {
    const usedFields = new Set<string>();
    for (const id of categoryIds) {
      const category = categories[id];
      expect(category.id).toBe(id);
      expect(category.label).toMatch(/^\S(.*\S)?$/);
      for (const field of category.requiredOnCreate) expect(category.fields).toContain(field);
      if (!category.creatable) expect(category.requiredOnCreate).toEqual([]);
      for (const field of category.fields) usedFields.add(field);
    }
    expect(sorted([...usedFields])).toEqual(sorted(categoryFieldNames));
    expect(sorted(Object.keys(categoryFieldTypes))).toEqual(sorted(categoryFieldNames));
  });

  it('keep the reference labels', () => {
    expect(categories.ACTIVATION_EVENT.label).toBe("Catégorie technique d'évènement d'activation");
    expect(categories.SEANCE_CINE.label).toBe('Séance de cinéma');
    expect(categories.SUPPORT_PHYSIQUE_FILM.label).toBe('Support physique (DVD, Blu-ray...)');
  });

  it('require musicType, ean or showType on creation where the reference does', () => {
    const requiring = (field: string) =>
      idsWhere((id) => (categories[id].requiredOnCreate as readonly string[]).includes(field));
    expect(requiring('musicType')).toEqual(
      sorted([
        'CONCERT',
        'EVENEMENT_MUSIQUE',
        'FESTIVAL_MUSIQUE',
        'LIVESTREAM_MUSIQUE',
        'ABO_CONCERT',
        'TELECHARGEMENT_MUSIQUE',
      ]),
    );
    expect(requiring('ean')).toEqual(
      sorted(['LIVRE_AUDIO_PHYSIQUE', 'LOCATION_INSTRUMENT', 'PARTITION', 'SUPPORT_PHYSIQUE_FILM', 'ACHAT_INSTRUMENT']),
    );
    expect(requiring('showType')).toEqual(
      sorted([
        'FESTIVAL_SPECTACLE',
        'LIVESTREAM_EVENEMENT',
        'SPECTACLE_REPRESENTATION',
        'ABO_SPECTACLE',
        'SPECTACLE_ENREGISTRE',
      ]),
    );
    const others = categoryFieldNames.filter((field) => !['musicType', 'ean', 'showType'].includes(field));
    for (const field of others) expect(requiring(field)).toEqual([]);
  });

  it("carry the specification's category-related fields", () => {
    expect(categories.CONCERT.requiredOnCreate).toEqual(['musicType']);
    expect(categories.LIVRE_AUDIO_PHYSIQUE.requiredOnCreate).toEqual(['ean']);
    expect(categories.SPECTACLE_REPRESENTATION.requiredOnCreate).toEqual(['showType']);
    expect(categories.SEANCE_CINE.fields).toEqual(['author', 'stageDirector', 'visa']);
    expect(categories.SEANCE_CINE.requiredOnCreate).toEqual([]);
    for (const id of ['SPECTACLE_ENREGISTRE', 'SPECTACLE_REPRESENTATION', 'SPECTACLE_VENTE_DISTANCE'] as const) {
      expect(categories[id].fields).toEqual(['author', 'performer', 'showType', 'stageDirector']);
    }
    const withEan = idsWhere((id) => (categories[id].fields as readonly string[]).includes('ean'));
    expect(withEan).toEqual(
      expect.arrayContaining([
        'LIVRE_AUDIO_PHYSIQUE',
        'LIVRE_NUMERIQUE',
        'LIVRE_PAPIER',
        'LOCATION_INSTRUMENT',
        'MATERIEL_ART_CREATIF',
        'PARTITION',
        'SUPPORT_PHYSIQUE_FILM',
        'SUPPORT_PHYSIQUE_MUSIQUE_CD',
        'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE',
        'TELECHARGEMENT_MUSIQUE',
      ]),
    );
    for (const id of [
      'LIVESTREAM_PRATIQUE_ARTISTIQUE',
      'PLATEFORME_PRATIQUE_ARTISTIQUE',
      'PODCAST',
      'VISITE_VIRTUELLE',
      'VISITE_GUIDEE',
      'VISITE',
      'VOD',
      'OEUVRE_ART',
      'MUSEE_VENTE_DISTANCE',
    ] as const) {
      expect(categories[id].fields).toEqual([]);
    }
  });

  it('validate fields by their reference types in the creation bodies of the document', () => {
    const fieldOf = (schema: string, field: string) => schemas[schema].properties![field];
    expect(fieldOf('CONCERT_create', 'musicType').anyOf).toEqual([
      { $ref: '#/components/schemas/TiteliveMusicTypeEnum' },
      { $ref: '#/components/schemas/MusicTypeEnum__deprecated_' },
    ]);
    expect(fieldOf('SPECTACLE_REPRESENTATION_create', 'showType').$ref).toBe('#/components/schemas/ShowTypeEnum');
    expect(fieldOf('LIVRE_AUDIO_PHYSIQUE_create', 'ean').pattern).toBe('^\\d{13}$');
    expect(fieldOf('SEANCE_CINE_create', 'visa')).toMatchObject({ type: 'string' });
    expect(fieldOf('CONCERT_create', 'author')).toMatchObject({ type: 'string' });
  });

  it('allow duo bookings and withdrawable tickets only where the reference does', () => {
    expect(categories.CONCERT.canBeDuo).toBe(true);
    expect(categories.SEANCE_CINE.canBeDuo).toBe(true);
    expect(categories.LIVESTREAM_MUSIQUE.canBeDuo).toBe(false);
    expect(categories.RENCONTRE_EN_LIGNE.canBeDuo).toBe(false);
    expect(idsWhere((id) => categories[id].kind === 'product' && categories[id].canBeDuo)).toEqual([
      'CARTE_MUSEE',
      'ESCAPE_GAME',
    ]);
    expect(idsWhere((id) => categories[id].canBeWithdrawable)).toEqual(
      sorted([
        'CONCERT',
        'EVENEMENT_MUSIQUE',
        'FESTIVAL_ART_VISUEL',
        'FESTIVAL_MUSIQUE',
        'FESTIVAL_SPECTACLE',
        'SPECTACLE_REPRESENTATION',
      ]),
    );
  });

  it('allow the reference locations', () => {
    expect(categories.CONCERT.locationType).toBe('OFFLINE');
    expect(categories.LIVESTREAM_EVENEMENT.locationType).toBe('ONLINE');
    expect(categories.VOD.locationType).toBe('ONLINE');
    expect(categories.LIVRE_PAPIER.locationType).toBe('OFFLINE');
    expect(categories.ACTIVATION_THING.locationType).toBe('ONLINE_OR_OFFLINE');
    expect(idsWhere((id) => categories[id].locationType === 'ONLINE_OR_OFFLINE')).toEqual([
      'ACTIVATION_EVENT',
      'ACTIVATION_THING',
      'JEU_SUPPORT_PHYSIQUE',
      'OEUVRE_ART',
    ]);
    expect(responseLocationTypeOf('VOD')).toBe('DIGITAL');
    expect(responseLocationTypeOf(categories.LIVRE_AUDIO_PHYSIQUE)).toBe('PHYSICAL');
    expect(responseLocationTypeOf('ACTIVATION_THING')).toBeNull();
  });
});

describe('category helpers', () => {
  it('map each field of a category to whether creation requires it', () => {
    expect(conditionalFieldsOf('CONCERT')).toEqual({ author: false, musicType: true, performer: false });
    expect(conditionalFieldsOf(categories.LIVRE_NUMERIQUE)).toEqual({ author: false, ean: false });
    expect(conditionalFieldsOf('VISITE')).toEqual({});
  });

  it('find categories by id, and nothing for unknown or inherited names', () => {
    expect(categoryById('SEANCE_CINE')?.label).toBe('Séance de cinéma');
    expect(categoryById('NOT_A_CATEGORY')).toBeUndefined();
    expect(categoryById('toString')).toBeUndefined();
    expect(isCategoryId('constructor')).toBe(false);
    expect(isCategoryId('VOD')).toBe(true);
  });

  it('tell event categories from product categories and unknown ids', () => {
    expect(isEventCategory('CONCERT')).toBe(true);
    expect(isEventCategory('DECOUVERTE_METIERS')).toBe(true);
    expect(isEventCategory('VOD')).toBe(false);
    expect(isEventCategory('concert')).toBe(false);
  });
});

describe('catalogue sources', () => {
  it('hold their data in code and never read the shared reference at run time', () => {
    const directory = new URL('../../graphql/offers/catalogue/', import.meta.url);
    for (const file of readdirSync(directory)) {
      const source = readFileSync(new URL(file, directory), 'utf8');
      expect(source, file).not.toMatch(/node:fs|readFile|\/shared\/|\.json['"]/);
    }
  });
});

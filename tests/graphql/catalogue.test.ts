import { bookingStatuses } from '../../graphql/bookings/Booking.js';
import { COLLECTIVE_BOOKING_STATUSES as collectiveBookingStatuses } from '../../graphql/collective/CollectiveBooking.js';
import {
  COLLECTIVE_DISPLAYED_STATUSES as collectiveOfferDisplayedStatuses,
  COLLECTIVE_LEGACY_STATUSES as collectiveOfferStatuses,
} from '../../graphql/collective/displayedStatus.js';
import { EAC_FORMATS as eacFormats } from '../../graphql/collective/formats.js';
import { labelOfVenueType, venueTypes } from '../../graphql/providers/venueTypes.js';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  categories,
  categoryById,
  categoryEnumValues,
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
  locationTypes,
  offerAddressTypes,
  offerStatuses,
  productCategories,
  responseLocationTypeOf,
  showTypes,
  titeliveEventMusicTypes,
  titeliveMusicTypes,
  type CategoryId,
} from '../../graphql/offers/catalogue/index.js';

// Facts below are copied from the product specification (section 3 "Event categories", section 4
// statuses) and from the reference contract (enums.json counts, the *_create schemas), not from the
// catalogue modules, so that a bad transcription fails here.

/** The product specification's list of event categories (section 3), in its order. */
const specEventCategories = [
  'ACTIVATION_EVENT',
  'ATELIER_PRATIQUE_ART',
  'CINE_PLEIN_AIR',
  'CONCERT',
  'CONCOURS',
  'CONFERENCE',
  'DECOUVERTE_METIERS',
  'EVENEMENT_CINE',
  'EVENEMENT_JEU',
  'EVENEMENT_MUSIQUE',
  'EVENEMENT_PATRIMOINE',
  'FESTIVAL_ART_VISUEL',
  'FESTIVAL_CINE',
  'FESTIVAL_LIVRE',
  'FESTIVAL_MUSIQUE',
  'FESTIVAL_SPECTACLE',
  'LIVESTREAM_EVENEMENT',
  'LIVESTREAM_MUSIQUE',
  'LIVESTREAM_PRATIQUE_ARTISTIQUE',
  'RENCONTRE_EN_LIGNE',
  'RENCONTRE_JEU',
  'RENCONTRE',
  'SALON',
  'SEANCE_CINE',
  'SEANCE_ESSAI_PRATIQUE_ART',
  'SPECTACLE_REPRESENTATION',
  'VISITE_GUIDEE',
  'VISITE',
];
/** Event categories with no `*_create` schema in the reference: technical or closed to providers. */
const nonCreatableEventCategories = ['ACTIVATION_EVENT', 'DECOUVERTE_METIERS'];
/** The `categoryRelatedFields` variants of the reference's ProductOfferCreation. */
const creatableProductCategories = [
  'ABO_BIBLIOTHEQUE',
  'ABO_CONCERT',
  'ABO_LIVRE_NUMERIQUE',
  'ABO_MEDIATHEQUE',
  'ABO_PLATEFORME_MUSIQUE',
  'ABO_PLATEFORME_VIDEO',
  'ABO_PRATIQUE_ART',
  'ABO_PRESSE_EN_LIGNE',
  'ABO_SPECTACLE',
  'ACHAT_INSTRUMENT',
  'APP_CULTURELLE',
  'AUTRE_SUPPORT_NUMERIQUE',
  'CARTE_JEUNES',
  'CARTE_MUSEE',
  'LIVRE_AUDIO_PHYSIQUE',
  'LIVRE_NUMERIQUE',
  'LOCATION_INSTRUMENT',
  'PARTITION',
  'PLATEFORME_PRATIQUE_ARTISTIQUE',
  'PODCAST',
  'PRATIQUE_ART_VENTE_DISTANCE',
  'SPECTACLE_ENREGISTRE',
  'SUPPORT_PHYSIQUE_FILM',
  'TELECHARGEMENT_LIVRE_AUDIO',
  'TELECHARGEMENT_MUSIQUE',
  'VISITE_VIRTUELLE',
  'VOD',
];

const sorted = (ids: readonly string[]): string[] => [...ids].sort();
const idsWhere = (predicate: (id: CategoryId) => boolean): string[] => sorted(categoryIds.filter(predicate));

describe('reference enums', () => {
  it.each([
    ['BookingStatus', bookingStatuses, 4],
    ['CategoryEnum', categoryEnumValues, 28],
    ['CollectiveBookingStatus', collectiveBookingStatuses, 5],
    ['CollectiveOfferDisplayedStatus', collectiveOfferDisplayedStatuses, 12],
    ['CollectiveOfferStatus', collectiveOfferStatuses, 8],
    ['EacFormat', eacFormats, 8],
    ['LocationTypeEnum', locationTypes, 2],
    ['MusicTypeEnum__deprecated_', deprecatedMusicTypes, 200],
    ['OfferAddressType', offerAddressTypes, 3],
    ['OfferStatus', offerStatuses, 9],
    ['ShowTypeEnum', showTypes, 85],
    ['TiteliveEventMusicTypeEnum', titeliveEventMusicTypes, 15],
    ['TiteliveMusicTypeEnum', titeliveMusicTypes, 19],
    ['VenueTypeEnum', venueTypes, 20],
  ] as const)('%s has the reference count of distinct values', (_name, values, count) => {
    expect(values).toHaveLength(count);
    expect(new Set(values).size).toBe(count);
  });

  it('keep the order of the product specification for statuses', () => {
    expect(offerStatuses).toEqual([
      'DRAFT',
      'PENDING',
      'REJECTED',
      'INACTIVE',
      'SCHEDULED',
      'PUBLISHED',
      'ACTIVE',
      'SOLD_OUT',
      'EXPIRED',
    ]);
    expect(bookingStatuses).toEqual(['CONFIRMED', 'USED', 'CANCELLED', 'REIMBURSED']);
    expect(collectiveBookingStatuses).toEqual(['PENDING', 'CONFIRMED', 'USED', 'CANCELLED', 'REIMBURSED']);
    expect(collectiveOfferDisplayedStatuses).toEqual([
      'PUBLISHED',
      'UNDER_REVIEW',
      'REJECTED',
      'PREBOOKED',
      'BOOKED',
      'HIDDEN',
      'EXPIRED',
      'ENDED',
      'CANCELLED',
      'REIMBURSED',
      'ARCHIVED',
      'DRAFT',
    ]);
  });

  it('keep the reference spelling and order of the music and show types', () => {
    expect(deprecatedMusicTypes[0]).toBe('JAZZ-ACID_JAZZ');
    expect(deprecatedMusicTypes).toContain('HIP_HOP_RAP-R&B_CONTEMPORAIN');
    expect(deprecatedMusicTypes).toContain('CHANSON_VARIETE-CHANSON_À_TEXTE');
    expect(deprecatedMusicTypes.at(-1)).toBe('OTHER');
    expect(showTypes[0]).toBe('ART_DE_LA_RUE-CARNAVAL');
    expect(showTypes.at(-1)).toBe('OTHER');
    expect(titeliveMusicTypes).toContain('RAP-HIP HOP');
    expect(titeliveMusicTypes[0]).toBe('MUSIQUE_CLASSIQUE');
    expect(titeliveMusicTypes.at(-1)).toBe('AUTRES');
    expect(eacFormats).toContain('Conférence, rencontre');
    expect(offerAddressTypes).toEqual(['offererVenue', 'school', 'other']);
    expect(locationTypes).toEqual(['DIGITAL', 'PHYSICAL']);
  });

  it('make the event music types a subset of the Titelive music types', () => {
    for (const musicType of titeliveEventMusicTypes) expect(titeliveMusicTypes).toContain(musicType);
  });

  it('make CategoryEnum the creatable product categories plus CAPTATION_MUSIQUE', () => {
    expect(sorted(categoryEnumValues)).toEqual(sorted([...creatableProductCategories, 'CAPTATION_MUSIQUE']));
  });
});

describe('labels', () => {
  it.each([
    ['deprecated music types', labelOfDeprecatedMusicType, deprecatedMusicTypes],
    ['Titelive music types', labelOfTiteliveMusicType, titeliveMusicTypes],
    ['Titelive event music types', labelOfTiteliveEventMusicType, titeliveEventMusicTypes],
    ['show types', labelOfShowType, showTypes],
    ['venue types', labelOfVenueType, venueTypes],
  ] as const)('cover every one of the %s with a distinct, trimmed label', (_name, labels, values) => {
    expect(sorted(Object.keys(labels))).toEqual(sorted(values));
    const texts = Object.values<string>(labels);
    for (const text of texts) expect(text).toMatch(/^\S(.*\S)?$/);
    expect(new Set(texts).size).toBe(values.length);
  });

  it('read as French names derived from the codes', () => {
    expect(labelOfShowType['ART_DE_LA_RUE-CARNAVAL']).toBe('Arts de la rue - Carnaval');
    expect(labelOfShowType['THEATRE-TRAGEDIE']).toBe('Théâtre - Tragédie');
    expect(labelOfShowType.OTHER).toBe('Autre');
    expect(labelOfDeprecatedMusicType['JAZZ-BEBOP']).toBe('Jazz - Bebop');
    expect(labelOfDeprecatedMusicType['JAZZ-OTHER']).toBe('Jazz - Autre');
    expect(labelOfTiteliveMusicType.MUSIQUE_CLASSIQUE).toBe('Musique classique');
    expect(labelOfTiteliveMusicType['RAP-HIP HOP']).toBe('Rap - Hip hop');
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

  it("make the event categories exactly the specification's list", () => {
    expect(idsWhere((id) => categories[id].kind === 'event')).toEqual(sorted(specEventCategories));
  });

  it("offer for creation the specification's event categories but the two technical ones, in id order", () => {
    const expected = sorted(specEventCategories.filter((id) => !nonCreatableEventCategories.includes(id)));
    expect(expected).toHaveLength(26);
    expect(eventCategories().map((category) => category.id)).toEqual(expected);
  });

  it('offer for creation the product categories of ProductOfferCreation, in id order', () => {
    expect(productCategories().map((category) => category.id)).toEqual(sorted(creatableProductCategories));
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

  it('validate fields by their reference types', () => {
    expect(categoryFieldTypes.musicType).toBe('musicType');
    expect(categoryFieldTypes.showType).toBe('showType');
    expect(categoryFieldTypes.ean).toBe('ean');
    expect(categoryFieldTypes.visa).toBe('string');
    expect(categoryFieldTypes.author).toBe('string');
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

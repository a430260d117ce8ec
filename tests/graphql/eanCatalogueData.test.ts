import { describe, expect, it } from 'vitest';
import { titeliveMusicTypes } from '../../graphql/offers/catalogue/enums.js';
import {
  catalogueEntries,
  type CatalogueCategory,
  type CatalogueEntry,
} from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { isValidEan } from '../../graphql/offers/eanCatalogue/ean.js';

/** The categories that may be put on sale by EAN (bulk upsert): paper books, CDs and vinyls. */
const allowedCategories: readonly CatalogueCategory[] = [
  'LIVRE_PAPIER',
  'SUPPORT_PHYSIQUE_MUSIQUE_CD',
  'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE',
];
const notAllowedCategories: readonly CatalogueCategory[] = [
  'SUPPORT_PHYSIQUE_FILM',
  'LIVRE_AUDIO_PHYSIQUE',
  'JEU_SUPPORT_PHYSIQUE',
];
const musicCategories: readonly CatalogueCategory[] = [
  'SUPPORT_PHYSIQUE_MUSIQUE_CD',
  'SUPPORT_PHYSIQUE_MUSIQUE_VINYLE',
];

const inCategory = (category: CatalogueCategory): CatalogueEntry[] =>
  catalogueEntries.filter((entry) => entry.category === category);

describe('EAN catalogue data', () => {
  it('gives every entry a 13-digit EAN with a valid check digit', () => {
    const invalid = catalogueEntries.filter((entry) => !/^\d{13}$/.test(entry.ean) || !isValidEan(entry.ean));
    expect(invalid.map((entry) => entry.ean)).toEqual([]);
  });

  it('has no duplicate EAN', () => {
    const eans = catalogueEntries.map((entry) => entry.ean);
    const duplicates = eans.filter((ean, index) => eans.indexOf(ean) !== index);
    expect(duplicates).toEqual([]);
  });

  it('holds enough entries of each allowed category', () => {
    expect(catalogueEntries.length).toBeGreaterThanOrEqual(300);
    expect(inCategory('LIVRE_PAPIER').length).toBeGreaterThanOrEqual(150);
    expect(inCategory('SUPPORT_PHYSIQUE_MUSIQUE_CD').length).toBeGreaterThanOrEqual(40);
    expect(inCategory('SUPPORT_PHYSIQUE_MUSIQUE_VINYLE').length).toBeGreaterThanOrEqual(25);
  });

  it.each(notAllowedCategories)('holds at least one %s entry (rejected as subcategoryNotAllowed)', (category) => {
    expect(inCategory(category).length).toBeGreaterThanOrEqual(1);
  });

  it('flags at least ten entries as not compliant, all in allowed categories', () => {
    const notCompliant = catalogueEntries.filter((entry) => !entry.compliant);
    expect(notCompliant.length).toBeGreaterThanOrEqual(10);
    for (const entry of notCompliant) expect(allowedCategories).toContain(entry.category);
  });

  it('sets a music type exactly on CDs and vinyls, from the Titelive music types', () => {
    for (const entry of catalogueEntries) {
      if (musicCategories.includes(entry.category)) {
        expect(entry.musicType, entry.ean).not.toBeNull();
        expect(titeliveMusicTypes, entry.ean).toContain(entry.musicType);
      } else {
        expect(entry.musicType, entry.ean).toBeNull();
      }
    }
  });

  it('gives every entry a non-empty title of at most 140 characters', () => {
    for (const entry of catalogueEntries) {
      expect(entry.title.trim().length, entry.ean).toBeGreaterThan(0);
      expect(entry.title.length, entry.ean).toBeLessThanOrEqual(140);
    }
  });

  it('contains no NUL character', () => {
    const withNul = catalogueEntries.filter((entry) =>
      Object.values(entry).some((value) => typeof value === 'string' && value.includes('\u0000')),
    );
    expect(withNul.map((entry) => entry.ean)).toEqual([]);
  });
});

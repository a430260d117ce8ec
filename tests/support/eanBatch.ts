import { catalogueEntries } from '../../graphql/offers/eanCatalogue/catalogueData.js';
import { SALEABLE_BY_EAN } from '../../graphql/offers/eanCatalogue/eanRule.js';

/**
 * 500 EANs for a bulk upsert: every catalogue EAN that can be sold by EAN, then catalogue EANs
 * with their last digit changed (never a valid check digit, so skipped and recorded) up to 500.
 */
export function fiveHundredEans(): { saleable: string[]; wrongCheckDigit: string[]; items: string[] } {
  const saleable = catalogueEntries
    .filter((entry) => SALEABLE_BY_EAN.has(entry.category) && entry.compliant)
    .map((entry) => entry.ean);
  const wrongCheckDigit = catalogueEntries
    .filter((entry) => !saleable.includes(entry.ean))
    .concat(catalogueEntries)
    .map((entry) => `${entry.ean.slice(0, 12)}${(Number(entry.ean[12]) + 1) % 10}`)
    .slice(0, 500 - saleable.length);
  return { saleable, wrongCheckDigit, items: [...saleable, ...wrongCheckDigit] };
}

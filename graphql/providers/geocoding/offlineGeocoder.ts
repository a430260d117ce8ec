import type { AddressQuery, GeocodeOutcome, Geocoder, Municipality } from '../../shared/geocoder.js';
import { findMunicipality } from './municipalities.js';

/**
 * The default geocoder, used in tests and whenever no GEOCODER_URL is configured.
 *
 * It checks the municipality against the offline postal-code list, but no package provides
 * street coordinates, so it never places a street: a known municipality always answers
 * `addressNotFound` and the caller asks the provider for coordinates (or stores the ones sent).
 */
export class OfflineGeocoder implements Geocoder {
  async geocode(query: AddressQuery): Promise<GeocodeOutcome> {
    const municipality = this.findMunicipality(query.city, query.postalCode);
    if (!municipality) return { kind: 'unknownMunicipality' };
    return { kind: 'addressNotFound', municipality };
  }

  findMunicipality(city: string, postalCode: string): Municipality | null {
    return findMunicipality(city, postalCode);
  }
}

import { BanGeocoder } from './banGeocoder.js';
import type { Geocoder, GeocoderLogger } from '../../shared/geocoder.js';
import { OfflineGeocoder } from './offlineGeocoder.js';

export type { AddressQuery, GeocodeOutcome, Geocoder, GeocoderLogger, Municipality } from '../../shared/geocoder.js';
export { BanGeocoder, BAN_MIN_SCORE, BAN_TIMEOUT_MS, type BanGeocoderOptions } from './banGeocoder.js';
export { OfflineGeocoder } from './offlineGeocoder.js';
export { findMunicipality, normalizeCityName, departmentCodeOf, isKnownPostalCode } from './municipalities.js';

export interface GeocoderOptions {
  /** Root of an api-adresse style service (config GEOCODER_URL); unset: offline. */
  geocoderUrl?: string;
  logger?: GeocoderLogger;
}

/** The address service when a URL is configured, else the offline municipality check. */
export function createGeocoder({ geocoderUrl, logger }: GeocoderOptions = {}): Geocoder {
  return geocoderUrl ? new BanGeocoder({ baseUrl: geocoderUrl, logger }) : new OfflineGeocoder();
}

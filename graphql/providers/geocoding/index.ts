import { BanGeocoder } from './banGeocoder.js';
import type { Geocoder, GeocoderLogger } from '../../shared/geocoder.js';
import { OfflineGeocoder } from './offlineGeocoder.js';
import type { OutboundHttp } from '../../../platform/outbound/index.js';

export type { AddressQuery, GeocodeOutcome, Geocoder, GeocoderLogger, Municipality } from '../../shared/geocoder.js';
export { BanGeocoder, BAN_MIN_SCORE, BAN_TIMEOUT_MS, type BanGeocoderOptions } from './banGeocoder.js';
export { OfflineGeocoder } from './offlineGeocoder.js';
export { findMunicipality, normalizeCityName, departmentCodeOf, isKnownPostalCode } from './municipalities.js';

export interface GeocoderOptions {
  /** Root of an api-adresse style service (config GEOCODER_URL); unset: offline. */
  geocoderUrl?: string;
  logger?: GeocoderLogger;
  /** The client of calls to the operator's services (the process's, in the runtime). */
  http?: OutboundHttp;
}

/** The address service when a URL is configured, else the offline municipality check. */
export function createGeocoder({ geocoderUrl, logger, http }: GeocoderOptions = {}): Geocoder {
  return geocoderUrl ? new BanGeocoder({ baseUrl: geocoderUrl, logger, http }) : new OfflineGeocoder();
}

import type { AddressQuery, GeocodeOutcome, Geocoder, GeocoderLogger, Municipality } from '../../shared/geocoder.js';
import { Agent } from 'undici';
import { describeOutcome, OutboundHttp } from '../../../platform/outbound/index.js';
import { findMunicipality } from './municipalities.js';

/** Below this relevance (0 to 1) the address base's best answer is a guess, not the address. */
export const BAN_MIN_SCORE = 0.6;
/** An address creation must not hang on the address service. */
export const BAN_TIMEOUT_MS = 5_000;
/** The search API rejects longer `q` parameters. */
export const BAN_MAX_QUERY_LENGTH = 200;

export interface BanGeocoderOptions {
  /** Root of an api-adresse style service, e.g. `https://api-adresse.data.gouv.fr`. */
  baseUrl: string;
  /**
   * The client of the operator's services: the URL is configuration (GEOCODER_URL), so the
   * address guard of providers' URLs does not apply, but no redirect is followed and answers
   * are capped.
   */
  http?: OutboundHttp;
  timeoutMs?: number;
  logger?: GeocoderLogger;
}

/** The part of a GeoCodeJSON feature (`GET /search/`) that is read here. */
interface BanFeature {
  geometry?: { coordinates?: unknown };
  properties?: { id?: unknown; name?: unknown; score?: unknown; postcode?: unknown };
}

/**
 * Geocoder backed by the national address base's search API (api-adresse style):
 * `GET {baseUrl}/search/?q=<street city>&postcode=<postalCode>&limit=1&type=housenumber`,
 * answered by a GeoJSON FeatureCollection whose features carry `geometry.coordinates`
 * as `[longitude, latitude]` and `properties.{id, name, score, postcode, citycode, ...}`.
 *
 * The municipality is checked offline first, so an unknown one never reaches the network.
 * A network error, a timeout, a non-2xx answer or an unreadable body is logged as a warning
 * and answers `addressNotFound`: the provider can still send coordinates, and a failing
 * address service never becomes a 500.
 */
export class BanGeocoder implements Geocoder {
  private readonly searchUrl: string;
  private readonly http: OutboundHttp;
  private readonly timeoutMs: number;
  private readonly logger: GeocoderLogger | undefined;

  constructor(options: BanGeocoderOptions) {
    this.searchUrl = `${options.baseUrl.replace(/\/+$/, '')}/search/`;
    this.http = options.http ?? new OutboundHttp(new Agent());
    this.timeoutMs = options.timeoutMs ?? BAN_TIMEOUT_MS;
    this.logger = options.logger;
  }

  findMunicipality(city: string, postalCode: string): Municipality | null {
    return findMunicipality(city, postalCode);
  }

  async geocode(query: AddressQuery): Promise<GeocodeOutcome> {
    const municipality = this.findMunicipality(query.city, query.postalCode);
    if (!municipality) return { kind: 'unknownMunicipality' };
    const notFound: GeocodeOutcome = { kind: 'addressNotFound', municipality };

    const feature = await this.search(query);
    if (!feature) return notFound;
    const { geometry, properties = {} } = feature;
    const coordinates = geometry?.coordinates;
    const [longitude, latitude] = Array.isArray(coordinates) ? (coordinates as unknown[]) : [];
    if (
      typeof properties.score !== 'number' ||
      properties.score < BAN_MIN_SCORE ||
      properties.postcode !== query.postalCode ||
      typeof properties.name !== 'string' ||
      !isCoordinate(latitude, 90) ||
      !isCoordinate(longitude, 180)
    ) {
      return notFound;
    }
    return {
      kind: 'found',
      municipality,
      banId: typeof properties.id === 'string' ? properties.id : null,
      street: properties.name,
      latitude,
      longitude,
    };
  }

  /** The best feature, or null when there is none or the service could not answer. */
  private async search(query: AddressQuery): Promise<BanFeature | null> {
    const url = new URL(this.searchUrl);
    url.search = new URLSearchParams({
      q: searchText(query),
      postcode: query.postalCode,
      limit: '1',
      type: 'housenumber',
    }).toString();
    const outcome = await this.http.send(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: this.timeoutMs,
    });
    if (outcome.kind === 'timeout') {
      this.logger?.warn({ postalCode: query.postalCode, timeoutMs: this.timeoutMs }, 'address service timed out');
      return null;
    }
    if (outcome.kind !== 'answered') {
      this.logger?.warn(
        { postalCode: query.postalCode, error: describeOutcome(outcome) },
        'address service unreachable',
      );
      return null;
    }
    if (outcome.status < 200 || outcome.status >= 300) {
      this.logger?.warn({ status: outcome.status, postalCode: query.postalCode }, 'address service answered an error');
      return null;
    }
    try {
      const body = JSON.parse(outcome.text) as { features?: unknown } | null;
      const features = Array.isArray(body?.features) ? (body.features as BanFeature[]) : [];
      return features[0] ?? null;
    } catch (error) {
      this.logger?.warn({ postalCode: query.postalCode, error: String(error) }, 'address service answer unreadable');
      return null;
    }
  }
}

/** `street city`, without the city when too long (the postcode filter already narrows). */
function searchText({ street, city }: AddressQuery): string {
  const full = `${street.trim()} ${city.trim()}`;
  return (full.length <= BAN_MAX_QUERY_LENGTH ? full : street.trim()).slice(0, BAN_MAX_QUERY_LENGTH);
}

function isCoordinate(value: unknown, limit: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
}

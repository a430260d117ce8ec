/**
 * Geocoding of provider addresses (POST /public/offers/v1/addresses). The port is here because
 * every request's context carries a geocoder; its implementations are in providers/geocoding.
 *
 * Every implementation checks the municipality first against offline data (the postal
 * service's list of postal codes), then tries to place the street. The caller turns the
 * outcome into the contract's answers:
 * - `found`: store the address with these coordinates and BAN id;
 * - `unknownMunicipality`: 400 (unknown postal code, or a city that it does not serve);
 * - `addressNotFound`: 400 asking for coordinates, unless the provider sent some, in which
 *   case they are stored as given with this municipality.
 */

/** A municipality served by a postal code. */
export interface Municipality {
  /** INSEE code: `75101`, `2A004`, `97411`. Paris, Lyon and Marseille have one per arrondissement. */
  inseeCode: string;
  /** Official name: `Paris 1er Arrondissement`, `Saint-Étienne`. */
  name: string;
  /** The name a postal address shows: `name` without its arrondissement (`Paris`). */
  city: string;
  /** The postal code that was checked: `75001`. */
  postalCode: string;
  /** `75`, `2A`/`2B` for Corsica, three digits overseas (`974`). */
  departmentCode: string;
}

/** An address as a provider sends it. */
export interface AddressQuery {
  street: string;
  city: string;
  postalCode: string;
}

export type GeocodeOutcome =
  | {
      kind: 'found';
      municipality: Municipality;
      /** Identifier in the national address base, when the geocoder gives one. */
      banId: string | null;
      /** Street as the address base spells it, with its house number: `8 Boulevard du Port`. */
      street: string;
      latitude: number;
      longitude: number;
    }
  /** The postal code is unknown, or the city is not one of its municipalities. */
  | { kind: 'unknownMunicipality' }
  /** The municipality is known but the street could not be placed: coordinates are needed. */
  | { kind: 'addressNotFound'; municipality: Municipality };

export interface Geocoder {
  /** Never rejects for an unreachable or failing address service: that is `addressNotFound`. */
  geocode(query: AddressQuery): Promise<GeocodeOutcome>;
  /** Offline and synchronous: the municipality of `postalCode` that `city` names, or null. */
  findMunicipality(city: string, postalCode: string): Municipality | null;
}

/** The subset of a pino logger the geocoders use. */
export interface GeocoderLogger {
  warn(details: object, message: string): void;
}

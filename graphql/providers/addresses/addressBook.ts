import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/knex';
import { BadRequestError } from '../../shared/errors.js';
import { Address } from '../Address.js';
import { ADDRESS_COORDINATE_DECIMALS } from '../limits.js';
import type { Geocoder, Municipality } from '../geocoding/index.js';
import { addressLookupKey } from './lookupKey.js';

export interface AddressInput {
  street: string;
  city: string;
  postalCode: string;
  latitude?: number | null;
  longitude?: number | null;
}

interface Place {
  banId: string | null;
  latitude: number;
  longitude: number;
  isManualEdition: boolean;
}

/** A coordinate as recorded: rounded to ADDRESS_COORDINATE_DECIMALS decimals, as pass Culture stores it. */
export function recordedCoordinate(value: number): number {
  const scale = 10 ** ADDRESS_COORDINATE_DECIMALS;
  return Math.round(value * scale) / scale;
}

function unknownMunicipality(city: string, postalCode: string): BadRequestError {
  return BadRequestError.on('postalCode', `No municipality named "${city}" has the postal code ${postalCode}`);
}

function municipalityOf(geocoder: Geocoder, city: string, postalCode: string): Municipality {
  const municipality = geocoder.findMunicipality(city, postalCode);
  if (!municipality) throw unknownMunicipality(city, postalCode);
  return municipality;
}

/**
 * Inserts unless a record with the same lookup key exists, then reads the record: two
 * requests recording the same address at once both get the one row, never a conflict error.
 */
async function recordOnce(
  em: EntityManager,
  street: string,
  municipality: Municipality,
  lookupKey: string,
  place: Place,
): Promise<Address> {
  await (em as SqlEntityManager)
    .createQueryBuilder(Address)
    .insert({
      street,
      city: municipality.city,
      postalCode: municipality.postalCode,
      inseeCode: municipality.inseeCode || null,
      departmentCode: municipality.departmentCode,
      lookupKey,
      ...place,
      latitude: recordedCoordinate(place.latitude),
      longitude: recordedCoordinate(place.longitude),
    })
    .onConflict('lookup_key')
    .ignore()
    .execute();
  return em.findOneOrFail(Address, { lookupKey });
}

/**
 * Finds or records an address. The municipality is checked first (400 when unknown); the
 * same address given twice is the same record. The address service is asked first, as the
 * real platform does: what it finds is recorded with its BAN id and its coordinates, even
 * when others were given. Coordinates given are recorded as they are only when the service
 * cannot place the address; without them that is a 400 asking for them.
 */
export async function findOrCreateAddress(
  em: EntityManager,
  geocoder: Geocoder,
  input: AddressInput,
): Promise<Address> {
  const street = input.street.trim();
  const municipality = municipalityOf(geocoder, input.city, input.postalCode);
  const lookupKey = addressLookupKey(street, municipality);
  const known = await em.findOne(Address, { lookupKey });
  if (known) return known;

  const outcome = await geocoder.geocode({ street, city: input.city, postalCode: input.postalCode });
  if (outcome.kind === 'unknownMunicipality') throw unknownMunicipality(input.city, input.postalCode);
  if (outcome.kind === 'addressNotFound') {
    if (input.latitude == null || input.longitude == null) {
      throw BadRequestError.on('global', 'Address not found: send its latitude and longitude to record it as given');
    }
    return recordOnce(em, street, municipality, lookupKey, {
      banId: null,
      latitude: input.latitude,
      longitude: input.longitude,
      isManualEdition: true,
    });
  }
  const sameBanAddress = outcome.banId ? await em.findOne(Address, { banId: outcome.banId }) : null;
  if (sameBanAddress) return sameBanAddress;
  return recordOnce(em, outcome.street, outcome.municipality, lookupKey, {
    banId: outcome.banId,
    latitude: outcome.latitude,
    longitude: outcome.longitude,
    isManualEdition: false,
  });
}

/** Recorded addresses matching a street, city and postal code (and the coordinates, when given, as recorded). */
export async function searchAddresses(em: EntityManager, geocoder: Geocoder, input: AddressInput): Promise<Address[]> {
  const municipality = municipalityOf(geocoder, input.city, input.postalCode);
  return em.find(
    Address,
    {
      lookupKey: addressLookupKey(input.street.trim(), municipality),
      ...(input.latitude != null ? { latitude: recordedCoordinate(input.latitude) } : {}),
      ...(input.longitude != null ? { longitude: recordedCoordinate(input.longitude) } : {}),
    },
    { orderBy: { id: 'asc' } },
  );
}

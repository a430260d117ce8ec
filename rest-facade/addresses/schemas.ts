import { decimal } from '../schemas/inputs.js';
import { z } from '../zod.js';

/** The contract's pattern: departments 01 to 98. */
export const postalCode = z
  .string()
  .regex(/^(?:0[1-9]|[1-8]\d|9[0-8])\d{3}$/, 'A French postal code: 5 digits, department 01 to 98')
  .openapi({ example: '75004' });

const street = z.string().trim().min(1).max(200).openapi({ example: '12 Rue de Rivoli' });
const city = z.string().trim().min(1).max(200).openapi({ example: 'Paris' });
const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

/** Coordinates come as a pair or not at all. */
function bothCoordinatesOrNone(
  value: { latitude?: number | null; longitude?: number | null },
  context: z.RefinementCtx,
): void {
  const hasLatitude = value.latitude != null;
  const hasLongitude = value.longitude != null;
  if (hasLatitude === hasLongitude) return;
  context.addIssue({
    code: 'custom',
    path: [hasLatitude ? 'longitude' : 'latitude'],
    message: 'Send latitude and longitude together',
    params: { type: 'missing' },
  });
}

export const AddressModel = z
  .object({
    street,
    city,
    postalCode,
    latitude: decimal(latitude).nullable().optional(),
    longitude: decimal(longitude).nullable().optional(),
  })
  .superRefine(bothCoordinatesOrNone)
  .openapi('AddressModel', {
    description:
      'Without coordinates the address must be found by the address service; with them it is recorded as given.',
  });

export const AddressResponse = z
  .object({
    id: z.number().int(),
    banId: z.string().nullable().openapi({ description: 'Identifier in the national address base, when known.' }),
    street: z.string().nullable(),
    city: z.string().nullable(),
    postalCode: z.string().nullable(),
    latitude: z.number(),
    longitude: z.number(),
  })
  .openapi('AddressResponse');

export const SearchAddressResponse = z.object({ addresses: z.array(AddressResponse) }).openapi('SearchAddressResponse');

export const searchQuery = { street, city, postalCode, latitude, longitude };

export const addressFields = 'id banId street city postalCode latitude longitude';

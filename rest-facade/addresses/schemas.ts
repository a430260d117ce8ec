import { addressFieldRules, bothCoordinatesOrNone } from '../../graphql/providers/inputRules.js';
import { decimal } from '../schemas/inputs.js';
import { z } from '../zod.js';

/** The domain's address rules (graphql/providers/inputRules.ts), described for the contract. */

/** The contract's pattern: departments 01 to 98. */
export const postalCode = addressFieldRules.postalCode.openapi({ example: '75004' });

const street = addressFieldRules.street.openapi({ example: '12 Rue de Rivoli' });
const city = addressFieldRules.city.openapi({ example: 'Paris' });
const { latitude, longitude } = addressFieldRules;

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
      'The address service is asked first; the coordinates sent are recorded as given only when it cannot place the address.',
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

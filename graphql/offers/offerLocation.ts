import { Address } from '../providers/Address.js';
import { venueInScope } from '../providers/access.js';
import type { Venue } from '../providers/Venue.js';
import type { GraphContext } from '../shared/context.js';
import { BadRequestError, NotFoundError, ValidationFailedError } from '../shared/errors.js';
import type { Offer, OfferLocationType } from './Offer.js';

/** Where an offer takes place, as a request names it. */
export interface OfferLocationRequest {
  type: 'physical' | 'digital' | 'address';
  venueId: number;
  url?: string | null;
  addressId?: number | null;
  addressLabel?: string | null;
}

export interface ResolvedLocation {
  venue: Venue;
  locationType: OfferLocationType;
  url: string | null;
  address: Address | null;
  addressLabel: string | null;
}

/** The location's venue (one the key reaches, else 404) and address, checked. */
export async function resolveLocation(
  context: GraphContext,
  location: OfferLocationRequest,
): Promise<ResolvedLocation> {
  const venue = await venueInScope(context.em, context.caller, location.venueId);
  if (venue.isVirtual && location.type !== 'digital') {
    throw BadRequestError.on('location', `The venue ${venue.id} is digital: it only takes digital locations`);
  }
  if (location.type === 'digital') {
    if (!location.url)
      throw new ValidationFailedError([{ loc: ['location', 'url'], msg: 'Field required', type: 'missing' }]);
    return { venue, locationType: 'digital', url: location.url, address: null, addressLabel: null };
  }
  if (location.type === 'address') {
    if (location.addressId == null) {
      throw new ValidationFailedError([{ loc: ['location', 'addressId'], msg: 'Field required', type: 'missing' }]);
    }
    const address = await addressOrFail(context, location.addressId);
    return { venue, locationType: 'address', url: null, address, addressLabel: location.addressLabel ?? null };
  }
  return { venue, locationType: 'physical', url: null, address: null, addressLabel: null };
}

/** An address by id (addresses are shared by every provider), or 404. */
export async function addressOrFail(context: GraphContext, id: number): Promise<Address> {
  const address = await context.em.findOne(Address, id);
  if (!address) throw new NotFoundError('Address not found');
  return address;
}

/** The offer's columns for a resolved location. */
export function locationColumns(
  location: ResolvedLocation,
): Pick<Offer, 'venue' | 'locationType' | 'url' | 'address' | 'addressLabel'> {
  return {
    venue: location.venue,
    locationType: location.locationType,
    url: location.url,
    address: location.address,
    addressLabel: location.addressLabel,
  };
}

import { Field, Int, ObjectType } from 'type-graphql';
import type { CollectiveOffer } from './CollectiveOffer.js';

/** How the answers show where a collective offer takes place. */

@ObjectType({ description: 'SCHOOL, ADDRESS (at the venue, or at addressId) or TO_BE_DEFINED.' })
export class CollectiveOfferLocation {
  @Field(() => String)
  type!: string;

  @Field(() => Boolean, { nullable: true })
  isVenueAddress!: boolean | null;

  @Field(() => Int, { nullable: true })
  addressId!: number | null;

  @Field(() => String, { nullable: true })
  addressLabel!: string | null;

  @Field(() => String, { nullable: true })
  comment!: string | null;
}

@ObjectType({ description: 'Deprecated form of the location: offererVenue, school or other.' })
export class CollectiveOfferVenue {
  @Field(() => String)
  addressType!: string;

  @Field(() => String, { nullable: true })
  otherAddress!: string | null;

  @Field(() => Int, { nullable: true })
  venueId!: number | null;
}

export function locationOf(offer: CollectiveOffer): CollectiveOfferLocation {
  const none = { isVenueAddress: null, addressId: null, addressLabel: null, comment: null };
  switch (offer.locationType) {
    case 'SCHOOL':
      return { ...none, type: 'SCHOOL' };
    case 'TO_BE_DEFINED':
      return { ...none, type: 'TO_BE_DEFINED', comment: offer.locationComment };
    case 'ADDRESS':
      return offer.atVenueAddress
        ? { ...none, type: 'ADDRESS', isVenueAddress: true }
        : {
            ...none,
            type: 'ADDRESS',
            isVenueAddress: false,
            addressId: offer.address?.id ?? null,
            addressLabel: offer.addressLabel,
          };
  }
}

/** The deprecated offerVenue, derived from the location (an address written out as text). */
export function offerVenueOf(offer: CollectiveOffer): CollectiveOfferVenue {
  switch (offer.locationType) {
    case 'SCHOOL':
      return { addressType: 'school', otherAddress: null, venueId: null };
    case 'TO_BE_DEFINED':
      return { addressType: 'other', otherAddress: offer.locationComment, venueId: null };
    case 'ADDRESS': {
      if (offer.atVenueAddress) return { addressType: 'offererVenue', otherAddress: null, venueId: offer.venue.id };
      const address = offer.address;
      const text = address
        ? [offer.addressLabel, address.street, `${address.postalCode} ${address.city}`].filter(Boolean).join(', ')
        : offer.addressLabel;
      return { addressType: 'other', otherAddress: text ?? null, venueId: null };
    }
  }
}

import {
  categoryEnumValues,
  deprecatedMusicTypes,
  eventCategories,
  locationTypes,
  offerStatuses,
  showTypes,
  titeliveEventMusicTypes,
  titeliveMusicTypes,
} from '../../graphql/offers/catalogue/index.js';
import { venueTypes } from '../../graphql/providers/venueTypes.js';
import { COLLECTIVE_BOOKING_STATUSES } from '../../graphql/collective/CollectiveBooking.js';
import { COLLECTIVE_DISPLAYED_STATUSES, COLLECTIVE_LEGACY_STATUSES } from '../../graphql/collective/displayedStatus.js';
import { EAC_FORMATS } from '../../graphql/collective/formats.js';
import { z } from '../zod.js';

/** Enums of the contract, each a named component of the document. */
export const CategoryEnum = z.enum(categoryEnumValues).openapi('CategoryEnum', { description: 'Product categories.' });

const eventCategoryIds = eventCategories().map((category) => category.id) as [string, ...string[]];
export const EventCategoryEnum = z.enum(eventCategoryIds).openapi('EventCategoryEnum', {
  description: 'Event categories.',
});

export const LocationTypeEnum = z.enum(locationTypes).openapi('LocationTypeEnum');
export const ShowTypeEnum = z.enum(showTypes).openapi('ShowTypeEnum');
export const TiteliveMusicTypeEnum = z.enum(titeliveMusicTypes).openapi('TiteliveMusicTypeEnum');
export const TiteliveEventMusicTypeEnum = z.enum(titeliveEventMusicTypes).openapi('TiteliveEventMusicTypeEnum');
export const DeprecatedMusicTypeEnum = z.enum(deprecatedMusicTypes).openapi('MusicTypeEnum__deprecated_', {
  deprecated: true,
});
export const VenueTypeEnum = z.enum(venueTypes).openapi('VenueTypeEnum');
export const OfferStatusEnum = z.enum(offerStatuses).openapi('OfferStatus');

export const EacFormatEnum = z
  .enum(EAC_FORMATS)
  .openapi('EacFormat', { description: 'The format of a collective offer.' });
export const CollectiveOfferDisplayedStatusEnum = z
  .enum(COLLECTIVE_DISPLAYED_STATUSES)
  .openapi('CollectiveOfferDisplayedStatus');
export const CollectiveOfferStatusEnum = z.enum(COLLECTIVE_LEGACY_STATUSES).openapi('CollectiveOfferStatus', {
  deprecated: true,
  description: 'Deprecated: use the displayed status.',
});
export const CollectiveBookingStatusEnum = z.enum(COLLECTIVE_BOOKING_STATUSES).openapi('CollectiveBookingStatus');

import type { RequiredEntityData } from '@mikro-orm/core';
import type { GraphContext } from '../shared/context.js';
import { BadRequestError, ValidationFailedError } from '../shared/errors.js';
import type { Category } from './catalogue/index.js';
import type { Offer } from './Offer.js';
import { type StoredImage, setOfferImage, storeBase64Image } from './offerImage.js';
import { locationColumns, type OfferLocationRequest, type ResolvedLocation, resolveLocation } from './offerLocation.js';
import {
  checkCategoryRelatedFields,
  checkEditable,
  checkIdAtProviderFree,
  checkNameHasNoEan,
  checkLocationFitsCategory,
  resolveDoubleBookings,
} from './offerRules.js';
import { requestPublication } from './publicationRequest.js';

const accessibilityFlags = [
  'audioDisabilityCompliant',
  'mentalDisabilityCompliant',
  'motorDisabilityCompliant',
  'visualDisabilityCompliant',
] as const;

type AccessibilityFlags = Partial<Record<(typeof accessibilityFlags)[number], boolean | null>>;

/** The fields events and products share, as creation and edition inputs carry them. */
export interface OfferFieldsInput {
  name?: string | null;
  accessibility?: AccessibilityFlags | null;
  categoryRelatedFields?: Record<string, unknown> | null;
  location?: OfferLocationRequest | null;
  description?: string | null;
  bookingContact?: string | null;
  bookingEmail?: string | null;
  enableDoubleBookings?: boolean | null;
  externalTicketOfficeUrl?: string | null;
  idAtProvider?: string | null;
  image?: { file: string; credit?: string | null } | null;
  itemCollectionDetails?: string | null;
  publicationDatetime?: string | null;
  bookingAllowedDatetime?: string | null;
  isActive?: boolean | null;
}

/** The EAN column mirrors `categoryRelatedFields.ean`, so that offers are found by EAN with an index. */
function eanOf(categoryRelatedFields: Record<string, string>): string | null {
  return categoryRelatedFields.ean ?? null;
}

/**
 * The columns of a new offer from the shared fields, once checked: what events and products
 * have in common. The caller adds what is its own (event duration, tickets, ...).
 */
export function newOfferColumns(
  input: OfferFieldsInput & { name: string; accessibility: AccessibilityFlags },
  context: {
    providerId: number;
    category: Category;
    categoryRelatedFields: Record<string, string>;
    location: ResolvedLocation;
    image: StoredImage | null;
    now: Date;
  },
): RequiredEntityData<Offer> {
  const { providerId, category, categoryRelatedFields, location, image, now } = context;
  return {
    name: input.name,
    provider: providerId,
    category: category.id,
    isEvent: category.kind === 'event',
    description: input.description ?? null,
    audioDisabilityCompliant: Boolean(input.accessibility.audioDisabilityCompliant),
    mentalDisabilityCompliant: Boolean(input.accessibility.mentalDisabilityCompliant),
    motorDisabilityCompliant: Boolean(input.accessibility.motorDisabilityCompliant),
    visualDisabilityCompliant: Boolean(input.accessibility.visualDisabilityCompliant),
    categoryRelatedFields,
    ean: eanOf(categoryRelatedFields),
    bookingContact: input.bookingContact ?? null,
    bookingEmail: input.bookingEmail ?? null,
    externalTicketOfficeUrl: input.externalTicketOfficeUrl ?? null,
    enableDoubleBookings: resolveDoubleBookings(
      category,
      input.enableDoubleBookings,
      category.kind === 'event' ? category.canBeDuo : false,
    ),
    hasTicket: false,
    itemCollectionDetails: input.itemCollectionDetails ?? null,
    ...locationColumns(location),
    idAtProvider: input.idAtProvider ?? null,
    isActive: true,
    validation: 'PENDING',
    imageKey: image?.key ?? null,
    imageCredit: image?.credit ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

export interface OfferEditionRules {
  /** Fields that null clears; the shared ones that refuse null are refused with a 422. */
  clearable: readonly string[];
  /** Further checks once the venue the offer will have is known (tickets, for events). */
  check?: (target: { venueId: number; category: Category }) => Promise<void> | void;
}

/** `isActive: null` is not among them: it changes nothing, as if absent. */
const notNullable = ['name', 'accessibility', 'categoryRelatedFields', 'location', 'enableDoubleBookings'] as const;

/**
 * Applies an edition of the shared fields: only the fields sent change. Everything is checked
 * before anything is set, so a refused edition leaves the offer untouched. Does not flush.
 */
export async function editOfferFields(
  context: GraphContext,
  offer: Offer,
  category: Category,
  input: OfferFieldsInput & Record<string, unknown>,
  rules: OfferEditionRules,
): Promise<void> {
  const nullIssues = notNullable
    .filter((field) => input[field] === null)
    .map((field) => ({ loc: [field], msg: 'This field cannot be null', type: 'not_nullable' }));
  if (nullIssues.length > 0) throw new ValidationFailedError(nullIssues);
  checkEditable(offer);
  checkNameHasNoEan(input.name);
  // The contract lets a flag be null, but an offer's accessibility is always known: a flag sent
  // null is refused (400), as pass Culture refuses it.
  if (accessibilityFlags.some((flag) => input.accessibility?.[flag] === null)) {
    throw BadRequestError.on('global', "The offer's accessibility must be defined");
  }
  const requestedCategory = input.categoryRelatedFields?.category;
  if (requestedCategory !== undefined && requestedCategory !== offer.category) {
    throw BadRequestError.on('categoryRelatedFields.category', 'The category of an offer cannot change');
  }
  const categoryRelatedFields = input.categoryRelatedFields
    ? { ...offer.categoryRelatedFields, ...checkCategoryRelatedFields(category, input.categoryRelatedFields, 'edit') }
    : undefined;
  const location = input.location ? await resolveLocation(context, input.location) : null;
  if (location) checkLocationFitsCategory(category, location.locationType);
  const venueId = location?.venue.id ?? offer.venue.id;
  // Unique per venue: checked when it changes, and when the offer moves to another venue with it.
  if (input.idAtProvider !== undefined || venueId !== offer.venue.id) {
    await checkIdAtProviderFree(
      context,
      venueId,
      input.idAtProvider !== undefined ? input.idAtProvider : offer.idAtProvider,
      offer.id,
    );
  }
  const enableDoubleBookings =
    input.enableDoubleBookings != null
      ? resolveDoubleBookings(category, input.enableDoubleBookings)
      : offer.enableDoubleBookings;
  await rules.check?.({ venueId, category });
  const image = input.image ? await storeBase64Image(context, input.image) : undefined;

  const now = context.clock.now();
  if (input.name != null) offer.name = input.name;
  for (const flag of accessibilityFlags) {
    const value = input.accessibility?.[flag];
    if (value != null) offer[flag] = value;
  }
  if (categoryRelatedFields) {
    offer.categoryRelatedFields = categoryRelatedFields;
    offer.ean = eanOf(categoryRelatedFields);
  }
  for (const field of rules.clearable) {
    const value = input[field];
    if (value !== undefined) (offer as unknown as Record<string, unknown>)[field] = value;
  }
  offer.enableDoubleBookings = enableDoubleBookings;
  if (location) Object.assign(offer, locationColumns(location));
  if (input.isActive != null) offer.isActive = input.isActive;
  if (image !== undefined) setOfferImage(offer, image);
  else if (input.image === null) setOfferImage(offer, null);
  // Without a publicationDatetime, isActive drives the publication: true publishes now, false withdraws it.
  const publicationDatetime =
    input.publicationDatetime === undefined && input.isActive != null
      ? input.isActive
        ? 'now'
        : null
      : input.publicationDatetime;
  requestPublication(offer, now, { publicationDatetime, bookingAllowedDatetime: input.bookingAllowedDatetime });
  offer.updatedAt = now;
}

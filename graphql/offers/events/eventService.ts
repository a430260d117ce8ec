import { Address } from '../../providers/Address.js';
import { venueInScope } from '../../providers/access.js';
import { Provider } from '../../providers/Provider.js';
import type { Venue } from '../../providers/Venue.js';
import { VenueProvider } from '../../providers/VenueProvider.js';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationFailedError } from '../../shared/errors.js';
import { checkBase64Image } from '../../shared/images/index.js';
import { enqueue } from '../../shared/outbox.js';
import type { Category } from '../catalogue/index.js';
import { categoryById } from '../catalogue/index.js';
import { requireIndividualOfferRights } from '../access.js';
import { Offer, type OfferLocationType } from '../Offer.js';
import { PriceCategory } from '../PriceCategory.js';
import type { EventCreateInput, EventEditInput, OfferImageInput, OfferLocationInput } from './inputs.js';
import { requestPublication } from './publicationRequest.js';
import {
  checkCategoryRelatedFields,
  checkLocationFitsCategory,
  checkTicketing,
  creatableEventCategory,
  resolveDoubleBookings,
} from './rules.js';
import { videoUrlProblem } from './videoUrl.js';

export const AUTO_APPROVAL_JOB = 'offers.autoApprove';

interface ResolvedLocation {
  venue: Venue;
  locationType: OfferLocationType;
  url: string | null;
  address: Address | null;
  addressLabel: string | null;
}

function callerProviderId(context: GraphContext): number {
  if (context.caller.kind !== 'provider') throw new ForbiddenError('Only a provider key can create or change offers');
  return context.caller.providerId;
}

async function resolveLocation(context: GraphContext, location: OfferLocationInput): Promise<ResolvedLocation> {
  const venue = await venueInScope(context.em, context.caller, location.venueId);
  if (location.type === 'digital') {
    if (!location.url) throw new ValidationFailedError([{ loc: ['location', 'url'], msg: 'Field required', type: 'missing' }]);
    return { venue, locationType: 'digital', url: location.url, address: null, addressLabel: null };
  }
  if (location.type === 'address') {
    if (location.addressId == null) {
      throw new ValidationFailedError([{ loc: ['location', 'addressId'], msg: 'Field required', type: 'missing' }]);
    }
    const address = await context.em.findOne(Address, location.addressId);
    if (!address) throw new NotFoundError('Address not found');
    return { venue, locationType: 'address', url: null, address, addressLabel: location.addressLabel ?? null };
  }
  return { venue, locationType: 'physical', url: null, address: null, addressLabel: null };
}

/** The venue's own ticketing URLs take priority over the provider's. */
async function ticketingUrls(context: GraphContext, providerId: number, venueId: number) {
  const [link, provider] = await Promise.all([
    context.em.findOne(VenueProvider, { venue: venueId, provider: providerId }),
    context.em.findOneOrFail(Provider, providerId),
  ]);
  return {
    bookingUrl: link?.bookingUrl ?? provider.bookingUrl,
    cancelUrl: link?.cancelUrl ?? provider.cancelUrl,
  };
}

async function storeImage(context: GraphContext, image: OfferImageInput): Promise<{ key: string; credit: string | null }> {
  const check = checkBase64Image(image.file);
  if (!check.ok) throw new ValidationFailedError([{ loc: ['image', 'file'], msg: check.reason, type: check.type }]);
  const { key } = await context.services.images.save(check.bytes, check.info.format);
  return { key, credit: image.credit ?? null };
}

function checkVideoUrl(videoUrl: string | null | undefined): void {
  const problem = videoUrl ? videoUrlProblem(videoUrl) : null;
  if (problem) throw new ValidationFailedError([{ loc: ['videoUrl'], msg: problem, type: 'video_url' }]);
}

function checkEventDuration(minutes: number | null | undefined): void {
  if (minutes != null && (minutes <= 0 || minutes >= 24 * 60)) {
    throw new ValidationFailedError([
      { loc: ['eventDuration'], msg: 'The duration is in minutes, more than 0 and under 24 hours', type: 'less_than', ctx: { limit_value: 1440 } },
    ]);
  }
}

async function checkIdAtProviderFree(context: GraphContext, venueId: number, idAtProvider: string | null | undefined, exceptOfferId?: number) {
  if (!idAtProvider) return;
  const taken = await context.em.findOne(Offer, { venue: venueId, idAtProvider, ...(exceptOfferId ? { id: { $ne: exceptOfferId } } : {}) });
  if (taken) throw BadRequestError.on('idAtProvider', `Another offer of this venue already has the idAtProvider ${idAtProvider}`);
}

function checkPriceCategories(priceCategories: EventCreateInput['priceCategories']): void {
  const seen = new Set<string>();
  for (const priceCategory of priceCategories ?? []) {
    if (!priceCategory.idAtProvider) continue;
    if (seen.has(priceCategory.idAtProvider)) {
      throw BadRequestError.on('priceCategories', `The idAtProvider ${priceCategory.idAtProvider} is given twice`);
    }
    seen.add(priceCategory.idAtProvider);
  }
}

/** Outside production, sandbox offers are approved without a reviewer, after a configurable delay. */
function scheduleAutoApproval(context: GraphContext, offer: Offer): void {
  const delayMs = context.services.offerReview.autoApprovalDelayMs;
  if (delayMs === null) return;
  enqueue(context.em, context.clock, AUTO_APPROVAL_JOB, { offerId: offer.id }, {
    runAt: new Date(context.clock.now().getTime() + delayMs),
  });
}

export async function createEvent(context: GraphContext, input: EventCreateInput): Promise<Offer> {
  requireIndividualOfferRights(context);
  const providerId = callerProviderId(context);
  const category = creatableEventCategory(input.categoryRelatedFields.category);
  const categoryRelatedFields = checkCategoryRelatedFields(category, input.categoryRelatedFields, 'create');
  checkVideoUrl(input.videoUrl);
  checkEventDuration(input.eventDuration);
  checkPriceCategories(input.priceCategories);
  const location = await resolveLocation(context, input.location);
  checkLocationFitsCategory(category, location.locationType);
  const enableDoubleBookings = resolveDoubleBookings(category, input.enableDoubleBookings);
  checkTicketing(category, input.hasTicket, input.bookingContact ?? null, await ticketingUrls(context, providerId, location.venue.id));
  await checkIdAtProviderFree(context, location.venue.id, input.idAtProvider);

  const now = context.clock.now();
  const image = input.image ? await storeImage(context, input.image) : null;
  return context.em.transactional(async (em) => {
    const offer = em.create(Offer, {
      name: input.name,
      venue: location.venue.id,
      provider: providerId,
      category: category.id,
      isEvent: true,
      description: input.description ?? null,
      audioDisabilityCompliant: Boolean(input.accessibility.audioDisabilityCompliant),
      mentalDisabilityCompliant: Boolean(input.accessibility.mentalDisabilityCompliant),
      motorDisabilityCompliant: Boolean(input.accessibility.motorDisabilityCompliant),
      visualDisabilityCompliant: Boolean(input.accessibility.visualDisabilityCompliant),
      categoryRelatedFields,
      bookingContact: input.bookingContact ?? null,
      bookingEmail: input.bookingEmail ?? null,
      externalTicketOfficeUrl: input.externalTicketOfficeUrl ?? null,
      videoUrl: input.videoUrl ?? null,
      enableDoubleBookings,
      hasTicket: input.hasTicket,
      eventDuration: input.eventDuration ?? null,
      itemCollectionDetails: input.itemCollectionDetails ?? null,
      locationType: location.locationType,
      url: location.url,
      address: location.address,
      addressLabel: location.addressLabel,
      idAtProvider: input.idAtProvider ?? null,
      isActive: true,
      validation: 'PENDING',
      imageKey: image?.key ?? null,
      imageCredit: image?.credit ?? null,
      createdAt: now,
      updatedAt: now,
    });
    requestPublication(offer, now, {
      publicationDatetime: input.publicationDatetime === undefined ? 'now' : input.publicationDatetime,
      bookingAllowedDatetime: input.bookingAllowedDatetime ?? null,
    });
    for (const priceCategory of input.priceCategories ?? []) {
      em.create(PriceCategory, {
        offer,
        label: priceCategory.label,
        price: priceCategory.price,
        idAtProvider: priceCategory.idAtProvider ?? null,
        createdAt: now,
      });
    }
    await em.flush();
    scheduleAutoApproval({ ...context, em }, offer);
    return offer;
  });
}

/** Fields that may be cleared with null; the others refuse null (422). */
const clearableFields = [
  'description',
  'bookingContact',
  'bookingEmail',
  'externalTicketOfficeUrl',
  'videoUrl',
  'eventDuration',
  'itemCollectionDetails',
  'idAtProvider',
] as const;

function refuseNulls(input: EventEditInput): void {
  const notNullable = ['name', 'accessibility', 'categoryRelatedFields', 'location', 'hasTicket', 'isActive', 'enableDoubleBookings'] as const;
  const issues = notNullable
    .filter((field) => input[field] === null)
    .map((field) => ({ loc: [field], msg: 'This field cannot be null', type: 'not_nullable' }));
  if (issues.length > 0) throw new ValidationFailedError(issues);
}

export async function editEvent(context: GraphContext, offer: Offer, input: EventEditInput): Promise<Offer> {
  refuseNulls(input);
  const providerId = callerProviderId(context);
  const category = categoryById(offer.category) as Category;
  if (input.hasTicket != null && input.hasTicket !== offer.hasTicket) {
    throw BadRequestError.on('hasTicket', 'hasTicket cannot change after creation');
  }
  if (input.categoryRelatedFields) {
    const requested = input.categoryRelatedFields.category;
    if (requested !== undefined && requested !== offer.category) {
      throw BadRequestError.on('categoryRelatedFields.category', 'The category of an offer cannot change');
    }
  }
  checkVideoUrl(input.videoUrl);
  checkEventDuration(input.eventDuration);
  const location = input.location ? await resolveLocation(context, input.location) : null;
  if (location) checkLocationFitsCategory(category, location.locationType);
  const venueId = location?.venue.id ?? (offer.venue.id as number);
  if (input.idAtProvider !== undefined) await checkIdAtProviderFree(context, venueId, input.idAtProvider, offer.id);
  const enableDoubleBookings =
    input.enableDoubleBookings != null ? resolveDoubleBookings(category, input.enableDoubleBookings) : offer.enableDoubleBookings;
  const bookingContact = input.bookingContact !== undefined ? input.bookingContact : offer.bookingContact;
  checkTicketing(category, offer.hasTicket, bookingContact, await ticketingUrls(context, providerId, venueId));
  const image = input.image ? await storeImage(context, input.image) : undefined;

  const now = context.clock.now();
  if (input.name != null) offer.name = input.name;
  if (input.accessibility) {
    for (const flag of ['audioDisabilityCompliant', 'mentalDisabilityCompliant', 'motorDisabilityCompliant', 'visualDisabilityCompliant'] as const) {
      const value = input.accessibility[flag];
      if (value != null) offer[flag] = value;
    }
  }
  if (input.categoryRelatedFields) {
    offer.categoryRelatedFields = {
      ...offer.categoryRelatedFields,
      ...checkCategoryRelatedFields(category, input.categoryRelatedFields, 'edit'),
    };
  }
  for (const field of clearableFields) {
    const value = input[field];
    if (value !== undefined) (offer as unknown as Record<string, unknown>)[field] = value;
  }
  offer.enableDoubleBookings = enableDoubleBookings;
  if (location) {
    offer.venue = location.venue;
    offer.locationType = location.locationType;
    offer.url = location.url;
    offer.address = location.address;
    offer.addressLabel = location.addressLabel;
  }
  if (input.isActive != null) offer.isActive = input.isActive;
  if (image !== undefined) {
    offer.imageKey = image.key;
    offer.imageCredit = image.credit;
  } else if (input.image === null) {
    offer.imageKey = null;
    offer.imageCredit = null;
  }
  requestPublication(offer, now, {
    publicationDatetime: input.publicationDatetime,
    bookingAllowedDatetime: input.bookingAllowedDatetime,
  });
  offer.updatedAt = now;
  await context.em.flush();
  return offer;
}

import { Provider } from '../../providers/Provider.js';
import { VenueProvider } from '../../providers/VenueProvider.js';
import type { GraphContext } from '../../shared/context.js';
import { BadRequestError, ValidationFailedError } from '../../shared/errors.js';
import { type Category, categoryById } from '../catalogue/index.js';
import { callerProviderId, requireIndividualOfferRights } from '../access.js';
import type { Offer } from '../Offer.js';
import { editOfferFields, newOfferColumns } from '../offerEdition.js';
import { storeBase64Image } from '../offerImage.js';
import { resolveLocation } from '../offerLocation.js';
import { saveNewOffer } from '../newOffer.js';
import {
  checkCategoryRelatedFields,
  checkIdAtProviderFree,
  checkLocationFitsCategory,
  checkNameHasNoEan,
  creatableCategory,
} from '../offerRules.js';
import { PriceCategory } from '../PriceCategory.js';
import { checkLabelsAndPricesUnique } from '../priceCategories/eventPriceCategories.js';
import { answeringUniquenessRaces } from '../uniqueness.js';
import type { EventCreateInput, EventEditInput } from './inputs.js';
import { checkTicketing } from './rules.js';
import { videoUrlProblem } from './videoUrl.js';

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

function checkVideoUrl(videoUrl: string | null | undefined): void {
  const problem = videoUrl ? videoUrlProblem(videoUrl) : null;
  if (problem) throw new ValidationFailedError([{ loc: ['videoUrl'], msg: problem, type: 'video_url' }]);
}

function checkPriceCategories(priceCategories: EventCreateInput['priceCategories']): void {
  checkLabelsAndPricesUnique(priceCategories ?? []);
  const seen = new Set<string>();
  for (const priceCategory of priceCategories ?? []) {
    if (!priceCategory.idAtProvider) continue;
    if (seen.has(priceCategory.idAtProvider)) {
      throw BadRequestError.on('priceCategories', `The idAtProvider ${priceCategory.idAtProvider} is given twice`);
    }
    seen.add(priceCategory.idAtProvider);
  }
}

export async function createEvent(context: GraphContext, input: EventCreateInput): Promise<Offer> {
  requireIndividualOfferRights(context);
  const providerId = callerProviderId(context);
  const category = creatableCategory(input.categoryRelatedFields.category, 'event');
  checkNameHasNoEan(input.name);
  const categoryRelatedFields = checkCategoryRelatedFields(category, input.categoryRelatedFields, 'create');
  checkVideoUrl(input.videoUrl);
  checkPriceCategories(input.priceCategories);
  const location = await resolveLocation(context, input.location);
  checkLocationFitsCategory(category, location.locationType);
  checkTicketing(
    category,
    input.hasTicket,
    input.bookingContact ?? null,
    await ticketingUrls(context, providerId, location.venue.id),
  );
  await checkIdAtProviderFree(context, location.venue.id, input.idAtProvider);

  const now = context.clock.now();
  const image = input.image ? await storeBase64Image(context, input.image) : null;
  return saveNewOffer(context, {
    now,
    columns: {
      ...newOfferColumns(input, { providerId, category, categoryRelatedFields, location, image, now }),
      videoUrl: input.videoUrl ?? null,
      hasTicket: input.hasTicket,
      eventDuration: input.eventDuration ?? null,
    },
    publication: input,
    addOwn: (em, offer) => {
      for (const priceCategory of input.priceCategories ?? []) {
        em.create(PriceCategory, {
          offer,
          label: priceCategory.label,
          price: priceCategory.price,
          idAtProvider: priceCategory.idAtProvider ?? null,
          createdAt: now,
        });
      }
    },
  });
}

/** Fields of an event that null clears. */
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

/**
 * The edition as the shared rules take it, as pass Culture edits an event: `image: null`,
 * `location: null` and `categoryRelatedFields: null` change nothing (as if absent), and a
 * `publicationDatetime` sent wins over `isActive`.
 */
function asSharedEdition(input: EventEditInput): EventEditInput & Record<string, unknown> {
  const edition: EventEditInput & Record<string, unknown> = { ...input };
  if (edition.image === null) edition.image = undefined;
  if (edition.location === null) edition.location = undefined;
  if (edition.categoryRelatedFields === null) edition.categoryRelatedFields = undefined;
  // A datetime sent publishes the offer then, whatever isActive says; null leaves it unpublished.
  if (edition.publicationDatetime !== undefined) edition.isActive = edition.publicationDatetime !== null || undefined;
  return edition;
}

export async function editEvent(context: GraphContext, offer: Offer, input: EventEditInput): Promise<Offer> {
  if (input.hasTicket === null) {
    throw new ValidationFailedError([{ loc: ['hasTicket'], msg: 'This field cannot be null', type: 'not_nullable' }]);
  }
  const providerId = callerProviderId(context);
  const category = categoryById(offer.category) as Category;
  if (input.hasTicket != null && input.hasTicket !== offer.hasTicket) {
    throw BadRequestError.on('hasTicket', 'hasTicket cannot change after creation');
  }
  checkVideoUrl(input.videoUrl);
  const bookingContact = input.bookingContact !== undefined ? input.bookingContact : offer.bookingContact;
  await editOfferFields(context, offer, category, asSharedEdition(input), {
    clearable: clearableFields,
    check: async ({ venueId }) =>
      checkTicketing(category, offer.hasTicket, bookingContact, await ticketingUrls(context, providerId, venueId)),
  });
  await answeringUniquenessRaces(() => context.em.flush());
  return offer;
}

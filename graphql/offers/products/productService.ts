import type { GraphContext } from '../../shared/context.js';
import { BadRequestError } from '../../shared/errors.js';
import { callerProviderId, requireIndividualOfferRights } from '../access.js';
import { type Category, categoryById } from '../catalogue/index.js';
import { Offer } from '../Offer.js';
import { editOfferFields, newOfferColumns } from '../offerEdition.js';
import { storeBase64Image } from '../offerImage.js';
import { lockOfferForChanges } from '../offerLock.js';
import { resolveLocation } from '../offerLocation.js';
import { saveNewOffer } from '../newOffer.js';
import {
  checkCategoryRelatedFields,
  checkIdAtProviderFree,
  checkLocationFitsCategory,
  checkNameHasNoEan,
  creatableCategory,
} from '../offerRules.js';
import { answeringUniquenessRaces } from '../uniqueness.js';
import type { ProductCreateInput, ProductEditInput } from './inputs.js';
import {
  checkBookingLimitAfterOpening,
  checkBookingLimitAhead,
  liveStockOf,
  removeProductStock,
  upsertProductStock,
} from './productStock.js';

/** One offer per EAN and venue for a provider: a second one is 400 (change the first one's stock instead). */
async function checkEanFree(
  context: GraphContext,
  providerId: number,
  venueId: number,
  ean: string | undefined,
  exceptOfferId?: number,
) {
  if (!ean) return;
  const taken = await context.em.findOne(Offer, {
    provider: providerId,
    venue: venueId,
    ean,
    ...(exceptOfferId ? { id: { $ne: exceptOfferId } } : {}),
  });
  if (taken) {
    throw BadRequestError.on(
      'categoryRelatedFields.ean',
      `Your offer ${taken.id} already sells the EAN ${ean} at this venue`,
    );
  }
}

export async function createProduct(context: GraphContext, input: ProductCreateInput): Promise<Offer> {
  requireIndividualOfferRights(context);
  const providerId = callerProviderId(context);
  const category = creatableCategory(input.categoryRelatedFields.category, 'product');
  checkNameHasNoEan(input.name);
  const categoryRelatedFields = checkCategoryRelatedFields(category, input.categoryRelatedFields, 'create');
  const location = await resolveLocation(context, input.location);
  checkLocationFitsCategory(category, location.locationType);
  await checkIdAtProviderFree(context, location.venue.id, input.idAtProvider);
  await checkEanFree(context, providerId, location.venue.id, categoryRelatedFields.ean);

  const now = context.clock.now();
  checkBookingLimitAhead(input.stock, now);
  const image = input.image ? await storeBase64Image(context, input.image) : null;
  return saveNewOffer(context, {
    now,
    columns: newOfferColumns(input, { providerId, category, categoryRelatedFields, location, image, now }),
    publication: input,
    addOwn: (em, offer) => {
      checkBookingLimitAfterOpening(offer, input.stock);
      if (input.stock) upsertProductStock(em, now, offer, null, input.stock);
    },
  });
}

/** Fields of a product that null clears. */
const clearableFields = [
  'description',
  'bookingContact',
  'bookingEmail',
  'itemCollectionDetails',
  'idAtProvider',
] as const;

/**
 * Changes the fields sent, in one transaction with the stock: `stock: null` deletes it (its
 * unused bookings are cancelled), a stock sent creates it or changes the fields given.
 * A product stays at its venue (a location naming another one is 400), and keeps its EAN: a
 * `categoryRelatedFields.ean` sent is checked like any EAN, then ignored, as pass Culture does.
 */
export async function editProduct(
  context: GraphContext,
  input: ProductEditInput,
  load: (context: GraphContext) => Promise<Offer>,
): Promise<Offer> {
  checkBookingLimitAhead(input.stock, context.clock.now());
  return answeringUniquenessRaces(() =>
    context.em.transactional(async (em) => {
      const scoped = { ...context, em };
      const offer = await load(scoped);
      await lockOfferForChanges(em, offer);
      if (input.location && input.location.venueId !== offer.venue.id) {
        throw BadRequestError.on('location.venueId', 'A product offer cannot be moved to another venue');
      }
      const category = categoryById(offer.category) as Category;
      await editOfferFields(scoped, offer, category, asSharedEdition(category, input), { clearable: clearableFields });
      const now = context.clock.now();
      const existing = input.stock !== undefined ? await liveStockOf(em, offer) : null;
      if (input.stock === null) await removeProductStock(context, em, existing);
      else if (input.stock) {
        checkBookingLimitAfterOpening(offer, input.stock);
        upsertProductStock(em, now, offer, existing, input.stock);
      }
      await em.flush();
      return offer;
    }),
  );
}

/**
 * The edition as the shared rules take it, as pass Culture edits a product: `image: null` and
 * `categoryRelatedFields: null` change nothing (as if absent), `isActive` is ignored when a
 * `publicationDatetime` is sent (the datetime wins), and the EAN sent is left out once checked
 * (a malformed one is still a 422).
 */
function asSharedEdition(category: Category, input: ProductEditInput): ProductEditInput & Record<string, unknown> {
  const edition: ProductEditInput & Record<string, unknown> = { ...input };
  if (edition.image === null) edition.image = undefined;
  if (edition.publicationDatetime !== undefined) edition.isActive = undefined;
  const fields = edition.categoryRelatedFields;
  if (fields === null) edition.categoryRelatedFields = undefined;
  else if (fields && fields.ean !== undefined) {
    const { ean, ...kept } = fields;
    checkCategoryRelatedFields(category, { ean }, 'edit');
    edition.categoryRelatedFields = kept;
  }
  return edition;
}

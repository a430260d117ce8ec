import type { EntityManager } from '@mikro-orm/core';
import { Address } from '../../providers/Address.js';
import { Venue } from '../../providers/Venue.js';
import type { Clock } from '../../../platform/time/clock.js';
import type { GraphContext } from '../../shared/context.js';
import type { DomainEventPublisher } from '../../shared/domainEvents.js';
import { BadRequestError, type ValidationIssue, ValidationFailedError } from '../../shared/errors.js';
import { enqueue } from '../../../platform/jobs/outbox.js';
import { categoryById } from '../catalogue/index.js';
import { futureDatetimeIssues, parseAwareDatetime } from '../datetimes.js';
import { callerProviderId, requireIndividualOfferRights } from '../access.js';
import { catalogueProductsByEan } from '../eanCatalogue/availability.js';
import { eanRejectionOf } from '../eanCatalogue/eanRule.js';
import type { CatalogueProduct } from '../eanCatalogue/CatalogueProduct.js';
import { isValidEan } from '../eanCatalogue/ean.js';
import { Offer } from '../Offer.js';
import { resolveLocation } from '../offerLocation.js';
import { scheduleAutoApproval } from '../offerReview.js';
import { checkLocationFitsCategory } from '../offerRules.js';
import { requestPublication } from '../publicationRequest.js';
import { Stock } from '../Stock.js';
import { deleteStocks } from '../stockDeletion.js';
import type { ProductsByEanInput } from './inputs.js';
import { ProductImport, type ProductImportItem, type ProductImportLocation } from './ProductImport.js';
import { bookingLimitOpeningProblems, lockingStocks, upsertProductStock } from './productStock.js';

export const PRODUCT_IMPORT_JOB = 'offers.productImport';
/** Items applied per step (one transaction each): a restart redoes at most this many. */
export const PRODUCT_IMPORT_STEP = 100;

/**
 * Each stock's booking limit against the publication and opening of bookings its product asks
 * for (a publication left out is now): 400 at the stock's limit, every product at once.
 */
function checkBookingLimitsAfterOpening(input: ProductsByEanInput, now: Date): void {
  const problems: Record<string, string[]> = {};
  input.products.forEach((product, index) => {
    const loc = ['products', String(index)];
    const { publicationDatetime, bookingAllowedDatetime } = product;
    const requested = (value: string | null | undefined, field: string) =>
      value == null ? null : value === 'now' ? now : parseAwareDatetime(value, [...loc, field]);
    const opening = {
      publication: publicationDatetime === undefined ? now : requested(publicationDatetime, 'publicationDatetime'),
      bookingAllowed: requested(bookingAllowedDatetime, 'bookingAllowedDatetime'),
    };
    const found = bookingLimitOpeningProblems(product.stock, opening, [...loc, 'stock', 'bookingLimitDatetime']);
    if (found.length > 0) problems[`products.${index}.stock.bookingLimitDatetime`] = found;
  });
  if (Object.keys(problems).length > 0) throw new BadRequestError(problems);
}

/**
 * Checks a bulk upsert's dates and location now (422, 404, 400; its shape met its rules in
 * inputRules.ts), then records it and enqueues its job in one transaction: once this returns,
 * the upsert will be applied, even across a restart. The EANs themselves are judged by the
 * job (an unknown one is skipped and recorded).
 */
export async function requestProductImport(context: GraphContext, input: ProductsByEanInput): Promise<ProductImport> {
  requireIndividualOfferRights(context);
  const providerId = callerProviderId(context);
  const now = context.clock.now();
  const issues: ValidationIssue[] = [];
  input.products.forEach((product, index) => {
    const loc = ['products', String(index)];
    issues.push(
      ...futureDatetimeIssues(
        product.publicationDatetime === 'now' ? null : product.publicationDatetime,
        [...loc, 'publicationDatetime'],
        now,
      ),
      ...futureDatetimeIssues(product.bookingAllowedDatetime, [...loc, 'bookingAllowedDatetime'], now),
      ...futureDatetimeIssues(product.stock.bookingLimitDatetime, [...loc, 'stock', 'bookingLimitDatetime'], now),
    );
  });
  if (issues.length > 0) throw new ValidationFailedError(issues);
  checkBookingLimitsAfterOpening(input, now);
  const location = await resolveLocation(context, input.location);
  // Every category sold by EAN takes place at a venue or an address.
  checkLocationFitsCategory(categoryById('LIVRE_PAPIER')!, location.locationType);

  const recorded = await context.em.transactional(async (em) => {
    const productImport = em.create(ProductImport, {
      provider: providerId,
      location: {
        type: location.locationType as ProductImportLocation['type'],
        venueId: location.venue.id,
        addressId: location.address?.id ?? null,
        addressLabel: location.addressLabel,
      },
      items: input.products.map((product) => ({
        ean: product.ean,
        stock: {
          price: product.stock.price as number,
          quantity: product.stock.quantity ?? null,
          bookingLimitDatetime: product.stock.bookingLimitDatetime ?? null,
        },
        ...(product.publicationDatetime !== undefined ? { publicationDatetime: product.publicationDatetime } : {}),
        ...(product.bookingAllowedDatetime !== undefined
          ? { bookingAllowedDatetime: product.bookingAllowedDatetime }
          : {}),
      })),
      createdAt: now,
    });
    await em.flush();
    enqueue(em, context.clock, PRODUCT_IMPORT_JOB, { importId: productImport.id });
    await em.flush();
    return productImport;
  });
  context.services.jobs.wake();
  return recorded;
}

export interface ProductImportDependencies {
  em: EntityManager;
  clock: Clock;
  events: DomainEventPublisher;
  autoApprovalDelayMs: number | null;
}

/** A requested datetime still ahead, or `now` once it has passed while the job waited. */
function stillAhead(value: string | null | undefined, now: Date): string | null | undefined {
  if (value == null || value === 'now') return value;
  return new Date(value).getTime() > now.getTime() ? value : 'now';
}

function newOfferFor(
  em: EntityManager,
  productImport: ProductImport,
  venue: Venue,
  product: CatalogueProduct,
  item: ProductImportItem,
  now: Date,
): Offer {
  const category = categoryById(product.category)!;
  const fields: Record<string, string | null> = {
    ean: product.ean,
    author: product.author,
    performer: product.performer,
    musicType: product.musicType,
  };
  const categoryRelatedFields = Object.fromEntries(
    category.fields.filter((name) => fields[name] != null).map((name) => [name, fields[name] as string]),
  );
  const { location } = productImport;
  const offer = em.create(Offer, {
    name: product.title,
    venue,
    provider: productImport.provider,
    category: category.id,
    isEvent: false,
    description: product.description,
    audioDisabilityCompliant: venue.audioDisabilityCompliant,
    mentalDisabilityCompliant: venue.mentalDisabilityCompliant,
    motorDisabilityCompliant: venue.motorDisabilityCompliant,
    visualDisabilityCompliant: venue.visualDisabilityCompliant,
    categoryRelatedFields,
    ean: product.ean,
    enableDoubleBookings: false,
    hasTicket: false,
    locationType: location.type,
    address: location.addressId ? em.getReference(Address, location.addressId) : null,
    addressLabel: location.addressLabel ?? null,
    createdAt: now,
    updatedAt: now,
  });
  requestPublication(offer, now, {
    // Left out is now; null is never published.
    publicationDatetime: item.publicationDatetime === undefined ? 'now' : stillAhead(item.publicationDatetime, now),
    bookingAllowedDatetime: stillAhead(item.bookingAllowedDatetime, now) ?? null,
  });
  return offer;
}

/**
 * An upsert of an offer the provider already has at the venue, as pass Culture applies it: the
 * offer moves to the location sent, and takes the publication and opening of bookings the item
 * asks for, a publication left out being now (an offer already published stays as it is) and an
 * opening of bookings left out being none.
 */
function updateExistingOffer(
  em: EntityManager,
  productImport: ProductImport,
  offer: Offer,
  item: ProductImportItem,
  now: Date,
): void {
  const { location } = productImport;
  offer.locationType = location.type;
  offer.url = null;
  offer.address = location.addressId ? em.getReference(Address, location.addressId) : null;
  offer.addressLabel = location.addressLabel ?? null;
  const publication = item.publicationDatetime === undefined ? 'now' : item.publicationDatetime;
  const opening = item.bookingAllowedDatetime ?? null;
  const sameOpening =
    (opening === null ? null : new Date(opening).getTime()) === (offer.bookingAllowedDatetime?.getTime() ?? null);
  requestPublication(offer, now, {
    publicationDatetime: publication === 'now' && offer.publishedAt ? undefined : stillAhead(publication, now),
    bookingAllowedDatetime: sameOpening ? undefined : stillAhead(opening, now),
  });
  offer.updatedAt = now;
}

/**
 * One step of a bulk upsert: the next items, in one transaction with the import's progress.
 * Per item: a wrong check digit or a catalogue rejection is skipped and recorded; otherwise
 * the provider's offer of that EAN at the venue is created or updated (a rejected one is
 * skipped), and its stock upserted (a quantity of 0 deletes it). Returns whether items remain.
 */
export async function applyProductImportStep(
  dependencies: ProductImportDependencies,
  importId: number,
): Promise<boolean> {
  const { em, clock } = dependencies;
  const productImport = await em.findOne(ProductImport, importId);
  if (!productImport || productImport.status === 'DONE') return false;
  const now = clock.now();
  const items = productImport.items.slice(productImport.nextIndex, productImport.nextIndex + PRODUCT_IMPORT_STEP);
  const { location } = productImport;
  const eans = items.map((item) => item.ean);
  const [venue, catalogue, offers] = await Promise.all([
    em.findOneOrFail(Venue, location.venueId),
    catalogueProductsByEan(em, eans),
    em.find(Offer, {
      provider: productImport.provider,
      venue: location.venueId,
      ean: { $in: eans.filter(isValidEan) },
    }),
  ]);
  const offersByEan = new Map(offers.map((offer) => [offer.ean as string, offer]));
  const stocks =
    offers.length > 0
      ? await em.find(
          Stock,
          { offer: { $in: offers }, isDeleted: false, beginningDatetime: null },
          { ...lockingStocks(em), refresh: true },
        )
      : [];
  // Keyed by the offer itself: an offer created in this step has no id until the flush.
  const stocksByOffer = new Map<Offer, Stock>();
  const offersById = new Map(offers.map((offer) => [offer.id, offer]));
  for (const stock of stocks) stocksByOffer.set(offersById.get(stock.offer.id)!, stock);
  const deleted: Stock[] = [];
  const created: Offer[] = [];

  for (const item of items) {
    if (!isValidEan(item.ean)) {
      productImport.rejected.push({ ean: item.ean, reason: 'invalidEan' });
      continue;
    }
    const product = catalogue.get(item.ean);
    const rejection = eanRejectionOf(product);
    if (rejection) {
      productImport.rejected.push({ ean: item.ean, reason: rejection });
      continue;
    }
    let offer = offersByEan.get(item.ean);
    if (offer && offer.category !== product!.category) {
      // Your own offer of this EAN in another category (created through POST /products): left as it is.
      productImport.rejected.push({ ean: item.ean, reason: 'offerOfAnotherCategory' });
      continue;
    }
    if (!offer) {
      offer = newOfferFor(em, productImport, venue, product!, item, now);
      offersByEan.set(item.ean, offer);
      created.push(offer);
      productImport.createdCount += 1;
    } else {
      if (offer.validation === 'REJECTED') {
        // A rejected offer is not edited, as pass Culture refuses it: skipped, its stock unchanged.
        productImport.rejected.push({ ean: item.ean, reason: 'offerRejected' });
        continue;
      }
      if (!created.includes(offer)) productImport.updatedCount += 1;
      updateExistingOffer(em, productImport, offer, item, now);
    }
    const stock = stocksByOffer.get(offer) ?? null;
    if (item.stock.quantity === 0) {
      stocksByOffer.delete(offer);
      if (stock && stock.id === undefined) {
        em.remove(stock); // created earlier in this step, never committed: nothing to delete, nothing to announce
      } else if (stock) {
        deleted.push(stock);
        productImport.stocksDeletedCount += 1;
      }
      continue;
    }
    stocksByOffer.set(
      offer,
      upsertProductStock(em, now, offer, stock, {
        price: item.stock.price,
        quantity: item.stock.quantity ?? 'unlimited',
        bookingLimitDatetime: item.stock.bookingLimitDatetime,
      }),
    );
  }

  productImport.nextIndex += items.length;
  const done = productImport.nextIndex >= productImport.items.length;
  productImport.status = done ? 'DONE' : 'RUNNING';
  if (done) productImport.finishedAt = now;
  await em.flush();
  scheduleAutoApproval(em, clock, dependencies.autoApprovalDelayMs, created);
  await deleteStocks(dependencies, em, deleted);
  await em.flush();
  return !done;
}

import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../platform/time/clock.js';
import { BadRequestError, NotFoundError } from '../shared/errors.js';
import { findOrCreateAddress } from './addresses/addressBook.js';
import { findMunicipality, OfflineGeocoder } from './geocoding/index.js';
import { ApiKey } from './ApiKey.js';
import { type IssuedApiKey, issueApiKey } from './apiKeys.js';
import { Offerer } from './Offerer.js';
import { Provider } from './Provider.js';
import { newMessagingSecret } from './sandbox.js';
import { isValidSiren, isValidSiret } from './siren.js';
import { Venue } from './Venue.js';
import { VenueProvider } from './VenueProvider.js';

/** Operations of the people who run the platform (the CLI), not of providers. */

export interface NewProvider {
  name: string;
  bookingUrl?: string | null;
  cancelUrl?: string | null;
  notificationUrl?: string | null;
  logoUrl?: string | null;
}

export async function createProvider(em: EntityManager, clock: Clock, input: NewProvider): Promise<Provider> {
  const provider = em.create(Provider, {
    name: input.name,
    bookingUrl: input.bookingUrl ?? null,
    cancelUrl: input.cancelUrl ?? null,
    notificationUrl: input.notificationUrl ?? null,
    logoUrl: input.logoUrl ?? null,
    isActive: true,
    messagingSecret: newMessagingSecret(),
    createdAt: clock.now(),
  });
  await em.persist(provider).flush();
  return provider;
}

export async function setProviderActive(em: EntityManager, providerId: number, isActive: boolean): Promise<Provider> {
  const provider = await em.findOne(Provider, providerId);
  if (!provider) throw new NotFoundError(`No provider ${providerId}`);
  provider.isActive = isActive;
  await em.flush();
  return provider;
}

/** Withdraws or restores a provider's right to manage individual offers (403 on them without it). */
export async function setIndividualOfferRights(
  em: EntityManager,
  providerId: number,
  allowed: boolean,
): Promise<Provider> {
  const provider = await em.findOne(Provider, providerId);
  if (!provider) throw new NotFoundError(`No provider ${providerId}`);
  provider.canManageIndividualOffers = allowed;
  await em.flush();
  return provider;
}

export async function createOfferer(
  em: EntityManager,
  clock: Clock,
  input: { name: string; siren: string; allowedOnAdage: boolean },
): Promise<Offerer> {
  if (!isValidSiren(input.siren))
    throw BadRequestError.on('siren', 'A SIREN is 9 digits with a valid check digit, or NC and 7 digits');
  const existing = await em.findOne(Offerer, { siren: input.siren });
  if (existing) throw BadRequestError.on('siren', `Offerer ${existing.id} already has the SIREN ${input.siren}`);
  const offerer = em.create(Offerer, { ...input, createdDatetime: clock.now() });
  await em.persist(offerer).flush();
  return offerer;
}

export interface NewVenue {
  offererId: number;
  legalName: string;
  publicName?: string | null;
  activityDomain: string;
  /** Absent for a digital venue. */
  physical?: {
    siret: string;
    street: string;
    city: string;
    postalCode: string;
    latitude: number;
    longitude: number;
  };
  providerIds: number[];
}

/** A venue and its links to providers, in one transaction. */
export async function createVenue(em: EntityManager, clock: Clock, input: NewVenue): Promise<Venue> {
  if (input.physical && !isValidSiret(input.physical.siret)) {
    throw BadRequestError.on('siret', 'A SIRET is 14 digits with a valid check digit');
  }
  const sameSiret = input.physical ? await em.findOne(Venue, { siret: input.physical.siret }) : null;
  if (sameSiret) throw BadRequestError.on('siret', `Venue ${sameSiret.id} already has the SIRET ${sameSiret.siret}`);
  const municipality = input.physical ? findMunicipality(input.physical.city, input.physical.postalCode) : null;
  if (input.physical && !municipality) {
    throw BadRequestError.on(
      'postalCode',
      `No municipality named "${input.physical.city}" has the postal code ${input.physical.postalCode}`,
    );
  }
  return em.transactional(async (tx) => {
    const offerer = await tx.findOne(Offerer, input.offererId);
    if (!offerer) throw new NotFoundError(`No offerer ${input.offererId}`);
    const address =
      input.physical && municipality ? await findOrCreateAddress(tx, new OfflineGeocoder(), input.physical) : null;
    const venue = tx.create(Venue, {
      offerer,
      legalName: input.legalName,
      publicName: input.publicName ?? null,
      activityDomain: input.activityDomain,
      siret: input.physical?.siret ?? null,
      siretComment: null,
      isVirtual: !input.physical,
      address,
      audioDisabilityCompliant: null,
      mentalDisabilityCompliant: null,
      motorDisabilityCompliant: null,
      visualDisabilityCompliant: null,
      createdDatetime: clock.now(),
    });
    for (const providerId of input.providerIds) {
      const provider = await tx.findOne(Provider, providerId);
      if (!provider) throw new NotFoundError(`No provider ${providerId}`);
      tx.create(VenueProvider, { venue, provider, isActive: true, createdAt: clock.now() });
    }
    return venue;
  });
}

/**
 * Lets a provider act on a venue that exists already (another offerer's venue it starts managing,
 * or one a second provider also manages): the link is made, or made active again.
 */
export async function linkVenue(
  em: EntityManager,
  clock: Clock,
  input: { venueId: number; providerId: number },
): Promise<VenueProvider> {
  const venue = await em.findOne(Venue, input.venueId);
  if (!venue) throw new NotFoundError(`No venue ${input.venueId}`);
  const provider = await em.findOne(Provider, input.providerId);
  if (!provider) throw new NotFoundError(`No provider ${input.providerId}`);
  const link =
    (await em.findOne(VenueProvider, { venue, provider })) ??
    em.create(VenueProvider, { venue, provider, isActive: true, createdAt: clock.now() });
  link.isActive = true;
  await em.flush();
  return link;
}

/**
 * Ends a provider's link to a venue: its keys no longer reach the venue (404), its offers and
 * bookings there stay as they are. The link is kept inactive, with its URLs, so that linking the
 * venue again restores them.
 */
export async function unlinkVenue(
  em: EntityManager,
  input: { venueId: number; providerId: number },
): Promise<VenueProvider> {
  const link = await em.findOne(VenueProvider, { venue: input.venueId, provider: input.providerId });
  if (!link) throw new NotFoundError(`Venue ${input.venueId} is not linked to provider ${input.providerId}`);
  link.isActive = false;
  await em.flush();
  return link;
}

export async function createApiKey(
  em: EntityManager,
  clock: Clock,
  input: { env: string; providerId?: number; offererId?: number; internal: boolean; label?: string | null },
): Promise<IssuedApiKey> {
  const provider = input.providerId != null ? await em.findOne(Provider, input.providerId) : null;
  if (!input.internal && !provider) throw new NotFoundError(`No provider ${input.providerId}`);
  const offerer = input.offererId != null ? await em.findOne(Offerer, input.offererId) : null;
  if (input.offererId != null && !offerer) throw new NotFoundError(`No offerer ${input.offererId}`);
  const issued = issueApiKey(em, clock, {
    env: input.env,
    provider,
    offerer,
    internal: input.internal,
    label: input.label,
  });
  await em.flush();
  return issued;
}

export async function listApiKeys(em: EntityManager, providerId?: number): Promise<ApiKey[]> {
  return em.find(ApiKey, providerId != null ? { provider: providerId } : {}, { orderBy: { id: 'asc' } });
}

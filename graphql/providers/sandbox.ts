import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../shared/clock.js';
import { Address } from './Address.js';
import { addressLookupKey } from './addresses/lookupKey.js';
import { issueApiKey } from './apiKeys.js';
import { Offerer } from './Offerer.js';
import { Provider } from './Provider.js';
import { Venue } from './Venue.js';
import { VenueProvider } from './VenueProvider.js';

export interface CreatedSandbox {
  provider: Provider;
  offerer: Offerer;
  venues: Venue[];
  apiKey: string;
  messagingSecret: string;
}

export function newMessagingSecret(): string {
  return randomBytes(32).toString('hex');
}

/**
 * A provider ready to try the API: its offerer (allowed on the school platform), two
 * physical venues with SIRET and address, one digital venue, and a key. One transaction.
 */
export async function createSandbox(em: EntityManager, clock: Clock, keyEnv: string): Promise<CreatedSandbox> {
  return em.transactional(async (tx) => {
    const now = clock.now();
    const messagingSecret = newMessagingSecret();
    const provider = tx.create(Provider, {
      name: 'Demo Ticketing',
      bookingUrl: 'https://ticketing.example.com/booking',
      cancelUrl: 'https://ticketing.example.com/cancel',
      notificationUrl: 'https://ticketing.example.com/notify',
      logoUrl: null,
      isActive: true,
      messagingSecret,
      createdAt: now,
    });
    const offerer = tx.create(Offerer, {
      name: 'Demo Cultural Association',
      siren: '123456782',
      allowedOnAdage: true,
      createdDatetime: now,
    });
    const theatreAddress = tx.create(Address, {
      banId: '75104_4589_00012',
      street: '12 Rue de Rivoli',
      city: 'Paris',
      postalCode: '75004',
      inseeCode: '75104',
      departmentCode: '75',
      latitude: 48.85553,
      longitude: 2.35916,
      isManualEdition: false,
      lookupKey: addressLookupKey('12 Rue de Rivoli', { inseeCode: '75104', city: 'Paris', postalCode: '75004' }),
    });
    const bookshopAddress = tx.create(Address, {
      banId: '69381_3215_00004',
      street: '4 Place Bellecour',
      city: 'Lyon',
      postalCode: '69002',
      inseeCode: '69382',
      departmentCode: '69',
      latitude: 45.75781,
      longitude: 4.83201,
      isManualEdition: false,
      lookupKey: addressLookupKey('4 Place Bellecour', { inseeCode: '69382', city: 'Lyon', postalCode: '69002' }),
    });
    const physical = (legalName: string, publicName: string, siret: string, activityDomain: string, address: Address) =>
      tx.create(Venue, {
        offerer,
        legalName,
        publicName,
        siret,
        siretComment: null,
        activityDomain,
        isVirtual: false,
        address,
        audioDisabilityCompliant: true,
        mentalDisabilityCompliant: true,
        motorDisabilityCompliant: true,
        visualDisabilityCompliant: false,
        createdDatetime: now,
      });
    const venues = [
      physical('Demo Theatre', 'Théâtre de la Démo', '12345678200010', 'PERFORMING_ARTS', theatreAddress),
      physical('Demo Bookshop', 'Librairie de la Démo', '12345678200028', 'BOOKSTORE', bookshopAddress),
      tx.create(Venue, {
        offerer,
        legalName: 'Demo Online',
        publicName: 'Offre numérique',
        siret: null,
        siretComment: null,
        activityDomain: 'DIGITAL',
        isVirtual: true,
        address: null,
        audioDisabilityCompliant: null,
        mentalDisabilityCompliant: null,
        motorDisabilityCompliant: null,
        visualDisabilityCompliant: null,
        createdDatetime: now,
      }),
    ];
    for (const venue of venues) {
      tx.create(VenueProvider, { venue, provider, isActive: true, createdAt: now });
    }
    const { key } = issueApiKey(tx, clock, { env: keyEnv, provider, offerer, label: 'Demo key' });
    return { provider, offerer, venues, apiKey: key, messagingSecret };
  });
}

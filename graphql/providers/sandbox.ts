import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../platform/time/clock.js';
import { Address } from './Address.js';
import { addressLookupKey } from './addresses/lookupKey.js';
import { issueApiKey } from './apiKeys.js';
import { Offerer } from './Offerer.js';
import { Provider } from './Provider.js';
import { demoKeyLabel, demoOfferer, demoProvider, demoVenues } from './sandboxData.js';
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
      ...demoProvider,
      logoUrl: null,
      isActive: true,
      messagingSecret,
      createdAt: now,
    });
    const offerer = tx.create(Offerer, { ...demoOfferer, createdDatetime: now });
    const venues = demoVenues.map((venue) => {
      const address = venue.address
        ? tx.create(Address, {
            ...venue.address,
            isManualEdition: false,
            lookupKey: addressLookupKey(venue.address.street, venue.address),
          })
        : null;
      return tx.create(Venue, {
        offerer,
        legalName: venue.legalName,
        publicName: venue.publicName,
        siret: venue.siret,
        siretComment: null,
        activityDomain: venue.activityDomain,
        isVirtual: venue.address === null,
        address,
        audioDisabilityCompliant: venue.accessibility?.audio ?? null,
        mentalDisabilityCompliant: venue.accessibility?.mental ?? null,
        motorDisabilityCompliant: venue.accessibility?.motor ?? null,
        visualDisabilityCompliant: venue.accessibility?.visual ?? null,
        createdDatetime: now,
      });
    });
    for (const venue of venues) {
      tx.create(VenueProvider, { venue, provider, isActive: true, createdAt: now });
    }
    const { key } = issueApiKey(tx, clock, { env: keyEnv, provider, offerer, label: demoKeyLabel });
    return { provider, offerer, venues, apiKey: key, messagingSecret };
  });
}

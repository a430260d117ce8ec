import type { EntityManager, RequiredEntityData } from '@mikro-orm/core';
import { Offer } from '../../graphql/offers/Offer.js';
import { publishedEventData } from './eventData.js';
import { issueApiKey } from '../../graphql/providers/apiKeys.js';
import { Offerer } from '../../graphql/providers/Offerer.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { createSandbox, newMessagingSecret } from '../../graphql/providers/sandbox.js';
import { withLuhnCheckDigit } from '../../graphql/providers/siren.js';
import type { Clock } from '../../platform/time/clock.js';

export { createSandbox };

let sirenCounter = 100_000;

/** A provider with its offerer and a key, by builder with defaults. */
export async function aProvider(
  em: EntityManager,
  clock: Clock,
  overrides: Partial<Pick<Provider, 'name' | 'isActive' | 'bookingUrl'>> = {},
): Promise<{ provider: Provider; offerer: Offerer; apiKey: string }> {
  return em.transactional(async (tx) => {
    const provider = tx.create(Provider, {
      name: overrides.name ?? 'Another Ticketing',
      bookingUrl: overrides.bookingUrl ?? null,
      cancelUrl: null,
      notificationUrl: null,
      logoUrl: null,
      isActive: overrides.isActive ?? true,
      messagingSecret: newMessagingSecret(),
      createdAt: clock.now(),
    });
    sirenCounter += 1;
    const offerer = tx.create(Offerer, {
      name: `Offerer ${sirenCounter}`,
      siren: withLuhnCheckDigit(`98${sirenCounter}`),
      allowedOnAdage: false,
      createdDatetime: clock.now(),
    });
    const { key } = issueApiKey(tx, clock, { env: 'test', provider, offerer });
    return { provider, offerer, apiKey: key };
  });
}

/** An event offer as the API would have created it: approved and published unless told otherwise. */
export async function anEvent(
  em: EntityManager,
  clock: Clock,
  owner: { providerId: number; venueId: number },
  overrides: Partial<RequiredEntityData<Offer>> = {},
): Promise<Offer> {
  const offer = em.create(Offer, publishedEventData(clock.now(), owner, overrides));
  await em.persist(offer).flush();
  return offer;
}

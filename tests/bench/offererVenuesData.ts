import { addressLookupKey } from '../../graphql/providers/addresses/lookupKey.js';
import { Address } from '../../graphql/providers/Address.js';
import { Provider } from '../../graphql/providers/Provider.js';
import { withLuhnCheckDigit } from '../../graphql/providers/siren.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import type { Runtime } from '../../server/runtime.js';

/** Venues the bench adds to the sandbox offerer's three: a ticketing provider's network of halls. */
export const EXTRA_VENUES = 9;

const CITIES = [
  { city: 'Paris', postalCode: '75011', inseeCode: '75111', departmentCode: '75', latitude: 48.859, longitude: 2.379 },
  { city: 'Lille', postalCode: '59000', inseeCode: '59350', departmentCode: '59', latitude: 50.63, longitude: 3.06 },
  { city: 'Nantes', postalCode: '44000', inseeCode: '44109', departmentCode: '44', latitude: 47.21, longitude: -1.55 },
  { city: 'Marseille', postalCode: '13001', inseeCode: '13201', departmentCode: '13', latitude: 43.3, longitude: 5.38 },
] as const;
const KINDS = ['CONCERT_HALL', 'PERFORMING_ARTS', 'CULTURAL_CENTRE', 'MOVIE'] as const;

/**
 * Nine more physical venues of the sandbox's offerer, each with a SIRET and an address and
 * linked to its provider: every third with its own ticketing URLs (which the answer shows), one
 * link deactivated (which the answer leaves out), accessibility said or not.
 */
export async function seedOffererVenues(
  runtime: Runtime,
  owner: { providerId: number; venueId: number },
): Promise<{ listed: number }> {
  const em = runtime.orm.em.fork();
  const now = runtime.clock.now();
  const first = await em.findOneOrFail(Venue, owner.venueId);
  const provider = em.getReference(Provider, owner.providerId);
  for (let index = 0; index < EXTRA_VENUES; index += 1) {
    const number = index + 1;
    const place = CITIES[index % CITIES.length];
    const street = `${10 + number} Boulevard des Salles`;
    const address = em.create(Address, {
      ...place,
      banId: `${place.inseeCode}_bench_${String(number).padStart(5, '0')}`,
      street,
      isManualEdition: false,
      lookupKey: addressLookupKey(street, place),
    });
    const said = index % 4 !== 3;
    const venue = em.create(Venue, {
      offerer: first.offerer,
      legalName: `Bench Hall ${number}`,
      publicName: index % 5 === 4 ? null : `Salle de la Démo ${number}`,
      siret: withLuhnCheckDigit(`123456782${String(100 + number).padStart(4, '0')}`),
      siretComment: null,
      activityDomain: KINDS[index % KINDS.length],
      isVirtual: false,
      address,
      audioDisabilityCompliant: said ? index % 2 === 0 : null,
      mentalDisabilityCompliant: said ? true : null,
      motorDisabilityCompliant: said ? index % 3 !== 1 : null,
      visualDisabilityCompliant: said ? false : null,
      createdDatetime: new Date(now.getTime() - number * 86_400_000),
    });
    const ownUrls = index % 3 === 0;
    em.create(VenueProvider, {
      venue,
      provider,
      isActive: index !== EXTRA_VENUES - 1,
      bookingUrl: ownUrls ? `https://tickets.example.com/hall-${number}/book` : null,
      cancelUrl: ownUrls ? `https://tickets.example.com/hall-${number}/cancel` : null,
      notificationUrl: ownUrls ? `https://tickets.example.com/hall-${number}/notify` : null,
      createdAt: now,
    });
  }
  await em.flush();
  return { listed: EXTRA_VENUES - 1 };
}

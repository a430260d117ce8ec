import type { GraphContext } from '../../shared/context.js';
import { BadRequestError } from '../../shared/errors.js';
import { Provider } from '../../providers/Provider.js';
import { Venue } from '../../providers/Venue.js';
import { type BookingNotification, messageDatetime, providerEndpoints } from '../bookingDetails.js';
import { requireActiveVenueLink } from '../countermarks.js';
import { queueMessage } from '../messages.js';
import type { ProviderMessage } from '../ProviderMessage.js';

export const TEST_NOTIFICATION_ACTIONS = ['BOOK', 'CANCEL'] as const;
export type TestNotificationAction = (typeof TEST_NOTIFICATION_ACTIONS)[number];

const VENUE_NOT_FOUND = 'This venue is not one of yours';
const DAY_MS = 86_400_000;

/**
 * A notification in the shape of every real one (the keys a receiver parses), about a booking
 * that does not exist: id 0 and names that say so, so that no receiver mistakes it for a sale.
 */
export function testNotificationPayload(
  action: TestNotificationAction,
  now: Date,
  venue: { id: number; name: string } | null,
): BookingNotification {
  return {
    action,
    booking_confirmation_date: messageDatetime(new Date(now.getTime() + 2 * DAY_MS)),
    booking_creation_date: messageDatetime(now),
    booking_quantity: 1,
    offer_ean: null,
    offer_id: 0,
    offer_id_at_provider: null,
    offer_name: 'Test event',
    offer_price: 1000,
    price_category_id: null,
    price_category_id_at_provider: null,
    price_category_label: null,
    stock_id: 0,
    stock_id_at_provider: null,
    user_birth_date: '2008-01-01',
    user_email: 'test-event@example.org',
    user_first_name: 'Test',
    user_last_name: 'Event',
    user_phone: null,
    venue_address: null,
    venue_department_code: null,
    venue_id: venue?.id ?? 0,
    venue_name: venue?.name ?? 'Test venue',
  };
}

/**
 * Queues a signed BOOK or CANCEL test notification to the caller's notification URL (the
 * venue's, when a venue of theirs is named and has one, else the provider's), marked
 * `X-Test-Event: true` and tried once; it is recorded among the messages like any other.
 */
export async function sendTestNotification(
  context: GraphContext,
  providerId: number,
  action: TestNotificationAction,
  venueId: number | null,
): Promise<ProviderMessage> {
  let venue: { id: number; name: string } | null = null;
  let url: string | null;
  if (venueId != null) {
    await requireActiveVenueLink(context, venueId, VENUE_NOT_FOUND);
    const row = await context.em.findOneOrFail(Venue, venueId);
    venue = { id: row.id, name: row.legalName };
    url = (await providerEndpoints(context.em, providerId, venueId)).notificationUrl;
  } else {
    url = (await context.em.findOneOrFail(Provider, providerId)).notificationUrl;
  }
  if (!url)
    throw BadRequestError.on(
      venueId != null ? 'venueId' : 'global',
      venueId != null ? 'No notification URL is set for this venue nor for you' : 'You have no notification URL',
    );
  const message = await context.em.transactional((em) =>
    queueMessage(em, context.clock, {
      providerId,
      bookingId: null,
      kind: 'BOOKING_NOTIFICATION',
      url: url,
      payload: testNotificationPayload(action, context.clock.now(), venue),
      isTest: true,
    }),
  );
  context.services.jobs.wake();
  return message;
}

import request from 'supertest';
import { PriceCategory } from '../../../graphql/offers/PriceCategory.js';
import { Stock } from '../../../graphql/offers/Stock.js';
import { SIGNATURE_HEADER } from '../../../graphql/shared/messaging/signature.js';
import { createTestApp } from '../../support/app.js';
import { anEvent } from '../../support/fixtures.js';
import { aSandboxWithReceiver } from '../../support/receiver.js';

export interface SignedMessage {
  /** The exact bytes the platform sent. */
  body: Buffer;
  /** Its PassCulture-Signature header. */
  signature: string;
  /** The provider's messaging secret. */
  secret: string;
}

const DAY_MS = 86_400_000;

async function graphql(
  app: Parameters<typeof request>[0],
  key: string,
  query: string,
  variables: Record<string, unknown>,
) {
  const response = await request(app).post('/graphql').set('Authorization', `Bearer ${key}`).send({ query, variables });
  if (response.body.errors) throw new Error(`GraphQL: ${JSON.stringify(response.body.errors)}`);
  return response.body.data;
}

/**
 * A booking notification as the platform sends it: a beneficiary books a date of the sandbox's
 * event, the worker delivers the notification, and a receiver records the bytes and the header.
 */
export async function captureSignedMessage(): Promise<SignedMessage> {
  const testApp = await createTestApp();
  const { sandbox, receiver } = await aSandboxWithReceiver(testApp);
  try {
    const em = testApp.database.orm.em.fork();
    const now = testApp.clock.now();
    const owner = { providerId: sandbox.provider.id, venueId: sandbox.venues[0].id };
    const event = await anEvent(em, testApp.clock, owner, {
      name: 'Signed evening',
      hasTicket: false,
      idAtProvider: 'signed-evening',
    });
    const category = em.create(PriceCategory, {
      offer: event,
      label: 'Seating',
      price: 1_500,
      idAtProvider: 'seating',
      createdAt: now,
    });
    const stock = em.create(Stock, {
      offer: event,
      priceCategory: category,
      price: 1_500,
      beginningDatetime: new Date(now.getTime() + 20 * DAY_MS),
      bookingLimitDatetime: new Date(now.getTime() + 19 * DAY_MS),
      quantity: 10,
      idAtProvider: 'signed-date',
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    const { sandboxCreateBeneficiary: beneficiary } = await graphql(
      testApp.app,
      sandbox.apiKey,
      'mutation ($input: SandboxBeneficiaryInput!) { sandboxCreateBeneficiary(input: $input) { id } }',
      {
        input: {
          email: 'signed@example.com',
          firstName: 'Inès',
          lastName: 'Signée',
          birthDate: '2007-05-14',
          postalCode: '75004',
        },
      },
    );
    await graphql(
      testApp.app,
      sandbox.apiKey,
      'mutation ($input: SandboxBookingInput!) { sandboxBook(input: $input) { id } }',
      {
        input: { stockId: stock.id, quantity: 1, beneficiaryId: beneficiary.id },
      },
    );
    while ((await testApp.runtime.worker.runDueJobs()).claimed > 0);
    const [notification] = receiver.to('/notify');
    if (!notification?.signatureValid) throw new Error('no signed notification was received');
    return {
      body: notification.raw,
      signature: String(notification.headers[SIGNATURE_HEADER.toLowerCase()]),
      secret: sandbox.messagingSecret,
    };
  } finally {
    await receiver.close();
    await testApp.close();
  }
}

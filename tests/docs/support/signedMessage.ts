import { SIGNATURE_HEADER } from '../../../platform/messaging/signature.js';
import { createTestApp } from '../../support/app.js';
import { aBeneficiary, aBookableDate, drainJobs, graphqlAs } from '../../support/builders.js';
import { aSandboxWithReceiver } from '../../support/receiver.js';

export interface SignedMessage {
  /** The exact bytes the platform sent. */
  body: Buffer;
  /** Its PassCulture-Signature header. */
  signature: string;
  /** The provider's messaging secret. */
  secret: string;
}

/**
 * A booking notification as the platform sends it: a beneficiary books a date of the sandbox's
 * event, the worker delivers the notification, and a receiver records the bytes and the header.
 */
export async function captureSignedMessage(): Promise<SignedMessage> {
  const testApp = await createTestApp();
  const { sandbox, receiver } = await aSandboxWithReceiver(testApp);
  try {
    const owner = { providerId: sandbox.provider.id, venueId: sandbox.venues[0].id };
    const { stock } = await aBookableDate(testApp.database.orm.em.fork(), testApp.clock, owner, {
      offer: { name: 'Signed evening', hasTicket: false, idAtProvider: 'signed-evening' },
      label: 'Seating',
      price: 1_500,
      categoryIdAtProvider: 'seating',
      hours: 20 * 24,
      bookingLimitHours: 19 * 24,
      quantity: 10,
      idAtProvider: 'signed-date',
    });
    const beneficiary = await aBeneficiary(testApp, sandbox.apiKey, {
      email: 'signed@example.com',
      firstName: 'Inès',
      lastName: 'Signée',
      birthDate: '2007-05-14',
      postalCode: '75004',
    });
    const booked = await graphqlAs(
      testApp,
      sandbox.apiKey,
      'mutation ($input: SandboxBookingInput!) { sandboxBook(input: $input) { id } }',
      { input: { stockId: stock.id, quantity: 1, beneficiaryId: beneficiary.id } },
    );
    if (booked.body.errors) throw new Error(`GraphQL: ${JSON.stringify(booked.body.errors)}`);
    await drainJobs(testApp);
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

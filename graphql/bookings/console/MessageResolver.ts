import { Arg, Ctx, Field, FieldResolver, InputType, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { graphEnum } from '../../shared/graphEnums.js';
import { SIGNATURE_HEADER } from '../../../platform/messaging/signature.js';
import { MessageAttempt } from '../MessageAttempt.js';
import { type MessageKind, type MessageStatus, MessageStatusEnum, ProviderMessage } from '../ProviderMessage.js';
import { retryDelivery } from '../staff/deliveries.js';
import { attemptsOf, findProviderMessage, findProviderMessages, messagesOwner } from './providerMessages.js';
import { sendTestNotification, TEST_NOTIFICATION_ACTIONS, type TestNotificationAction } from './testNotification.js';

const MessageKindEnum = graphEnum(
  'ProviderMessageKind',
  ['BOOKING_NOTIFICATION', 'TICKET_BOOKING', 'TICKET_CANCELLATION'] as const satisfies readonly MessageKind[],
  "What a message to a provider's system is: a notification, or a call to its ticketing system.",
);
const TestNotificationActionEnum = graphEnum(
  'TestNotificationAction',
  TEST_NOTIFICATION_ACTIONS,
  'The action a test notification carries.',
);

@InputType({ description: 'Your messages of a status, a kind, about a booking, or test events only (or none).' })
class MessageFilterInput {
  @Field(() => MessageStatusEnum, { nullable: true })
  status?: MessageStatus | null;

  @Field(() => MessageKindEnum, { nullable: true })
  kind?: MessageKind | null;

  @Field(() => Int, { nullable: true })
  bookingId?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'true: test events only; false: real messages only.' })
  isTest?: boolean | null;
}

/**
 * The integrator's console: the messages the platform sent to the caller's own URLs (notifications
 * and ticketing calls, provider and venue level), each try at them, a resend, and test events.
 * Provider keys only, each its provider's messages (the back office has `deliveries` for all).
 */
@Resolver(() => ProviderMessage)
export class MessageResolver {
  @Query(() => [ProviderMessage], {
    description:
      'Your messages (notifications and ticketing calls sent to your URLs), newest first: at most `limit` ' +
      '(50 by default and at most), with an id below `beforeId` when given (the last id of a page, for the next).',
  })
  myMessages(
    @Ctx() context: GraphContext,
    @Arg('filter', () => MessageFilterInput, { nullable: true }) filter: MessageFilterInput | null,
    @Arg('beforeId', () => Int, { nullable: true }) beforeId: number | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
  ): Promise<ProviderMessage[]> {
    const providerId = messagesOwner(context, 'reads its messages');
    return findProviderMessages(context.em, providerId, filter ?? {}, { beforeId, limit });
  }

  @Query(() => ProviderMessage, { description: 'One of your messages; another provider’s is not found.' })
  myMessage(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<ProviderMessage> {
    return findProviderMessage(context.em, messagesOwner(context, 'reads its messages'), id);
  }

  @Mutation(() => ProviderMessage, {
    description:
      'Sends one of your queued messages that was not delivered again now (a failed one gets a new set of ' +
      'attempts); a ticketing call made during a request is never resent.',
  })
  resendMessage(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<ProviderMessage> {
    const providerId = messagesOwner(context, 'resends its messages');
    return retryDelivery(context, id, { providerId });
  }

  @Mutation(() => ProviderMessage, {
    description:
      'Sends a signed BOOK or CANCEL test notification, about no real booking, to your notification URL (the ' +
      "venue's when `venueId` names one of yours that has one), with the header `X-Test-Event: true`. It is " +
      'tried once and recorded among your messages (isTest); resend it at will.',
  })
  sendTestNotification(
    @Ctx() context: GraphContext,
    @Arg('action', () => TestNotificationActionEnum) action: TestNotificationAction,
    @Arg('venueId', () => Int, { nullable: true }) venueId: number | null,
  ): Promise<ProviderMessage> {
    const providerId = messagesOwner(context, 'sends test notifications');
    return sendTestNotification(context, providerId, action, venueId);
  }

  @FieldResolver(() => [MessageAttempt], { description: 'Every try at the message, first first.' })
  deliveryAttempts(@Root() message: ProviderMessage, @Ctx() context: GraphContext): Promise<MessageAttempt[]> {
    return attemptsOf(context.em, message.id);
  }
}

/** What each try sent: its headers, the signature among them. */
@Resolver(() => MessageAttempt)
export class MessageAttemptResolver {
  @FieldResolver(() => [String], {
    description: 'The headers sent, the signature included, each as its line of the request (`Name: value`).',
  })
  requestHeaders(@Root() attempt: MessageAttempt): string[] {
    const headers = JSON.parse(attempt.requestHeaders) as Record<string, string>;
    return Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  }

  @FieldResolver(() => String, { nullable: true, description: `The \`${SIGNATURE_HEADER}\` header sent.` })
  signature(@Root() attempt: MessageAttempt): string | null {
    const headers = JSON.parse(attempt.requestHeaders) as Record<string, string>;
    return headers[SIGNATURE_HEADER] ?? null;
  }
}

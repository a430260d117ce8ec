import { Arg, Ctx, Field, FieldResolver, InputType, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { requireRole } from '../../shared/internalOnly.js';
import { PageInput } from '../../shared/pagination.js';
import { ProviderMessage } from '../ProviderMessage.js';
import { findDeliveries, pendingSendJobs, retryDelivery } from './deliveries.js';
import { StaffOnly } from '../../shared/staffOnly.js';

@InputType({ description: 'Messages to a provider, about a booking, in a status; every message without them.' })
class DeliveryFilterInput {
  @Field(() => Int, { nullable: true })
  providerId?: number | null;

  @Field(() => Int, { nullable: true })
  bookingId?: number | null;

  @Field(() => String, { nullable: true, description: 'PENDING, SENT or FAILED.' })
  status?: string | null;
}

/** Deliveries of messages to providers, as the back office follows them: internal-only. */
@Resolver(() => ProviderMessage)
export class DeliveryResolver {
  @StaffOnly()
  @Query(() => [ProviderMessage], {
    description: 'Internal tools: messages to providers and what became of them, one page in id order.',
  })
  deliveries(
    @Ctx() context: GraphContext,
    @Arg('filter', () => DeliveryFilterInput, { nullable: true }) filter: DeliveryFilterInput | null,
    @Arg('page', () => PageInput, { nullable: true }) page: PageInput | null,
  ): Promise<ProviderMessage[]> {
    requireRole(context.caller, 'support', 'read message deliveries');
    return findDeliveries(context.em, filter ?? {}, page ?? new PageInput());
  }

  @StaffOnly()
  @Mutation(() => ProviderMessage, { description: 'Internal tools: sends a message that was not delivered again now.' })
  retryDelivery(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<ProviderMessage> {
    requireRole(context.caller, 'support', 'retry message deliveries');
    return retryDelivery(context, id);
  }

  @FieldResolver(() => Int)
  providerId(@Root() message: ProviderMessage): number {
    return message.provider.id;
  }

  @FieldResolver(() => Int, { nullable: true })
  bookingId(@Root() message: ProviderMessage): number | null {
    return message.booking?.id ?? null;
  }

  @FieldResolver(() => String, {
    description: "What the message asks: a notification's action (BOOK, CANCEL), or CANCEL_TICKETS.",
  })
  action(@Root() message: ProviderMessage): string {
    if (message.kind === 'TICKET_CANCELLATION') return 'CANCEL_TICKETS';
    const body = JSON.parse(message.body) as { action?: unknown };
    return typeof body.action === 'string' ? body.action : message.kind;
  }

  @FieldResolver(() => Date, { nullable: true, description: 'When the next attempt is due; none once sent or failed.' })
  async nextAttemptAt(@Root() message: ProviderMessage, @Ctx() context: GraphContext): Promise<Date | null> {
    if (message.status !== 'PENDING') return null;
    return (await pendingSendJobs(context.em, [message.id])).get(message.id)?.runAt ?? null;
  }
}

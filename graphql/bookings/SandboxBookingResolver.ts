import { Arg, Ctx, Field, InputType, Int, Mutation, Resolver } from 'type-graphql';
import { callerProviderId } from '../offers/access.js';
import type { GraphContext } from '../shared/context.js';
import { emptySandboxRunTally } from '../shared/sandboxRun.js';
import { Beneficiary } from './Beneficiary.js';
import { Booking } from './Booking.js';
import { bookStock } from './bookingSaga.js';
import { TransitionRunAnswer } from './BookingResolver.js';
import { runBookingTransitions } from './periodicTransitions.js';
import { createBeneficiary, sandboxBeneficiary } from './sandboxBeneficiaries.js';

@InputType({ description: 'A test beneficiary.' })
class SandboxBeneficiaryInput {
  @Field(() => String) email!: string;
  @Field(() => String) firstName!: string;
  @Field(() => String) lastName!: string;
  @Field(() => String, { description: 'YYYY-MM-DD.' }) birthDate!: string;
  @Field(() => String, { nullable: true }) phoneNumber?: string | null;
  @Field(() => String, { nullable: true }) postalCode?: string | null;
}

@InputType({ description: 'A booking made as a test beneficiary.' })
class SandboxBookingInput {
  @Field(() => Int, { description: 'A date of an event, or the stock of a product, of yours.' }) stockId!: number;
  @Field(() => Int, { defaultValue: 1, description: '1, or 2 where the offer allows duo bookings.' }) quantity!: number;
  @Field(() => Int, {
    nullable: true,
    description: 'One of your test beneficiaries; by default your first one (created if need be).',
  })
  beneficiaryId?: number | null;
}

/**
 * The integration environment's stand-ins for the culture-pass app: test beneficiaries and
 * their bookings, and the clock of the periodic transitions. Not part of the production graph.
 */
@Resolver()
export class SandboxBookingResolver {
  @Mutation(() => Beneficiary, { description: 'Sandbox only: a test beneficiary with a 300 euro credit.' })
  sandboxCreateBeneficiary(
    @Ctx() context: GraphContext,
    @Arg('input', () => SandboxBeneficiaryInput) input: SandboxBeneficiaryInput,
  ): Promise<Beneficiary> {
    return createBeneficiary(context, input);
  }

  @Mutation(() => Booking, {
    description: 'Sandbox only: books a stock of yours as a test beneficiary, by every real rule.',
  })
  sandboxBook(
    @Ctx() context: GraphContext,
    @Arg('input', () => SandboxBookingInput) input: SandboxBookingInput,
  ): Promise<Booking> {
    return bookStock(context, input, (providerId) => sandboxBeneficiary(context, providerId, input.beneficiaryId));
  }

  @Mutation(() => TransitionRunAnswer, {
    description:
      'Sandbox only: runs the scheduled jobs due for you as if the clock read `at`: your bulk upserts by EAN ' +
      'still queued, the automatic approval of your offers, the publication of those whose time has come, then ' +
      'the periodic transitions of your bookings (used, expired, reimbursed).',
  })
  sandboxRunScheduledJobs(@Ctx() context: GraphContext, @Arg('at', () => Date) at: Date): Promise<TransitionRunAnswer> {
    const providerId = callerProviderId(context);
    return context.em.transactional(async (em) => {
      const done = emptySandboxRunTally();
      // The offers' subgraphs run their work due for the caller, in this transaction.
      await context.events.publish(em, 'sandbox.scheduledJobsDue', { providerId, at, done });
      return { ...(await runBookingTransitions(em, { now: () => at }, providerId)), ...done };
    });
  }
}

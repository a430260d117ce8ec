import { Arg, Ctx, Field, Int, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { graphEnum } from '../../shared/graphEnums.js';
import { ProviderMessage } from '../ProviderMessage.js';
import { checkTicketing, type TicketingCheckStepName } from './ticketingCheck.js';

const TicketingCheckStepEnum = graphEnum(
  'TicketingCheckStepName',
  ['BOOKING', 'CANCELLATION'] as const satisfies readonly TicketingCheckStepName[],
  'A call of the ticketing check.',
);

@ObjectType({ description: 'One call of the ticketing check: what was sent, what came back, what the platform did.' })
class TicketingCheckStep {
  @Field(() => TicketingCheckStepEnum) step!: TicketingCheckStepName;

  @Field(() => Boolean, { description: 'Whether your ticketing system was called at this step.' })
  called!: boolean;

  @Field(() => ProviderMessage, {
    nullable: true,
    description: 'The call, as recorded among your messages: the body and headers sent, each attempt and its answer.',
  })
  message!: ProviderMessage | null;

  @Field(() => Int, { nullable: true, description: "The answer's status; none when nothing came back." })
  statusCode!: number | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Whether the 2xx answer has the shape expected (`tickets`, `remainingQuantity`); none without one.',
  })
  expectedShape!: boolean | null;

  @Field(() => [String], { description: 'What the answer lacks or gets wrong, in words.' })
  shapeProblems!: string[];

  @Field(() => String, { description: 'What the platform did with the answer.' })
  outcome!: string;

  @Field(() => Boolean)
  succeeded!: boolean;
}

@ObjectType({ description: 'The report of a ticketing check.' })
class TicketingCheck {
  @Field(() => Boolean, { description: 'Both calls succeeded with answers of the expected shape.' })
  passed!: boolean;

  @Field(() => Int, { nullable: true, description: 'The sandbox booking made, if the booking call succeeded.' })
  bookingId!: number | null;

  @Field(() => [TicketingCheckStep])
  steps!: TicketingCheckStep[];
}

@Resolver()
export class TicketingCheckResolver {
  @Mutation(() => TicketingCheck, {
    description:
      'Outside production only: books one place of `stockId` (a date of an event of yours with tickets) for your ' +
      'test beneficiary by the real call to your booking URL, then cancels it by the real call to your ' +
      'cancellation URL, and reports each step. Both calls are recorded among your messages.',
  })
  checkTicketing(@Ctx() context: GraphContext, @Arg('stockId', () => Int) stockId: number): Promise<TicketingCheck> {
    return checkTicketing(context, stockId);
  }
}

import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { Field, InputType, Int } from 'type-graphql';

export type Quantity = number | 'unlimited';

function quantityFrom(value: unknown): Quantity {
  if (value === 'unlimited') return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw new GraphQLError('A quantity is a whole number of places (0 or more) or "unlimited"');
}

/** A number of places, or the string `unlimited`: the contract's quantity, as one value. */
export const QuantityScalar = new GraphQLScalarType({
  name: 'Quantity',
  description: 'A whole number of places (0 or more), or the string "unlimited".',
  serialize: quantityFrom,
  parseValue: quantityFrom,
  parseLiteral(ast) {
    if (ast.kind === Kind.INT) return quantityFrom(Number(ast.value));
    if (ast.kind === Kind.STRING) return quantityFrom(ast.value);
    throw new GraphQLError('A quantity is a whole number of places (0 or more) or "unlimited"');
  },
});

@InputType({ description: 'A new date of an event: one beginning at one price category.' })
export class EventDateCreationInput {
  @Field(() => Date, { description: 'In the future.' })
  beginningDatetime!: Date;

  @Field(() => Date, { description: 'Not after the beginning, nor before the publication of the event.' })
  bookingLimitDatetime!: Date;

  @Field(() => Int, { description: 'A price category of the same event.' })
  priceCategoryId!: number;

  @Field(() => QuantityScalar, { description: 'Places on sale: a positive number or "unlimited".' })
  quantity!: Quantity;

  @Field(() => String, { nullable: true, description: 'Your own identifier, unique among the dates of the event.' })
  idAtProvider?: string | null;
}

@InputType({
  description:
    'Changes to a date: absent or null fields stay as they are, except idAtProvider, which null clears. ' +
    'A beginningDatetime sent counts as a rescheduling, even when unchanged.',
})
export class EventDateEditionInput {
  @Field(() => Date, { nullable: true })
  beginningDatetime?: Date | null;

  @Field(() => Date, { nullable: true })
  bookingLimitDatetime?: Date | null;

  @Field(() => Int, { nullable: true })
  priceCategoryId?: number | null;

  @Field(() => QuantityScalar, {
    nullable: true,
    description: 'Places still on sale (booked ones come on top): 0 or more, or "unlimited".',
  })
  quantity?: Quantity | null;

  @Field(() => String, { nullable: true })
  idAtProvider?: string | null;
}

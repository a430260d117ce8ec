import { Arg, Ctx, Field, Float, InputType, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { NotFoundError } from '../../shared/errors.js';
import { Address } from '../Address.js';
import { findOrCreateAddress, searchAddresses } from './addressBook.js';

@InputType({ description: 'A French postal address; coordinates are optional.' })
export class AddressInput {
  @Field(() => String)
  street!: string;

  @Field(() => String)
  city!: string;

  @Field(() => String)
  postalCode!: string;

  @Field(() => Float, { nullable: true })
  latitude?: number | null;

  @Field(() => Float, { nullable: true })
  longitude?: number | null;
}

/** Addresses are shared reference data: every caller may record, find and read them. */
@Resolver(() => Address)
export class AddressResolver {
  @Mutation(() => Address, { description: 'Records an address, or returns the record of the same address.' })
  createAddress(@Ctx() context: GraphContext, @Arg('input', () => AddressInput) input: AddressInput): Promise<Address> {
    return findOrCreateAddress(context.em, context.services.geocoder, input);
  }

  @Query(() => [Address], { description: 'Recorded addresses matching a street, a city and a postal code.' })
  searchAddresses(
    @Ctx() context: GraphContext,
    @Arg('input', () => AddressInput) input: AddressInput,
  ): Promise<Address[]> {
    return searchAddresses(context.em, context.services.geocoder, input);
  }

  @Query(() => Address, { description: 'A recorded address.' })
  async address(@Ctx() context: GraphContext, @Arg('id', () => Int) id: number): Promise<Address> {
    const address = await context.em.findOne(Address, id);
    if (!address) throw new NotFoundError('Address not found');
    return address;
  }
}

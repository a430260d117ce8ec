import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'An offer image: a working URL served by the platform, and its credit.' })
export class OfferImage {
  @Field(() => String)
  url!: string;

  @Field(() => String, { nullable: true })
  credit!: string | null;
}

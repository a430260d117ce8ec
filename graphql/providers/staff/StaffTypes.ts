import { Field, Int, ObjectType } from 'type-graphql';
import { ApiKey } from '../ApiKey.js';

@ObjectType({ description: 'A new API key. The key is shown in this answer only.' })
export class IssuedApiKeyPayload {
  @Field(() => String, { description: 'The clear key: store it now, it is never shown again.' })
  key!: string;

  @Field(() => ApiKey)
  apiKey!: ApiKey;
}

@ObjectType({ description: "Internal tools: a provider's new messaging secret, shown in this answer only." })
export class MessagingSecretPayload {
  @Field(() => Int)
  providerId!: number;

  @Field(() => String, { description: 'Signs every message from now on; the old one no longer does.' })
  secret!: string;
}

@ObjectType({ description: "Internal tools: a provider's link to a venue, with the venue's own messaging URLs." })
export class VenueLink {
  @Field(() => Int)
  venueId!: number;

  @Field(() => String)
  venueName!: string;

  @Field(() => String, { nullable: true })
  siret!: string | null;

  @Field(() => Int)
  offererId!: number;

  @Field(() => Boolean)
  isActive!: boolean;

  @Field(() => String, { nullable: true })
  bookingUrl!: string | null;

  @Field(() => String, { nullable: true })
  cancelUrl!: string | null;

  @Field(() => String, { nullable: true })
  notificationUrl!: string | null;
}

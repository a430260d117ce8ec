import { Arg, Ctx, Field, FieldResolver, Float, InputType, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { PAGE_SIZE_MAX } from '../../shared/pagination.js';
import type { RequestLogEntry } from '../../../platform/requestLog/index.js';
import { bodiesOf, findRecordedRequest, findRecordedRequests } from './recordedRequests.js';

@ObjectType('RecordedRequest', {
  description:
    "A request made with one of the provider's keys to the REST API, as it was answered: kept 7 days. " +
    'No header is kept. JSON bodies are kept up to 64 KB each, the rest cut (marked by the *Truncated fields).',
})
class RecordedRequest {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { description: 'The X-Request-Id of the answer.' })
  requestId!: string;

  @Field(() => Date, { description: 'When the request arrived.' })
  createdAt!: Date;

  @Field(() => String)
  method!: string;

  @Field(() => String, { description: 'The path as requested, without its query.' })
  path!: string;

  @Field(() => String, { nullable: true, description: 'The query string as requested, without its "?".' })
  query!: string | null;

  @Field(() => String, { nullable: true, description: 'The operation that answered; none for an unknown path.' })
  operationId!: string | null;

  @Field(() => Int)
  status!: number;

  @Field(() => Float)
  durationMs!: number;

  @Field(() => Int)
  providerId!: number;

  @Field(() => Int)
  apiKeyId!: number;

  @Field(() => String, { description: 'The prefix of the key used (the part before the secret).' })
  apiKeyPrefix!: string;
}

@InputType({ description: 'Requests that match every field given; every request without them.' })
class RecordedRequestFilter {
  @Field(() => Int, {
    nullable: true,
    description: "Internal tools: one provider's requests (a provider key: its own).",
  })
  providerId?: number | null;

  @Field(() => String, { nullable: true, description: 'A class of statuses: 2xx, 4xx, 5xx (1xx to 5xx).' })
  statusClass?: string | null;

  @Field(() => String, { nullable: true, description: 'The operationId of the REST operation (PostEventOffer…).' })
  operationId?: string | null;

  @Field(() => String, { nullable: true, description: 'The path as requested, or its beginning.' })
  path?: string | null;

  @Field(() => String, { nullable: true, description: 'The X-Request-Id of the answer.' })
  requestId?: string | null;
}

@InputType({ description: 'Requests recorded before an id (the last of the page before), newest first.' })
class RecordedRequestPage {
  @Field(() => Int, { nullable: true })
  before?: number | null;

  @Field(() => Int, { defaultValue: PAGE_SIZE_MAX })
  limit: number = PAGE_SIZE_MAX;
}

/** The integrator's console: the requests made with the caller's provider's keys. */
@Resolver(() => RecordedRequest)
export class RequestLogResolver {
  @Query(() => [RecordedRequest], {
    description:
      "The requests made with the provider's keys over the last 7 days, newest first (without the bodies " +
      'unless asked). A provider key reads its own provider; internal tools every provider, or the one named.',
  })
  requests(
    @Ctx() context: GraphContext,
    @Arg('filter', () => RecordedRequestFilter, { nullable: true }) filter: RecordedRequestFilter | null,
    @Arg('page', () => RecordedRequestPage, { nullable: true }) page: RecordedRequestPage | null,
  ): Promise<RequestLogEntry[]> {
    return findRecordedRequests(context.em, context.caller, filter ?? {}, page ?? {});
  }

  @Query(() => RecordedRequest, {
    nullable: true,
    description: 'One request by the X-Request-Id of its answer (the newest of that id), with its bodies.',
  })
  request(
    @Ctx() context: GraphContext,
    @Arg('requestId', () => String) requestId: string,
    @Arg('providerId', () => Int, { nullable: true }) providerId: number | null,
  ): Promise<RequestLogEntry | null> {
    return findRecordedRequest(context.em, context.caller, requestId, providerId);
  }

  @FieldResolver(() => String, { nullable: true, description: 'The JSON body sent, as text (up to 64 KB).' })
  async requestBody(@Root() entry: RequestLogEntry, @Ctx() context: GraphContext): Promise<string | null> {
    return (await bodiesOf(context.em, entry)).requestBody;
  }

  @FieldResolver(() => Boolean, { description: 'Whether the body sent was longer than 64 KB, and cut.' })
  async requestBodyTruncated(@Root() entry: RequestLogEntry, @Ctx() context: GraphContext): Promise<boolean> {
    return (await bodiesOf(context.em, entry)).requestBodyTruncated;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'The JSON answer as sent, a refusal’s error included, as text (up to 64 KB).',
  })
  async responseBody(@Root() entry: RequestLogEntry, @Ctx() context: GraphContext): Promise<string | null> {
    return (await bodiesOf(context.em, entry)).responseBody;
  }

  @FieldResolver(() => Boolean, { description: 'Whether the answer was longer than 64 KB, and cut.' })
  async responseBodyTruncated(@Root() entry: RequestLogEntry, @Ctx() context: GraphContext): Promise<boolean> {
    return (await bodiesOf(context.em, entry)).responseBodyTruncated;
  }
}

import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphContext } from '../../shared/context.js';
import { ApiKey } from '../ApiKey.js';
import { IssuedApiKeyPayload } from '../staff/StaffTypes.js';
import { issueMyApiKey, listMyApiKeys, revokeMyApiKey } from './myApiKeys.js';

/** The integrator's console (and scripts, with a provider key): the provider's own keys. */
@Resolver(() => ApiKey)
export class MyApiKeyResolver {
  @Query(() => [ApiKey], {
    description:
      "The caller's provider's keys, revoked ones included, in issue order (a key limited to an offerer: " +
      "that offerer's). For a provider's key or console session.",
  })
  myApiKeys(@Ctx() context: GraphContext): Promise<ApiKey[]> {
    return listMyApiKeys(context.em, context.caller);
  }

  @Mutation(() => IssuedApiKeyPayload, {
    description:
      "Issues a new key to the caller's provider (limited to the caller's offerer when the caller is). " +
      'The key is in this answer only.',
  })
  async issueMyApiKey(
    @Ctx() context: GraphContext,
    @Arg('label', () => String, { nullable: true }) label: string | null,
  ): Promise<IssuedApiKeyPayload> {
    const issued = await issueMyApiKey(context.em, context.clock, context.caller, { env: context.appEnv, label });
    return { key: issued.key, apiKey: issued.apiKey };
  }

  @Mutation(() => ApiKey, {
    description:
      "Revokes one of the caller's provider's keys, named by its prefix or its id: it gets 401 from then on, " +
      'and the console sessions opened with it end. Revoking the key of the calling session signs it out.',
  })
  revokeMyApiKey(
    @Ctx() context: GraphContext,
    @Arg('prefix', () => String, { nullable: true }) prefix: string | null,
    @Arg('id', () => Int, { nullable: true }) id: number | null,
  ): Promise<ApiKey> {
    return revokeMyApiKey(context.em, context.clock, context.caller, { prefix, id });
  }
}

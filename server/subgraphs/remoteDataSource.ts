import { type GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import { GraphQLError } from 'graphql';
import type { RemoteSubgraph } from '../../graphql/gateway.js';
import type { GraphContext } from '../../graphql/shared/context.js';
import { ServiceUnavailableError } from '../../rest-facade/httpErrors.js';
import type { SubgraphLink } from './link.js';

/** The code /graphql answers a field with when the service that resolves it is down: its data is null, the rest stands. */
export const SERVICE_UNAVAILABLE_CODE = 'SERVICE_UNAVAILABLE';

/**
 * Apollo's data source for a subgraph over HTTP, through the link's connections: each fetch of a
 * query plan carries the signed caller and the request id; a service that is down, late or
 * serves another schema fails its fetches with SERVICE_UNAVAILABLE, and the gateway answers the
 * other fields.
 */
class LinkedDataSource extends RemoteGraphQLDataSource<GraphContext> {
  constructor(private readonly link: SubgraphLink) {
    super({ url: link.url, fetcher: link.fetcher });
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GraphContext>): void {
    // A request's fetches carry its context; the gateway's own (none today: the supergraph is static) do not.
    const { request } = options;
    const context = options.context as Partial<GraphContext>;
    if (!context.caller) return;
    const headers = this.link.headersFor({
      caller: context.caller,
      callerProvider: context.callerProvider ?? null,
      requestId: context.requestId,
    });
    for (const [name, value] of Object.entries(headers)) request.http?.headers.set(name, value);
  }

  override didEncounterError(
    ...[error, ...rest]: Parameters<RemoteGraphQLDataSource<GraphContext>['didEncounterError']>
  ): void {
    if (error instanceof ServiceUnavailableError) {
      throw new GraphQLError(error.message, { extensions: { code: SERVICE_UNAVAILABLE_CODE, service: error.service } });
    }
    super.didEncounterError(error, ...rest);
  }
}

export function remoteSubgraph(link: SubgraphLink): RemoteSubgraph {
  return { url: link.url, dataSource: new LinkedDataSource(link) };
}

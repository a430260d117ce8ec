import { type GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import type { FetcherResponse } from '@apollo/utils.fetcher';
import { GraphQLError } from 'graphql';
import type { RemoteSubgraph } from '../../graphql/gateway.js';
import type { GraphContext } from '../../graphql/shared/context.js';
import { ServiceUnavailableError } from '../../rest-facade/httpErrors.js';
import { HOP_PLACEHOLDER_HEADER, SERVICE_UNAVAILABLE_CODE, type SubgraphLink } from './link.js';
import { SCHEMA_MISMATCH_STATUS } from './signedCaller.js';
import type { Logger } from '../logger.js';
import type { HopCaller } from './signedCaller.js';

export { SERVICE_UNAVAILABLE_CODE };

/** Statuses a proxy or the service answers when it cannot serve now: the field's service is unavailable. */
const UNAVAILABLE_STATUSES = new Set([SCHEMA_MISMATCH_STATUS, 502, 503, 504]);

function unavailable(service: string): GraphQLError {
  // The reason (a refused connection, a deadline) is the operator's, not the caller's: it is logged (didEncounterError).
  return new GraphQLError(`The ${service} service is unavailable: try again in a few seconds`, {
    extensions: { code: SERVICE_UNAVAILABLE_CODE, service },
  });
}

/**
 * Apollo's data source for a subgraph over HTTP, through the link's connections: each fetch of a
 * query plan carries the signed caller and the request id; a service that is down, late or
 * serves another schema fails its fetches with SERVICE_UNAVAILABLE, and the gateway answers the
 * other fields.
 */
class LinkedDataSource extends RemoteGraphQLDataSource<GraphContext> {
  constructor(
    private readonly link: SubgraphLink,
    private readonly logger: Logger,
  ) {
    super({ url: link.url, fetcher: link.fetcher });
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GraphContext>): void {
    // A request's fetches carry its context; the gateway's own (none today: the supergraph is static) do not.
    const context = options.context as Partial<GraphContext>;
    if (!context.caller) return;
    const hop: HopCaller = {
      caller: context.caller,
      callerProvider: context.callerProvider ?? null,
      requestId: context.requestId,
    };
    // Signed by the link's fetcher, which has the body the signature covers.
    options.request.http?.headers.set(HOP_PLACEHOLDER_HEADER, JSON.stringify(hop));
  }

  /** Apollo's own would pass the service's URL and answer on to the caller in the error's extensions. */
  override errorFromResponse(response: FetcherResponse): Promise<GraphQLError> {
    if (UNAVAILABLE_STATUSES.has(response.status)) return Promise.resolve(unavailable(this.link.name));
    return Promise.resolve(
      new GraphQLError(`The ${this.link.name} service answered ${response.status}`, {
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      }),
    );
  }

  override didEncounterError(
    ...[error, ...rest]: Parameters<RemoteGraphQLDataSource<GraphContext>['didEncounterError']>
  ): void {
    if (error instanceof ServiceUnavailableError) {
      this.logger.warn({ err: error.message }, 'subgraph service unavailable');
      throw unavailable(error.service);
    }
    super.didEncounterError(error, ...rest);
  }
}

export function remoteSubgraph(link: SubgraphLink, logger: Logger): RemoteSubgraph {
  return { url: link.url, dataSource: new LinkedDataSource(link, logger) };
}

import type { RemoteSubgraph } from '../../graphql/gateway.js';
import type { Graph } from '../../graphql/graph.js';
import type { SubgraphName } from '../../graphql/subgraphNames.js';
import type { RemoteExecutor } from '../../rest-facade/router.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { serviceSdlOf, SubgraphLink } from './link.js';
import { remoteSubgraph } from './remoteDataSource.js';

export type SubgraphLinks = Partial<Record<SubgraphName, SubgraphLink>>;

/** A service on SUBGRAPH_URLS that serves another schema than this process's code: the process must not start. */
export class ForeignSubgraphError extends Error {}

function entriesOf(links: SubgraphLinks): [SubgraphName, SubgraphLink][] {
  return Object.entries(links) as [SubgraphName, SubgraphLink][];
}

function mapLinks<T>(links: SubgraphLinks, map: (link: SubgraphLink) => T): Partial<Record<SubgraphName, T>> {
  return Object.fromEntries(entriesOf(links).map(([name, link]) => [name, map(link)]));
}

/**
 * A link to each service on SUBGRAPH_URLS, its schema checked against this process's: a service
 * that answers with another schema stops the start-up (its documents and this process's would
 * disagree); one that does not answer yet is only logged, and its routes answer 503 until it does.
 */
export async function connectSubgraphs(config: Config, graph: Graph, logger: Logger): Promise<SubgraphLinks> {
  const links: SubgraphLinks = {};
  for (const [name, url] of Object.entries(config.subgraphUrls) as [SubgraphName, string][]) {
    links[name] = new SubgraphLink({
      name,
      url,
      // config.ts requires the secret whenever SUBGRAPH_URLS names a service.
      secret: config.internalSigningSecret!,
      timeoutMs: config.subgraphTimeoutMs,
      expectedSdl: serviceSdlOf(graph.subgraphs[name].schema),
    });
  }
  const checks = await Promise.all(
    entriesOf(links).map(async ([name, link]) => [name, await link.checkSchema()] as const),
  );
  const foreign = checks.filter(([, check]) => check === 'different').map(([name]) => name);
  if (foreign.length > 0) {
    await closeSubgraphLinks(links);
    throw new ForeignSubgraphError(
      `SUBGRAPH_URLS: ${foreign.map((name) => `${name} (${config.subgraphUrls[name]})`).join(', ')} serve(s) ` +
        "another schema than this process's code: run the same version of the platform in every process",
    );
  }
  for (const [name, check] of checks) {
    if (check === 'unreachable') {
      logger.warn(
        { subgraph: name, url: config.subgraphUrls[name] },
        'subgraph service unreachable at start-up: its routes answer 503 until it answers',
      );
    }
  }
  return links;
}

/** How the facade runs a route's document on each linked service, for the request's caller. */
export function remoteExecutors(links: SubgraphLinks): Partial<Record<SubgraphName, RemoteExecutor>> {
  return mapLinks(
    links,
    (link): RemoteExecutor =>
      (operationId, variables, context) =>
        link.runRoute(operationId, variables, {
          caller: context.caller,
          callerProvider: context.callerProvider ?? null,
          requestId: context.requestId,
        }),
  );
}

/** What the gateway plans across for each linked service. */
export function remoteSubgraphs(links: SubgraphLinks, logger: Logger): Partial<Record<SubgraphName, RemoteSubgraph>> {
  return mapLinks(links, (link) => remoteSubgraph(link, logger));
}

export async function closeSubgraphLinks(links: SubgraphLinks): Promise<void> {
  await Promise.all(entriesOf(links).map(([, link]) => link.close()));
}

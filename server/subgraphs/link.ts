import {
  type ExecutionResult,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  execute,
  parse,
} from 'graphql';
import type { Fetcher } from '@apollo/utils.fetcher';
import { fetch as undiciFetch, Pool } from 'undici';
import type { SubgraphName } from '../../graphql/subgraphNames.js';
import { ServiceUnavailableError } from '../../rest-facade/httpErrors.js';
import { activeTraceParent, inSpan, SpanKind } from '../../platform/tracing.js';
import type { RouteOutcome } from '../../rest-facade/router.js';
import type { HopAnswer } from './hopFrames.js';
import { HopSocket } from './hopSocket.js';
import { routeCallBody, routeTableDigest } from './routeCalls.js';
import { digestOf, type HopCaller, SCHEMA_MISMATCH_STATUS, SIGNED_CALLER_HEADER, signCaller } from './signedCaller.js';

/** The code /graphql answers a field with when the service that resolves it is down: its data is null, the rest stands. */
export const SERVICE_UNAVAILABLE_CODE = 'SERVICE_UNAVAILABLE';

const SERVICE_SDL_QUERY = '{ _service { sdl } }';

/** The schema a subgraph serves, as `_service { sdl }` gives it to composition tools. */
export function serviceSdlOf(schema: GraphQLSchema): string {
  const result = execute({ schema, document: parse(SERVICE_SDL_QUERY) }) as ExecutionResult<{
    _service: { sdl: string };
  }>;
  if (!result.data) throw new Error(`the subgraph does not answer _service: ${result.errors?.join('; ')}`);
  return result.data._service.sdl;
}

export interface SubgraphLinkOptions {
  name: SubgraphName;
  url: string;
  secret: string;
  timeoutMs: number;
  /** What this process's code says the subgraph serves: a service serving anything else is refused. */
  expectedSdl: string;
}

export type SchemaCheck = 'same' | 'different' | 'unreachable';

/**
 * The gateway's data source sets the caller here as JSON; the link's fetcher, which alone sees the
 * body, replaces it with the signed header (server/subgraphs/remoteDataSource.ts).
 */
export const HOP_PLACEHOLDER_HEADER = 'x-platform-hop-unsigned';

/**
 * The API process's connection to one subgraph service: keep-alive connections, a deadline on
 * every call, and the caller signed on every call that reads or writes, bound to the body and to
 * the schema this process expects, so that a service of another build (restarted while idle, or
 * at another address) refuses the call before it runs anything.
 */
export class SubgraphLink {
  readonly name: SubgraphName;
  readonly url: string;
  private readonly path: string;
  private readonly pool: Pool;
  private readonly socket: HopSocket;
  private readonly secret: string;
  private readonly timeoutMs: number;
  private readonly expectedSdl: string;
  private readonly schemaDigest: string;
  private readonly routeTableDigest: string;

  constructor(options: SubgraphLinkOptions) {
    this.name = options.name;
    this.url = options.url;
    const url = new URL(options.url);
    this.path = `${url.pathname}${url.search}`;
    this.pool = new Pool(url.origin, { connections: 64, keepAliveTimeout: 30_000 });
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    this.socket = new HopSocket(url.toString(), options.timeoutMs);
    this.secret = options.secret;
    this.timeoutMs = options.timeoutMs;
    this.expectedSdl = options.expectedSdl;
    this.schemaDigest = digestOf(options.expectedSdl);
    this.routeTableDigest = routeTableDigest(options.name, options.expectedSdl);
  }

  /** Headers that make a call to the service with `body` on behalf of `hop`'s caller. */
  headersFor(hop: HopCaller, body: string): Record<string, string> {
    return {
      [SIGNED_CALLER_HEADER]: signCaller(this.secret, hop, {
        schemaDigest: this.schemaDigest,
        bodyDigest: digestOf(body),
      }),
      ...(hop.requestId ? { 'x-request-id': hop.requestId } : {}),
    };
  }

  /**
   * Runs one of the subgraph's routes on the service for `hop`'s caller, over the hop's WebSocket
   * (decision 036), and gives its answer as the service wrote it; the service down, late or of
   * another build: ServiceUnavailableError.
   */
  runRoute(operationId: string, variables: Record<string, unknown>, hop: HopCaller): Promise<RouteOutcome> {
    return inSpan(`hop ${this.name}`, { kind: SpanKind.CLIENT, attributes: { subgraph: this.name } }, async () => {
      const body = routeCallBody({ operationId, variables });
      const signed = signCaller(this.secret, hop, { schemaDigest: this.routeTableDigest, bodyDigest: digestOf(body) });
      let answer: HopAnswer;
      try {
        answer = await this.socket.call(signed, activeTraceParent(), body);
      } catch (error) {
        throw new ServiceUnavailableError(this.name, error instanceof Error ? error.message : String(error));
      }
      return this.outcomeOf(answer);
    });
  }

  private outcomeOf(answer: HopAnswer): RouteOutcome {
    if (answer.outcome === 'answer') return { status: answer.status, json: answer.status === 204 ? null : answer.body };
    if (answer.outcome === 'refused') {
      if (answer.status === SCHEMA_MISMATCH_STATUS) {
        throw new ServiceUnavailableError(
          this.name,
          'it serves another schema or other routes than this process expects',
        );
      }
      // Ours to fix, not the caller's: another secret, clocks more than a minute apart, a bug.
      const refused = answer.status === 401 ? "this process's signature" : `this process's call (${answer.status})`;
      throw new Error(`the ${this.name} service refused ${refused}: ${answer.body}`);
    }
    const body = parseJson(answer.body);
    if (!isGraphqlAnswer(body) || !body.errors?.length) {
      throw new ServiceUnavailableError(this.name, 'answered errors without a GraphQL error');
    }
    // The service is up but its database is not: to the caller, the service is unavailable all the same.
    const unavailable = body.errors.find((error) => error.extensions?.code === SERVICE_UNAVAILABLE_CODE);
    if (unavailable) throw new ServiceUnavailableError(this.name, unavailable.message);
    return {
      errors: body.errors.map(
        (error) => new GraphQLError(error.message, { path: error.path, extensions: error.extensions }),
      ),
    };
  }

  /** Asks the service for its schema (unsigned: the schema is public to composition tools). */
  async checkSchema(): Promise<SchemaCheck> {
    try {
      const answer = await this.post(JSON.stringify({ query: SERVICE_SDL_QUERY }), {});
      const sdl = (answer.body as { data?: { _service?: { sdl?: unknown } } } | null)?.data?._service?.sdl;
      if (typeof sdl !== 'string') return 'unreachable';
      return sdl === this.expectedSdl ? 'same' : 'different';
    } catch (error) {
      if (error instanceof ServiceUnavailableError) return 'unreachable';
      throw error;
    }
  }

  /** For the gateway's data source, which speaks fetch: the same connections, deadline and signature. */
  readonly fetcher: Fetcher = async (url, init = {}) => {
    const { [HOP_PLACEHOLDER_HEADER]: unsigned, ...headers } = init.headers ?? {};
    const body = typeof init.body === 'string' ? init.body : (init.body?.toString('utf8') ?? '');
    const signed = unsigned ? this.headersFor(JSON.parse(unsigned) as HopCaller, body) : {};
    try {
      return await undiciFetch(url, {
        ...init,
        headers: { ...headers, ...signed },
        dispatcher: this.pool,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new ServiceUnavailableError(this.name, describe(error));
    }
  };

  async close(): Promise<void> {
    await Promise.all([this.socket.close(), this.pool.close()]);
  }

  private async post(body: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
    try {
      const response = await this.pool.request({
        path: this.path,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await response.body.text();
      return { status: response.statusCode, body: parseJson(text) };
    } catch (error) {
      throw new ServiceUnavailableError(this.name, describe(error));
    }
  }
}

interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
}

function isGraphqlAnswer(body: unknown): body is GraphqlAnswer {
  if (typeof body !== 'object' || body === null) return false;
  return 'data' in body || Array.isArray((body as GraphqlAnswer).errors);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timed out';
  const code =
    (error as { code?: unknown; cause?: { code?: unknown } }).code ??
    (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

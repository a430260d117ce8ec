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
import { type HopCaller, SIGNED_CALLER_HEADER, signCaller } from './signedCaller.js';

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

/** Whether the service was asked which schema it serves since it last answered, and what it said. */
type SchemaState = 'unchecked' | 'same' | 'different';

export type SchemaCheck = 'same' | 'different' | 'unreachable';

/**
 * The API process's connection to one subgraph service: keep-alive connections, a deadline on
 * every call, the caller signed on every call that reads or writes, and the service's schema
 * checked against this process's before the first call and again after the service was lost
 * (a service restarted with other code must not be trusted with documents written for this one).
 */
export class SubgraphLink {
  readonly name: SubgraphName;
  readonly url: string;
  private readonly path: string;
  private readonly pool: Pool;
  private readonly secret: string;
  private readonly timeoutMs: number;
  private readonly expectedSdl: string;
  private schema: SchemaState = 'unchecked';
  private checking: Promise<SchemaCheck> | null = null;

  constructor(options: SubgraphLinkOptions) {
    this.name = options.name;
    this.url = options.url;
    const url = new URL(options.url);
    this.path = `${url.pathname}${url.search}`;
    this.pool = new Pool(url.origin, { connections: 64, keepAliveTimeout: 30_000 });
    this.secret = options.secret;
    this.timeoutMs = options.timeoutMs;
    this.expectedSdl = options.expectedSdl;
  }

  /** Headers that make a call to the service on behalf of `hop`'s caller. */
  headersFor(hop: HopCaller): Record<string, string> {
    return {
      [SIGNED_CALLER_HEADER]: signCaller(this.secret, hop),
      ...(hop.requestId ? { 'x-request-id': hop.requestId } : {}),
    };
  }

  /** Runs a document on the service for `hop`'s caller; the service down, late or foreign: ServiceUnavailableError. */
  async execute(query: string, variables: Record<string, unknown>, hop: HopCaller): Promise<ExecutionResult> {
    await this.ensureSameSchema();
    const answer = await this.post(JSON.stringify({ query, variables }), this.headersFor(hop));
    if (!isGraphqlAnswer(answer.body)) {
      throw this.lost(`answered ${answer.status} without a GraphQL result`);
    }
    return {
      data: answer.body.data ?? null,
      errors: answer.body.errors?.map(
        (error) => new GraphQLError(error.message, { path: error.path, extensions: error.extensions }),
      ),
    };
  }

  /** Asks the service for its schema (unsigned: the schema is public to composition tools). */
  async checkSchema(): Promise<SchemaCheck> {
    try {
      const answer = await this.post(JSON.stringify({ query: SERVICE_SDL_QUERY }), {});
      const sdl = (answer.body as { data?: { _service?: { sdl?: unknown } } } | null)?.data?._service?.sdl;
      if (typeof sdl !== 'string') return this.unreachable();
      this.schema = sdl === this.expectedSdl ? 'same' : 'different';
      return this.schema;
    } catch (error) {
      if (error instanceof ServiceUnavailableError) return this.unreachable();
      throw error;
    }
  }

  /** For the gateway's data source, which speaks fetch: the same connections and deadline. */
  readonly fetcher: Fetcher = async (url, init) => {
    await this.ensureSameSchema();
    try {
      const response = await undiciFetch(url, {
        ...init,
        dispatcher: this.pool,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return response;
    } catch (error) {
      throw this.lost(describe(error));
    }
  };

  close(): Promise<void> {
    return this.pool.close();
  }

  private async ensureSameSchema(): Promise<void> {
    if (this.schema === 'same') return;
    if (this.schema === 'unchecked') {
      this.checking ??= this.checkSchema().finally(() => (this.checking = null));
      const check = await this.checking;
      if (check === 'unreachable') throw new ServiceUnavailableError(this.name, 'it does not answer');
    }
    if (this.schema === 'different') {
      throw new ServiceUnavailableError(this.name, 'it serves another schema than this process expects');
    }
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
      throw this.lost(describe(error));
    }
  }

  private lost(reason: string): ServiceUnavailableError {
    // Whatever answers next may be another build: ask again before trusting it.
    this.schema = 'unchecked';
    return new ServiceUnavailableError(this.name, reason);
  }

  private unreachable(): SchemaCheck {
    this.schema = 'unchecked';
    return 'unreachable';
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

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenTelemetry collector for tests: an HTTP server on 127.0.0.1 that takes OTLP traces in
 * the http/json encoding (`POST /v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL=http/json) from the
 * processes a test starts, and keeps every span, flattened.
 */

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a trace's root. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** The resource's service.name: which process sent it. */
  service: string;
  /** The instrumentation scope: `@opentelemetry/instrumentation-pg`, or `provider-platform` for ours. */
  scope: string;
  attributes: Record<string, string | number | boolean | undefined>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

function valueOf(value: OtlpValue): string | number | boolean | undefined {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.boolValue ?? value.doubleValue;
}

function attributesOf(attributes: OtlpAttribute[] = []): ReceivedSpan['attributes'] {
  return Object.fromEntries(attributes.map(({ key, value }) => [key, valueOf(value)]));
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];

  private constructor(
    private readonly server: Server,
    /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporter adds `/v1/traces`. */
    readonly endpoint: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url !== '/v1/traces' || !request.headers['content-type']?.startsWith('application/json')) {
          response.writeHead(415).end();
          return;
        }
        receiver.add(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    return receiver;
  }

  private add(exported: OtlpExport): void {
    for (const resourceSpans of exported.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            service,
            scope: scopeSpans.scope?.name ?? '',
            attributes: attributesOf(span.attributes),
          });
        }
      }
    }
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** The chain of parents of `span` in its trace, nearest first, as far as they were received. */
  ancestors(span: ReceivedSpan): ReceivedSpan[] {
    const byId = new Map(this.trace(span.traceId).map((each) => [each.spanId, each]));
    const chain: ReceivedSpan[] = [];
    for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) chain.push(parent);
    return chain;
  }

  /** Resolves with the first span that matches, once received; fails after `timeoutMs`. */
  async waitFor(predicate: (span: ReceivedSpan) => boolean, what: string, timeoutMs = 15_000): Promise<ReceivedSpan> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.spans.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) {
        const names = [...new Set(this.spans.map((span) => `${span.service}: ${span.name}`))].join('\n  ');
        throw new Error(`No span ${what} after ${timeoutMs} ms; received:\n  ${names}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

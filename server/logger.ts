import { trace } from '@opentelemetry/api';
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * The trace and span a line was written in, as OpenTelemetry's log data model names them, so a
 * line found in the logs leads to its trace and back.
 */
function traceIds(): Record<string, string> {
  const span = trace.getActiveSpan()?.spanContext();
  return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

/**
 * Structured logs. The redaction paths are a second line of defence: nothing should
 * put a key or a secret in a log line in the first place.
 */
export function createLogger(level: Config['logLevel'], options: { traceIds?: boolean } = {}): Logger {
  return pino(
    {
      level,
      base: undefined,
      // Only when tracing is on: without it no line has a span, and the lookup would be paid for nothing.
      ...(options.traceIds ? { mixin: traceIds } : {}),
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          '*.apiKey',
          '*.secret',
          '*.messagingSecret',
          'key',
        ],
        censor: '[redacted]',
      },
    },
    // Written as logged: pino's default asynchronous writer let a request's line, logged before
    // "stopped", reach stdout after it when the machine was busy.
    pino.destination({ dest: 1, sync: true }),
  );
}

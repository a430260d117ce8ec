import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import type { CaughtBody, RequestLogWriter } from '../../platform/requestLog/index.js';
import type { Clock } from '../../platform/time/clock.js';

/**
 * Records each request made with a provider's key, for the integrator's console: the request
 * line, the operation, the answer's status, duration and request id, the key's prefix, and the
 * JSON bodies both ways (the answer's as sent, a refusal's error included). Never a header, so
 * never the `Authorization` header or anything secret it carries.
 *
 * On the request path it only keeps a reference to the answer's body as Express ends it and,
 * once the answer is sent, hands one entry to the writer's buffer; text, cutting and the insert
 * happen in the writer, in batches.
 */
export function recordRequests(writer: RequestLogWriter, clock: Clock): RequestHandler {
  return (req, res, next) => {
    const createdAt = clock.now();
    const started = performance.now();
    let answerBody: CaughtBody | null = null;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    // Express ends an answer with its whole body, a string or a Buffer: a reference is kept, no copy.
    res.end = ((...args: unknown[]) => {
      const chunk = args[0];
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) answerBody = chunk;
      return end(...args);
    }) as Response['end'];
    res.on('finish', () => {
      const caller = res.locals.caller;
      if (caller?.kind !== 'provider') return;
      const url = req.originalUrl;
      const queryAt = url.indexOf('?');
      writer.record({
        providerId: caller.providerId,
        apiKeyId: caller.apiKeyId,
        apiKeyPrefix: caller.apiKeyPrefix,
        requestId: res.locals.requestId ?? '',
        createdAt,
        method: req.method,
        path: queryAt === -1 ? url : url.slice(0, queryAt),
        query: queryAt === -1 || queryAt === url.length - 1 ? null : url.slice(queryAt + 1),
        operationId: res.locals.operationId ?? null,
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        requestBody: res.locals.rawRequestBody ?? null,
        responseBody: isJson(res.getHeader('Content-Type')) ? answerBody : null,
      });
    });
    next();
  };
}

/**
 * Hands the JSON body reader's raw bytes to the recorder (its `verify` hook, called before the
 * parse): the body exactly as sent, malformed JSON included, without serializing it again.
 */
export function keepRawBody(_req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  // Express's response, typed by the body parser as the bare one.
  (res as Response).locals.rawRequestBody = body;
}

function isJson(contentType: ReturnType<Response['getHeader']>): boolean {
  return typeof contentType === 'string' && /^application\/([\w.+-]*\+)?json\b/i.test(contentType);
}

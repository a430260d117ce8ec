import type { RequestHandler } from 'express';
import type { Caller } from '../../graphql/shared/caller.js';
import type { Logger } from '../logger.js';

/** Who made the request, without a secret: a key's prefix, or a person's subject at the identity provider. */
export function keyOrPersonOf(caller: Caller | undefined): { apiKeyPrefix?: string; staffSubject?: string } {
  if (!caller) return {};
  return caller.kind === 'staff' ? { staffSubject: caller.subject } : { apiKeyPrefix: caller.apiKeyPrefix };
}

/** One line per request once it is answered: never headers, bodies or query values. */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          path: req.baseUrl + req.path,
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
          ...keyOrPersonOf(res.locals.caller),
        },
        'request',
      );
    });
    next();
  };
}

import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';

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
          apiKeyPrefix: res.locals.caller?.apiKeyPrefix,
        },
        'request',
      );
    });
    next();
  };
}

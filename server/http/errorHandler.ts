import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDatabaseUnavailable } from '../../platform/sql/databaseUnavailable.js';
import {
  answerForError,
  databaseUnavailableAnswer,
  internalErrorAnswer,
  ServiceUnavailableError,
} from '../../rest-facade/httpErrors.js';
import type { Logger } from '../logger.js';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Answers for errors thrown before or around an operation; domain errors map in rest-facade/httpErrors. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: BodyParserError, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error.type === 'entity.too.large') {
      res.status(413).json({ global: ['The request body is too large'] });
      return;
    }
    if (error.type === 'entity.parse.failed') {
      res.status(422).json([{ loc: ['body'], msg: 'The body is not valid JSON', type: 'json_invalid' }]);
      return;
    }
    if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
      res.status(415).json({ global: ['Unsupported body encoding'] });
      return;
    }
    if (isDatabaseUnavailable(error)) {
      // One line per request while the database is away: the reason, not the stack of a known state.
      logger.warn(
        { requestId: res.locals.requestId, err: error.message, path: req.path },
        'database unavailable: answered 503',
      );
      res.set(databaseUnavailableAnswer.headers).status(503).json(databaseUnavailableAnswer.body);
      return;
    }
    const answer = answerForError(error);
    // The caller is told to retry; the operator needs the reason (a refused connection, a deadline).
    if (error instanceof ServiceUnavailableError) {
      logger.warn(
        { requestId: res.locals.requestId, err: error.message, path: req.path },
        'subgraph service unavailable',
      );
    }
    if (answer) {
      if (answer.headers) res.set(answer.headers);
      res.status(answer.status).json(answer.body);
      return;
    }
    logger.error({ requestId: res.locals.requestId, err: error, path: req.path }, 'unhandled error');
    res.status(internalErrorAnswer.status).json(internalErrorAnswer.body);
  };
}

/** Unknown paths under the API prefixes answer JSON, not the portal's HTML page. */
export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ global: [`No operation ${req.method} ${req.originalUrl.split('?')[0]}`] });
};

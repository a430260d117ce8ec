import type { RequestHandler } from 'express';
import type { AnyRoute } from './route.js';

/** The media type of an operation's body: a form for an image upload, JSON otherwise. */
export function bodyMediaType(route: Pick<AnyRoute, 'request'>): string {
  return route.request?.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json';
}

/**
 * Refuses (415, in the error format) a body of another media type than the operation takes,
 * rather than reading it as no body at all and answering with the fields it seems to lack.
 * A request without a body goes on: the body's schema says what is missing.
 */
export function requireBodyMediaType(mediaType: string): RequestHandler {
  return (req, res, next) => {
    const empty = req.headers['content-length'] === '0' && req.headers['transfer-encoding'] === undefined;
    if (empty || req.is(mediaType) !== false) {
      next();
      return;
    }
    const sent = req.headers['content-type']?.split(';')[0].trim() || 'no media type';
    res.status(415).json({ global: [`This operation takes a body of type ${mediaType}, not ${sent}`] });
  };
}

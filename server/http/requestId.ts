import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const acceptedRequestId = /^[A-Za-z0-9._-]{1,64}$/;

/** Takes a caller's X-Request-Id when it is harmless, or makes one, and echoes it back. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const id = given && acceptedRequestId.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};

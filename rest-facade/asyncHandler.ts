import type { NextFunction, Request, Response, RequestHandler } from 'express';

/**
 * An Express 4 handler written as an async function. Express ignores the promise a handler
 * returns, so a rejection would go unhandled (and stop the process) instead of reaching the
 * error handler: this passes it to `next`.
 */
export function asyncHandler(
  handler: (req: Request, res: Response, next: NextFunction) => Promise<void>,
): RequestHandler {
  return (req, res, next) => {
    handler(req, res, next).catch(next);
  };
}

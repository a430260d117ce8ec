import type { RequestHandler } from 'express';
import { checkDocumentShape } from './documentShape.js';

/**
 * Refuses a `/graphql` document over the shape limits before Apollo Server parses and validates
 * it: validation compares same-named fields pairwise, so a few thousand of them take seconds.
 * A request without a document (a persisted query's hash alone) names one that passed here
 * when it was registered. Syntax errors are left to Apollo Server, which reports them.
 */
export const documentGuard: RequestHandler = (req, res, next) => {
  const text: unknown = req.method === 'GET' ? req.query.query : (req.body as { query?: unknown } | undefined)?.query;
  if (typeof text !== 'string') return next();
  const verdict = checkDocumentShape(text);
  if (!('refusal' in verdict)) return next();
  const { message, code, limit } = verdict.refusal;
  res.status(400).json({ errors: [{ message, extensions: { code, limit } }] });
};

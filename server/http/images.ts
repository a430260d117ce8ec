import express from 'express';
import type { ImageStore } from '../../platform/images/index.js';
import { asyncHandler } from '../../rest-facade/asyncHandler.js';

/** Image keys are random and never reused, so a served image never changes under its URL. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const IMAGE_NOT_FOUND = { global: ['Image not found'] };

/**
 * Serves stored offer images at `GET /images/:key` (HEAD too). Unknown and malformed keys,
 * and any deeper path under /images, answer a JSON 404; the store refuses keys that are not
 * its own, so a path never reaches the disk unchecked.
 */
export function serveImages(store: ImageStore): express.Router {
  const router = express.Router();

  router.get(
    '/images/:key',
    asyncHandler(async (req, res) => {
      const image = await store.read(req.params.key);
      if (!image) {
        res.status(404).json(IMAGE_NOT_FOUND);
        return;
      }
      res.set({
        'Content-Type': image.contentType,
        'Cache-Control': IMAGE_CACHE_CONTROL,
        'X-Content-Type-Options': 'nosniff',
      });
      res.send(image.bytes);
    }),
  );

  router.get('/images/*', (_req, res) => {
    res.status(404).json(IMAGE_NOT_FOUND);
  });

  return router;
}

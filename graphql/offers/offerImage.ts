import type { GraphContext } from '../shared/context.js';
import { ValidationFailedError } from '../shared/errors.js';
import { checkBase64Image } from '../../platform/images/index.js';
import type { Offer } from './Offer.js';

export interface StoredImage {
  key: string;
  credit: string | null;
}

/** Checks an image sent as base64 (the offer bodies' `image.file`) and stores it; 422 at `loc` if refused. */
export async function storeBase64Image(
  context: GraphContext,
  image: { file: string; credit?: string | null },
  loc: string[] = ['image', 'file'],
): Promise<StoredImage> {
  const check = checkBase64Image(image.file);
  if (!check.ok) throw new ValidationFailedError([{ loc, msg: check.reason, type: check.type }]);
  const { key } = await context.services.images.save(check.bytes, check.info.format);
  return { key, credit: image.credit ?? null };
}

/** Puts a stored image on the offer, or removes it (null). */
export function setOfferImage(offer: Offer, image: StoredImage | null): void {
  offer.imageKey = image?.key ?? null;
  offer.imageCredit = image?.credit ?? null;
}

import { hasCompleteStructure, readImageInfo, sniffImageFormat, type ImageInfo } from './imageFormat.js';

/**
 * The offer image rules of the product specification (sections 3, 5 and 9), shared by event
 * offers, product offers and collective offers: a PNG or JPEG, 400x600 to 800x1200 pixels,
 * portrait 2:3, and at most 10 MB once decoded.
 */

export const IMAGE_MIN_WIDTH = 400;
export const IMAGE_MIN_HEIGHT = 600;
export const IMAGE_MAX_WIDTH = 800;
export const IMAGE_MAX_HEIGHT = 1200;
/** Decoded bytes, not the length of the base64 text (which is a third longer). */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** Portrait 2:3, width to height. */
export const IMAGE_RATIO_WIDTH = 2;
export const IMAGE_RATIO_HEIGHT = 3;
export const IMAGE_RATIO = IMAGE_RATIO_WIDTH / IMAGE_RATIO_HEIGHT;
/**
 * Accepted distance between width/height and 2/3. Exact 2:3 sizes are not always reachable
 * (601x900 is 0.0011 off), and exports often round a pixel, so a size passes when
 * |width/height - 2/3| <= 0.01: at 600 pixels high that is a width of 394 to 406 (within the
 * size bounds, 400 to 406), at 1200 high 788 to 800. 600x600 (0.33 off) is refused.
 */
export const IMAGE_RATIO_TOLERANCE = 0.01;
/**
 * Floating-point slack for sizes exactly at the tolerance (609x900 is 0.01 off in exact
 * arithmetic). Two distinct ratios of pixel sizes differ by far more than this.
 */
const RATIO_COMPARISON_SLACK = 1e-9;

/** Machine-readable reason of a refusal, used as `type` in a 422 validation error. */
export type ImageRejectionType =
  | 'image_base64'
  | 'image_format'
  | 'image_corrupt'
  | 'image_too_heavy'
  | 'image_too_small'
  | 'image_too_large'
  | 'image_ratio';

export interface ImageRejection {
  ok: false;
  /** A sentence for the caller, in English. */
  reason: string;
  type: ImageRejectionType;
  /** The limits that were broken, for the `ctx` of a validation error. */
  ctx?: Record<string, number | string>;
}

export type ImageCheck = { ok: true; info: ImageInfo } | ImageRejection;

export type Base64ImageCheck = { ok: true; info: ImageInfo; bytes: Buffer } | ImageRejection;

const DATA_URL_PREFIX = /^data:image\/[A-Za-z0-9.+-]+;base64,/i;
const BASE64_LINE_BREAKS = /[ \t\r\n]+/g;
/** Standard alphabet; padding only at the end, length checked separately. */
const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Bytes of a base64 image, or null when the text is not strict standard base64 or is empty.
 * Accepts an optional `data:image/...;base64,` prefix and whitespace or line breaks (as MIME
 * encoders wrap lines); refuses the URL-safe alphabet, missing padding and any other character.
 */
export function decodeBase64Image(text: string): Buffer | null {
  if (typeof text !== 'string') return null;
  const compact = text.trim().replace(DATA_URL_PREFIX, '').replace(BASE64_LINE_BREAKS, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64_TEXT.test(compact)) return null;
  const bytes = Buffer.from(compact, 'base64');
  return bytes.length > 0 ? bytes : null;
}

function formatMegabytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MB`;
}

function refuse(type: ImageRejectionType, reason: string, ctx?: ImageRejection['ctx']): ImageRejection {
  return ctx ? { ok: false, reason, type, ctx } : { ok: false, reason, type };
}

/** Whether width/height is within IMAGE_RATIO_TOLERANCE of 2/3. */
export function hasImageRatio(width: number, height: number): boolean {
  return Math.abs(width / height - IMAGE_RATIO) <= IMAGE_RATIO_TOLERANCE + RATIO_COMPARISON_SLACK;
}

/** Checks the real bytes of an offer image against the rules, first failed rule wins. */
export function checkImage(bytes: Buffer): ImageCheck {
  if (bytes.length === 0) return refuse('image_format', 'The image file is empty');
  if (bytes.length > IMAGE_MAX_BYTES) {
    return refuse(
      'image_too_heavy',
      `The image must weigh at most ${formatMegabytes(IMAGE_MAX_BYTES)} (got ${bytes.length} bytes)`,
      { limit: IMAGE_MAX_BYTES, size: bytes.length },
    );
  }
  const format = sniffImageFormat(bytes);
  if (!format) return refuse('image_format', 'The image must be a PNG or JPEG file');
  const info = readImageInfo(bytes);
  if (!info || !hasCompleteStructure(bytes, format)) {
    return refuse('image_corrupt', `The image file is truncated or corrupt (not a readable ${format.toUpperCase()})`);
  }
  const { width, height } = info;
  const got = `${width}x${height}`;
  if (width < IMAGE_MIN_WIDTH || height < IMAGE_MIN_HEIGHT) {
    return refuse(
      'image_too_small',
      `The image must be at least ${IMAGE_MIN_WIDTH}x${IMAGE_MIN_HEIGHT} pixels (got ${got})`,
      { minWidth: IMAGE_MIN_WIDTH, minHeight: IMAGE_MIN_HEIGHT, width, height },
    );
  }
  if (width > IMAGE_MAX_WIDTH || height > IMAGE_MAX_HEIGHT) {
    return refuse(
      'image_too_large',
      `The image must be at most ${IMAGE_MAX_WIDTH}x${IMAGE_MAX_HEIGHT} pixels (got ${got})`,
      { maxWidth: IMAGE_MAX_WIDTH, maxHeight: IMAGE_MAX_HEIGHT, width, height },
    );
  }
  if (!hasImageRatio(width, height)) {
    return refuse(
      'image_ratio',
      `The image must be portrait with a ${IMAGE_RATIO_WIDTH}:${IMAGE_RATIO_HEIGHT} width to height ratio (got ${got})`,
      { ratio: `${IMAGE_RATIO_WIDTH}:${IMAGE_RATIO_HEIGHT}`, tolerance: IMAGE_RATIO_TOLERANCE, width, height },
    );
  }
  return { ok: true, info };
}

/** Decodes the `file` of an `image: { file, credit }` body and checks it; keeps the bytes for storing. */
export function checkBase64Image(text: string): Base64ImageCheck {
  const bytes = decodeBase64Image(text);
  if (!bytes) return refuse('image_base64', 'The image file must be a non-empty base64-encoded PNG or JPEG');
  const check = checkImage(bytes);
  return check.ok ? { ok: true, info: check.info, bytes } : check;
}

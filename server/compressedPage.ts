/**
 * A page that is the same for every reader, rendered once and kept compressed. /rest-api is 800 KB
 * of HTML: Remix rendering it and the compression middleware compressing it again on every request
 * held its first byte back 15 to 20 ms. Kept, it leaves at once, brotli at the best quality (a
 * quality per-request compression cannot afford), with an ETag so a reload is a 304.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import Negotiator from 'negotiator';

const ENCODINGS = ['br', 'gzip', 'identity'] as const;
type Encoding = (typeof ENCODINGS)[number];

interface CompressedPage {
  etag: string;
  contentType: string;
  bodies: Record<Encoding, Buffer>;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compresses on libuv's thread pool: the event loop keeps answering meanwhile. */
async function compressPage(html: string, contentType: string): Promise<CompressedPage> {
  const identity = Buffer.from(html, 'utf8');
  const [br, gzipped] = await Promise.all([
    brotli(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzipAsync(identity, { level: 9 }),
  ]);
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  return { etag, contentType, bodies: { br, gzip: gzipped, identity } };
}

function sendCompressedPage(page: CompressedPage, request: Request, response: Response): void {
  response.vary('Accept-Encoding');
  response.setHeader('ETag', page.etag);
  response.setHeader('Content-Type', page.contentType);
  // `fresh` compares If-None-Match with the ETag just set.
  if (request.fresh) {
    response.status(304).end();
    return;
  }
  // Ours is the order of preference: browsers list gzip first ("gzip, deflate, br") but take br.
  const encoding = (new Negotiator(request).encoding([...ENCODINGS], { preferred: [...ENCODINGS] }) ??
    'identity') as Encoding;
  if (encoding !== 'identity') response.setHeader('Content-Encoding', encoding);
  const body = page.bodies[encoding];
  response.setHeader('Content-Length', body.length);
  response.status(200).end(request.method === 'HEAD' ? undefined : body);
}

/**
 * Serves `path` (exactly, without a query) from a copy rendered by `render`. Until the copy exists,
 * requests go on to `next` (the page renders as any other) and the first of them starts making it;
 * a render that is not a 200 (a loader that failed) is not kept, and the next request tries again.
 */
export function compressedPageRoute(path: string, render: () => Promise<globalThis.Response>) {
  let page: CompressedPage | undefined;
  let making: Promise<void> | undefined;

  const make = (): Promise<void> => {
    making ??= (async () => {
      const rendered = await render();
      if (rendered.status !== 200) throw new Error(`${path} answered ${rendered.status}`);
      page = await compressPage(
        await rendered.text(),
        rendered.headers.get('content-type') ?? 'text/html; charset=utf-8',
      );
    })().catch(() => {
      making = undefined; // the request that comes next renders the page itself, and tries again
    });
    return making;
  };

  const handler = (request: Request, response: Response, next: NextFunction): void => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.originalUrl !== path) return next();
    if (page) return sendCompressedPage(page, request, response);
    void make();
    next();
  };
  return Object.assign(handler, { make });
}

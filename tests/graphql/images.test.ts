import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkBase64Image,
  checkImage,
  decodeBase64Image,
  hasCompleteStructure,
  IMAGE_MAX_BYTES,
  InMemoryImageStore,
  isImageKey,
  LocalDiskImageStore,
  readImageInfo,
  type ImageStore,
} from '../../platform/images/index.js';
import { serveImages } from '../../server/http/images.js';
import { aGif, aJpeg, aPng, aWebp, pngChunk, PNG_SIGNATURE } from '../support/images.js';

describe('readImageInfo', () => {
  it.each([
    [400, 600],
    [800, 1200],
    [1, 1],
    [1234, 77],
  ])('reads a %ix%i PNG from its IHDR chunk', (width, height) => {
    expect(readImageInfo(aPng(width, height))).toEqual({ format: 'png', width, height });
  });

  it.each([
    [400, 600],
    [802, 1203],
    [65535, 1],
  ])('reads a %ix%i JPEG from its SOF0 segment', (width, height) => {
    expect(readImageInfo(aJpeg(width, height))).toEqual({ format: 'jpeg', width, height });
  });

  it('reads progressive and other SOFn frames, and skips DHT which sits in the SOF range', () => {
    expect(readImageInfo(aJpeg(400, 600, { frameMarker: 0xc2 }))).toEqual({ format: 'jpeg', width: 400, height: 600 });
    expect(readImageInfo(aJpeg(401, 601, { frameMarker: 0xcf, tablesBeforeFrame: true }))).toEqual({
      format: 'jpeg',
      width: 401,
      height: 601,
    });
  });

  it('skips 0xFF fill bytes and stand-alone markers before the frame', () => {
    expect(readImageInfo(aJpeg(400, 600, { fillBytes: 3 }))?.width).toBe(400);
    const plain = aJpeg(400, 600);
    const withStandAlone = Buffer.concat([
      plain.subarray(0, 2),
      Buffer.from([0xff, 0x01, 0xff, 0xd3]),
      plain.subarray(2),
    ]);
    expect(readImageInfo(withStandAlone)).toEqual({ format: 'jpeg', width: 400, height: 600 });
  });

  it('refuses other formats, whatever they contain', () => {
    expect(readImageInfo(aGif(400, 600))).toBeNull();
    expect(readImageInfo(aWebp(400, 600))).toBeNull();
    expect(readImageInfo(Buffer.from('<svg width="400" height="600"/>'))).toBeNull();
    expect(readImageInfo(Buffer.alloc(0))).toBeNull();
  });

  it('refuses a PNG header cut at any length', () => {
    const png = aPng(400, 600);
    for (let length = 0; length < 33; length += 1) expect(readImageInfo(png.subarray(0, length))).toBeNull();
    expect(readImageInfo(png.subarray(0, 33))).toEqual({ format: 'png', width: 400, height: 600 });
  });

  it('refuses a PNG whose IHDR was altered (CRC), is not first, or is impossible', () => {
    const altered = Buffer.from(aPng(400, 600));
    altered[19] = 0x91; // width 400 -> 401 without fixing the CRC
    expect(readImageInfo(altered)).toBeNull();
    const ihdrLater = Buffer.concat([PNG_SIGNATURE, pngChunk('tEXt', Buffer.from('a\0b')), aPng(400, 600).subarray(8)]);
    expect(readImageInfo(ihdrLater)).toBeNull();
    expect(readImageInfo(aPng(0, 600))).toBeNull();
    const badDepth = Buffer.from(aPng(400, 600));
    badDepth[24] = 3;
    badDepth.writeUInt32BE(crcOfIhdr(badDepth), 29);
    expect(readImageInfo(badDepth)).toBeNull();
  });

  it('refuses a JPEG cut inside its frame header, or whose frame has no height', () => {
    const jpeg = aJpeg(400, 600);
    const frameAt = jpeg.indexOf(Buffer.from([0xff, 0xc0])); // marker (2), length (2), 9 bytes of frame header
    for (let length = 0; length < frameAt + 13; length += 1) expect(readImageInfo(jpeg.subarray(0, length))).toBeNull();
    expect(readImageInfo(jpeg.subarray(0, frameAt + 13))).toEqual({ format: 'jpeg', width: 400, height: 600 });
    const deferredHeight = Buffer.from(jpeg);
    deferredHeight.writeUInt16BE(0, frameAt + 5);
    expect(readImageInfo(deferredHeight)).toBeNull();
    const scanBeforeFrame = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02]), jpeg.subarray(2)]);
    expect(readImageInfo(scanBeforeFrame)).toBeNull();
  });

  it('never throws, and never invents a size, on any prefix or any bytes', () => {
    for (const image of [aPng(400, 600), aJpeg(400, 600, { fillBytes: 1 })]) {
      const expected = readImageInfo(image);
      for (let length = 0; length <= image.length; length += 1) {
        const info = readImageInfo(image.subarray(0, length));
        if (info) expect(info).toEqual(expected);
        expect(() => hasCompleteStructure(image.subarray(0, length), expected!.format)).not.toThrow();
      }
    }
    const magic = fc.constantFrom(Buffer.alloc(0), PNG_SIGNATURE, Buffer.from([0xff, 0xd8, 0xff]));
    fc.assert(
      fc.property(magic, fc.uint8Array({ maxLength: 200 }), (prefix, tail) => {
        const bytes = Buffer.concat([prefix, Buffer.from(tail)]);
        const info = readImageInfo(bytes);
        if (info) expect(info.width * info.height).toBeGreaterThan(0);
        hasCompleteStructure(bytes, 'png');
        hasCompleteStructure(bytes, 'jpeg');
      }),
      { numRuns: 2000 },
    );
  });
});

function crcOfIhdr(png: Buffer): number {
  // Reuse the fixture's chunk builder to compute the CRC of the modified IHDR.
  return pngChunk('IHDR', png.subarray(16, 29)).readUInt32BE(8 + 13);
}

describe('hasCompleteStructure', () => {
  it('accepts whole files and refuses files cut after a good header', () => {
    const png = aPng(400, 600);
    const jpeg = aJpeg(400, 600);
    expect(hasCompleteStructure(png, 'png')).toBe(true);
    expect(hasCompleteStructure(jpeg, 'jpeg')).toBe(true);
    expect(hasCompleteStructure(png.subarray(0, png.length - 1), 'png')).toBe(false);
    expect(hasCompleteStructure(png.subarray(0, 60), 'png')).toBe(false);
    expect(hasCompleteStructure(jpeg.subarray(0, jpeg.length - 2), 'jpeg')).toBe(false);
    expect(hasCompleteStructure(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'jpeg')).toBe(false);
  });

  it('tolerates bytes after the end marker, and byte stuffing and restarts inside the scan', () => {
    expect(hasCompleteStructure(Buffer.concat([aPng(400, 600), Buffer.from('trailer')]), 'png')).toBe(true);
    const jpeg = aJpeg(400, 600);
    const scanData = jpeg.length - 2;
    const stuffed = Buffer.concat([
      jpeg.subarray(0, scanData),
      Buffer.from([0xff, 0x00, 0xff, 0xd0, 0x00]),
      jpeg.subarray(scanData),
    ]);
    expect(hasCompleteStructure(stuffed, 'jpeg')).toBe(true);
  });

  it('refuses a PNG without image data', () => {
    const noData = Buffer.concat([PNG_SIGNATURE, aPng(400, 600).subarray(8, 33), pngChunk('IEND')]);
    expect(readImageInfo(noData)).not.toBeNull();
    expect(hasCompleteStructure(noData, 'png')).toBe(false);
  });
});

describe('checkImage', () => {
  it.each([
    ['PNG', 400, 600],
    ['PNG', 800, 1200],
    ['PNG', 600, 900],
    ['JPEG', 400, 600],
    ['JPEG', 800, 1200],
  ] as const)('accepts a %s of %ix%i', (kind, width, height) => {
    const bytes = kind === 'PNG' ? aPng(width, height) : aJpeg(width, height);
    expect(checkImage(bytes)).toEqual({ ok: true, info: { format: kind === 'PNG' ? 'png' : 'jpeg', width, height } });
  });

  it.each([
    [399, 600, 'as too small', aPng],
    [400, 599, 'as too small', aPng],
    [300, 450, 'as too small', aPng],
    [802, 1203, 'as too large', aJpeg],
    [801, 1200, 'as too large', aJpeg],
    [800, 1201, 'as too large', aJpeg],
    [600, 600, 'for its ratio', aPng],
    [800, 600, 'for its ratio', aPng],
    [610, 900, 'for its ratio', aPng],
    [590, 900, 'for its ratio', aPng],
  ] as const)('refuses %ix%i %s', (width, height, why, anImage) => {
    const rule = {
      'as too small': { type: 'image_too_small', must: 'be at least 400x600 pixels' },
      'as too large': { type: 'image_too_large', must: 'be at most 800x1200 pixels' },
      'for its ratio': { type: 'image_ratio', must: 'be portrait with a 2:3 width to height ratio' },
    }[why];
    expect(checkImage(anImage(width, height))).toMatchObject({
      ok: false,
      type: rule.type,
      reason: `The image must ${rule.must} (got ${width}x${height})`,
    });
  });

  it.each([
    [609, 900],
    [591, 900],
    [406, 600],
    [788, 1200],
  ])('accepts %ix%i, at the edge of the 0.01 ratio tolerance', (width, height) => {
    expect(checkImage(aPng(width, height)).ok).toBe(true);
  });

  it('accepts exactly 10 MB and refuses one byte more, counting decoded bytes', () => {
    const heaviest = aPng(400, 600, { totalBytes: IMAGE_MAX_BYTES });
    expect(heaviest.length).toBe(10 * 1024 * 1024);
    expect(checkImage(heaviest).ok).toBe(true);
    const tooHeavy = aPng(400, 600, { totalBytes: IMAGE_MAX_BYTES + 1 });
    expect(checkImage(tooHeavy)).toMatchObject({
      ok: false,
      type: 'image_too_heavy',
      reason: 'The image must weigh at most 10 MB (got 10485761 bytes)',
    });
    expect(checkBase64Image(tooHeavy.toString('base64'))).toMatchObject({ ok: false, type: 'image_too_heavy' });
  });

  it.each([
    ['a GIF89a', aGif(400, 600)],
    ['a WebP', aWebp(400, 600)],
    ['text', Buffer.from('not an image at all, just words')],
    ['random bytes', Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919 + 13) % 251))],
  ])('refuses %s as an unknown format', (_name, bytes) => {
    expect(checkImage(bytes)).toEqual({
      ok: false,
      type: 'image_format',
      reason: 'The image must be a PNG or JPEG file',
    });
  });

  it('refuses an empty file', () => {
    expect(checkImage(Buffer.alloc(0))).toMatchObject({ ok: false, type: 'image_format' });
  });

  it.each([
    ['a PNG cut inside its header', aPng(400, 600).subarray(0, 20)],
    [
      'a PNG cut in its image data',
      (() => {
        const png = aPng(400, 600);
        return png.subarray(0, png.length - 20);
      })(),
    ],
    ['a JPEG cut before its frame', aJpeg(400, 600).subarray(0, 30)],
    [
      'a JPEG without its end marker',
      (() => {
        const jpeg = aJpeg(400, 600);
        return jpeg.subarray(0, jpeg.length - 2);
      })(),
    ],
  ])('refuses %s as truncated', (_name, bytes) => {
    const check = checkImage(bytes);
    expect(check).toMatchObject({ ok: false, type: 'image_corrupt' });
    expect(check.ok ? '' : check.reason).toMatch(/^The image file is truncated or corrupt/);
  });
});

describe('decodeBase64Image and checkBase64Image', () => {
  const png = aPng(400, 600);
  const base64 = png.toString('base64');

  it('decodes standard base64, with or without a data: prefix, line breaks and spaces', () => {
    expect(decodeBase64Image(base64)).toEqual(png);
    expect(decodeBase64Image(`data:image/png;base64,${base64}`)).toEqual(png);
    expect(decodeBase64Image(`  ${base64.replace(/(.{76})/g, '$1\r\n')}\n`)).toEqual(png);
    expect(decodeBase64Image('QQ==')).toEqual(Buffer.from('A'));
  });

  it.each([
    ['empty text', ''],
    ['blank text', ' \n\t '],
    ['a bare data: prefix', 'data:image/png;base64,'],
    ['punctuation', `${base64.slice(0, 40)}!!!!`],
    ['the URL-safe alphabet', 'ab-_'],
    ['missing padding', 'QQ'],
    ['padding in the middle', 'QQ==QQ=='],
    ['three padding characters', 'Q==='],
    ['a non-image data: URL', `data:text/plain;base64,${base64}`],
    ['a data: URL without base64', 'data:image/png,abcd'],
  ])('refuses %s', (_name, text) => {
    expect(decodeBase64Image(text)).toBeNull();
    expect(checkBase64Image(text)).toMatchObject({ ok: false, type: 'image_base64' });
  });

  it('keeps the decoded bytes of an accepted image and trusts the bytes, not the declared type', () => {
    const check = checkBase64Image(`data:image/jpeg;base64,${base64}`);
    expect(check).toEqual({ ok: true, info: { format: 'png', width: 400, height: 600 }, bytes: png });
  });

  it('checks the decoded image against the rules', () => {
    expect(checkBase64Image(aPng(300, 450).toString('base64'))).toMatchObject({ ok: false, type: 'image_too_small' });
    expect(checkBase64Image(aGif(400, 600).toString('base64'))).toMatchObject({ ok: false, type: 'image_format' });
  });
});

describe('LocalDiskImageStore', () => {
  let root: string;
  let directory: string;
  let store: LocalDiskImageStore;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'images-'));
    directory = path.join(root, 'images');
    store = new LocalDiskImageStore({ directory, publicBaseUrl: 'https://pass.example/' });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('saves, reads and deletes an image', async () => {
    const png = aPng(400, 600);
    const { key } = await store.save(png, 'png');
    expect(key).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(await store.read(key)).toEqual({ bytes: png, contentType: 'image/png' });
    expect(await readdir(directory)).toEqual([key]); // no temporary file left behind
    await store.delete(key);
    expect(await store.read(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('stores JPEGs under .jpg with their content type', async () => {
    const jpeg = aJpeg(400, 600);
    const { key } = await store.save(jpeg, 'jpeg');
    expect(key).toMatch(/\.jpg$/);
    expect(await store.read(key)).toEqual({ bytes: jpeg, contentType: 'image/jpeg' });
  });

  it('gives the same bytes distinct, random keys that do not depend on the content', async () => {
    const png = aPng(400, 600);
    const keys = await Promise.all(Array.from({ length: 20 }, () => store.save(png, 'png').then(({ key }) => key)));
    expect(new Set(keys).size).toBe(20);
    expect(keys.every(isImageKey)).toBe(true);
    expect(await readdir(directory)).toHaveLength(20);
  });

  it('refuses keys that could leave the folder or that it never makes', async () => {
    const { key } = await store.save(aPng(400, 600), 'png');
    const outside = path.join(root, 'secret.png');
    await writeFile(outside, 'secret');
    for (const hostile of [
      '../secret.png',
      '..%2fsecret.png',
      '%2e%2e',
      '%2e%2e%2fsecret.png',
      '..',
      outside,
      '/etc/passwd',
      `${key}/../${key}`,
      `../images/${key}`,
      key.toUpperCase(),
      `${key}\n`,
      `${key}.tmp`,
      key.replace('.png', '.gif'),
      '',
    ]) {
      expect(await store.read(hostile), hostile).toBeNull();
      await store.delete(hostile);
    }
    expect(existsSync(outside)).toBe(true);
    expect(await store.read(key)).not.toBeNull();
  });

  it('builds public URLs under /images, and only for its own keys', async () => {
    const { key } = await store.save(aPng(400, 600), 'png');
    expect(store.urlOf(key)).toBe(`https://pass.example/images/${key}`);
    expect(() => store.urlOf('../secret.png')).toThrow();
  });
});

describe('InMemoryImageStore', () => {
  it('follows the same contract', async () => {
    const store = new InMemoryImageStore('http://localhost:3000');
    const jpeg = aJpeg(400, 600);
    const { key } = await store.save(jpeg, 'jpeg');
    expect(await store.read(key)).toEqual({ bytes: jpeg, contentType: 'image/jpeg' });
    expect(store.urlOf(key)).toBe(`http://localhost:3000/images/${key}`);
    expect(await store.read('../x')).toBeNull();
    await store.delete(key);
    expect(await store.read(key)).toBeNull();
    expect(store.size).toBe(0);
  });
});

describe('serveImages', () => {
  function appServing(store: ImageStore): express.Express {
    const app = express();
    app.use(serveImages(store));
    app.use((_req: express.Request, res: express.Response) => {
      res.status(404).json({ global: ['fell through'] });
    });
    app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ global: ['Internal error'] });
    });
    return app;
  }

  it('serves a stored image with its type and cache headers', async () => {
    const store = new InMemoryImageStore();
    const png = aPng(400, 600);
    const { key } = await store.save(png, 'png');
    const response = await request(appServing(store)).get(`/images/${key}`); // superagent buffers image/* bodies
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(response.body as Buffer, png)).toBe(0);
  });

  it('serves JPEGs as image/jpeg, from disk too', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'images-'));
    try {
      const store = new LocalDiskImageStore({ directory: root, publicBaseUrl: 'http://localhost' });
      const { key } = await store.save(aJpeg(400, 600), 'jpeg');
      const response = await request(appServing(store)).get(`/images/${key}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
      const head = await request(appServing(store)).head(`/images/${key}`);
      expect(head.status).toBe(200);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it.each([
    '00000000-0000-4000-8000-000000000000.png',
    'nope',
    '%2e%2e%2fsecret.png',
    '..%2f..%2fetc%2fpasswd',
    'a/b',
    '',
  ])('answers a JSON 404 for %j', async (key) => {
    const response = await request(appServing(new InMemoryImageStore())).get(`/images/${key}`);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ global: ['Image not found'] });
  });

  it('passes store failures to the error handler', async () => {
    const failing: ImageStore = {
      save: async () => ({ key: 'x' }),
      read: async () => {
        throw new Error('disk on fire');
      },
      delete: async () => {},
      urlOf: (key) => key,
    };
    const response = await request(appServing(failing)).get('/images/00000000-0000-4000-8000-000000000000.png');
    expect(response.status).toBe(500);
  });
});

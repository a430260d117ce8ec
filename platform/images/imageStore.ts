import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageFormat } from './imageFormat.js';

/**
 * Where accepted offer images live. Keys are random and say nothing about the content, so the
 * same bytes saved twice get two keys, a key is never reused, and a URL can be cached forever.
 * The local disk store serves one process or a shared volume; an object store (S3, GCS) can
 * implement the same interface by putting `bytes` under `key` with its content type, reading it
 * back, deleting it, and returning its public (or CDN) URL from `urlOf`.
 */
export interface ImageStore {
  save(bytes: Buffer, format: ImageFormat): Promise<{ key: string }>;
  /** The image under `key`, or null when the key is unknown or not a key this store could have made. */
  read(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  /** Removes the image; unknown keys are ignored, so a retried delete is harmless. */
  delete(key: string): Promise<void>;
  urlOf(key: string): string;
}

const EXTENSION_OF: Record<ImageFormat, string> = { png: 'png', jpeg: 'jpg' };
const CONTENT_TYPE_OF_EXTENSION: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg' };

/** A lower-case version 4 UUID and the extension of its format: nothing else can name a file. */
const IMAGE_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.(png|jpg)$/;

export function isImageKey(key: unknown): key is string {
  return typeof key === 'string' && IMAGE_KEY.test(key);
}

export function contentTypeOf(format: ImageFormat): string {
  return CONTENT_TYPE_OF_EXTENSION[EXTENSION_OF[format]];
}

function contentTypeOfKey(key: string): string {
  return CONTENT_TYPE_OF_EXTENSION[key.slice(key.lastIndexOf('.') + 1)];
}

export function newImageKey(format: ImageFormat): string {
  return `${randomUUID()}.${EXTENSION_OF[format]}`;
}

function imageUrl(publicBaseUrl: string, key: string): string {
  if (!isImageKey(key)) throw new Error(`Not an image key: ${JSON.stringify(key)}`);
  return `${publicBaseUrl.replace(/\/+$/, '')}/images/${key}`;
}

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

export interface LocalDiskImageStoreOptions {
  /** Folder of the image files (created on first save), e.g. `var/images`. */
  directory: string;
  /** Origin the process is reached at (config PUBLIC_URL), without the `/images` path. */
  publicBaseUrl: string;
}

/** Images as files named by their key in one folder. */
export class LocalDiskImageStore implements ImageStore {
  private readonly directory: string;
  private readonly publicBaseUrl: string;

  constructor({ directory, publicBaseUrl }: LocalDiskImageStoreOptions) {
    this.directory = path.resolve(directory);
    this.publicBaseUrl = publicBaseUrl;
  }

  async save(bytes: Buffer, format: ImageFormat): Promise<{ key: string }> {
    const key = newImageKey(format);
    await mkdir(this.directory, { recursive: true });
    // Written beside its final name, then renamed: a reader sees the whole file or none.
    // The dot prefix keeps temporary files out of the key pattern, so they are never served.
    const temporary = path.join(this.directory, `.${key}.${randomUUID()}.tmp`);
    try {
      await writeFile(temporary, bytes, { flag: 'wx' });
      await rename(temporary, this.fileOf(key));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { key };
  }

  async read(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    if (!isImageKey(key)) return null;
    try {
      return { bytes: await readFile(this.fileOf(key)), contentType: contentTypeOfKey(key) };
    } catch (error) {
      if (isMissingFile(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    if (!isImageKey(key)) return;
    await rm(this.fileOf(key), { force: true });
  }

  urlOf(key: string): string {
    return imageUrl(this.publicBaseUrl, key);
  }

  /** Only ever called with a checked key; the containment check is a second lock on the door. */
  private fileOf(key: string): string {
    const file = path.join(this.directory, key);
    if (path.dirname(file) !== this.directory) throw new Error('Image key escapes the image folder');
    return file;
  }
}

/** The same contract in memory, for tests and for one-process demos without a writable disk. */
export class InMemoryImageStore implements ImageStore {
  private readonly images = new Map<string, Buffer>();

  constructor(private readonly publicBaseUrl = 'http://localhost') {}

  async save(bytes: Buffer, format: ImageFormat): Promise<{ key: string }> {
    const key = newImageKey(format);
    this.images.set(key, Buffer.from(bytes));
    return { key };
  }

  async read(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const bytes = isImageKey(key) ? this.images.get(key) : undefined;
    return bytes ? { bytes: Buffer.from(bytes), contentType: contentTypeOfKey(key) } : null;
  }

  async delete(key: string): Promise<void> {
    this.images.delete(key);
  }

  urlOf(key: string): string {
    return imageUrl(this.publicBaseUrl, key);
  }

  /** Number of stored images, for tests that check an image was replaced or removed. */
  get size(): number {
    return this.images.size;
  }
}

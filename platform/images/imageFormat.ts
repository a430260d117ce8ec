import { crc32 } from 'node:zlib';

/**
 * Reads what an image really is from its bytes: magic numbers and the dimensions written in
 * the PNG IHDR chunk or the JPEG SOFn segment. The declared MIME type and the file name are
 * never trusted. These are small header parsers, not decoders: they never allocate pixels,
 * never read past the buffer, and answer `null`/`false` for anything they do not understand.
 */

export type ImageFormat = 'png' | 'jpeg';

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Signature, IHDR length and type, 13 bytes of IHDR data, CRC. */
const PNG_HEADER_BYTES = 8 + 8 + 13 + 4;
const PNG_MAX_DIMENSION = 0x7fffffff;
/** Allowed bit depths per PNG colour type (PNG spec, table 11.1). */
const PNG_BIT_DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

const JPEG_SOI = 0xd8;
const JPEG_EOI = 0xd9;
const JPEG_SOS = 0xda;

/** The format named by the magic number alone, before any structure is checked. */
export function sniffImageFormat(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= PNG_SIGNATURE.length && bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE))
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === JPEG_SOI && bytes[2] === 0xff) return 'jpeg';
  return null;
}

/** Format and pixel size of a PNG or JPEG, or null when the header is unknown, truncated or corrupt. */
export function readImageInfo(bytes: Buffer): ImageInfo | null {
  switch (sniffImageFormat(bytes)) {
    case 'png':
      return readPngInfo(bytes);
    case 'jpeg':
      return readJpegInfo(bytes);
    default:
      return null;
  }
}

/**
 * Whether the file runs from its header to its end marker without a cut: every PNG chunk fits
 * and IEND follows at least one IDAT; every JPEG segment fits and EOI follows a scan. This
 * catches an upload cut short after a good header. Bytes after the end marker are tolerated,
 * as decoders do.
 */
export function hasCompleteStructure(bytes: Buffer, format: ImageFormat): boolean {
  return format === 'png' ? pngIsComplete(bytes) : jpegIsComplete(bytes);
}

function readPngInfo(bytes: Buffer): ImageInfo | null {
  if (bytes.length < PNG_HEADER_BYTES) return null;
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes[24];
  const colourType = bytes[25];
  const [compression, filter, interlace] = [bytes[26], bytes[27], bytes[28]];
  if (width < 1 || height < 1 || width > PNG_MAX_DIMENSION || height > PNG_MAX_DIMENSION) return null;
  if (!PNG_BIT_DEPTHS[colourType]?.includes(bitDepth)) return null;
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) return null;
  // The CRC covers the chunk type and data: a flipped bit in the dimensions is caught here.
  if (bytes.readUInt32BE(29) !== crc32(bytes.subarray(12, 29))) return null;
  return { format: 'png', width, height };
}

function pngIsComplete(bytes: Buffer): boolean {
  let offset = PNG_SIGNATURE.length;
  let chunkCount = 0;
  let sawImageData = false;
  while (offset + 12 <= bytes.length) {
    const dataLength = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (dataLength > PNG_MAX_DIMENSION || !/^[A-Za-z]{4}$/.test(type)) return false;
    const end = offset + 12 + dataLength;
    if (end > bytes.length) return false;
    if (chunkCount === 0 && type !== 'IHDR') return false;
    if (type === 'IDAT') sawImageData = true;
    if (type === 'IEND') return sawImageData && dataLength === 0;
    chunkCount += 1;
    offset = end;
  }
  return false;
}

/** SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC) which share the range. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers without a length field: TEM and RST0..RST7 (SOI and EOI are handled by the callers). */
function isStandAlone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

/**
 * Reads the marker at `offset` (one 0xFF, then any number of 0xFF fill bytes, then the code).
 * Returns the code and the offset just past it, or null when no marker is there.
 */
function readMarker(bytes: Buffer, offset: number): { marker: number; next: number } | null {
  if (bytes[offset] !== 0xff) return null;
  let position = offset + 1;
  while (position < bytes.length && bytes[position] === 0xff) position += 1;
  if (position >= bytes.length) return null;
  const marker = bytes[position];
  // 0xFF00 is byte stuffing inside entropy-coded data, never a marker.
  return marker === 0x00 ? null : { marker, next: position + 1 };
}

function readJpegInfo(bytes: Buffer): ImageInfo | null {
  let offset = 2;
  while (offset < bytes.length) {
    const found = readMarker(bytes, offset);
    if (!found) return null;
    const { marker, next } = found;
    if (isStandAlone(marker)) {
      offset = next;
      continue;
    }
    // A second SOI, an EOI or a scan before any frame header: no dimensions to read.
    if (marker === JPEG_SOI || marker === JPEG_EOI || marker === JPEG_SOS) return null;
    if (next + 2 > bytes.length) return null;
    const segmentLength = bytes.readUInt16BE(next);
    if (segmentLength < 2 || next + segmentLength > bytes.length) return null;
    if (isStartOfFrame(marker)) {
      // Length (2), precision (1), height (2), width (2), component count (1), 3 bytes per component.
      if (segmentLength < 8) return null;
      const height = bytes.readUInt16BE(next + 3);
      const width = bytes.readUInt16BE(next + 5);
      const components = bytes[next + 7];
      if (components < 1 || segmentLength < 8 + 3 * components) return null;
      // A height of 0 defers to a later DNL marker; such files are rare and not accepted here.
      if (width < 1 || height < 1) return null;
      return { format: 'jpeg', width, height };
    }
    offset = next + segmentLength;
  }
  return null;
}

function jpegIsComplete(bytes: Buffer): boolean {
  let offset = 2;
  let sawFrame = false;
  let sawScan = false;
  while (offset < bytes.length) {
    const found = readMarker(bytes, offset);
    if (!found) return false;
    const { marker, next } = found;
    if (marker === JPEG_EOI) return sawFrame && sawScan;
    if (marker === JPEG_SOI) return false;
    if (isStandAlone(marker)) {
      offset = next;
      continue;
    }
    if (next + 2 > bytes.length) return false;
    const segmentLength = bytes.readUInt16BE(next);
    if (segmentLength < 2 || next + segmentLength > bytes.length) return false;
    if (isStartOfFrame(marker)) sawFrame = true;
    offset = next + segmentLength;
    if (marker !== JPEG_SOS) continue;
    if (!sawFrame) return false;
    sawScan = true;
    // Entropy-coded data follows the scan header: skip to the next real marker.
    const markerStart = skipEntropyCodedData(bytes, offset);
    if (markerStart === null) return false;
    offset = markerStart;
  }
  return false;
}

/** Offset of the first marker after entropy-coded data, skipping stuffed 0xFF00 and RSTn; null if none. */
function skipEntropyCodedData(bytes: Buffer, from: number): number | null {
  let offset = from;
  for (;;) {
    const candidate = bytes.indexOf(0xff, offset);
    if (candidate === -1 || candidate + 1 >= bytes.length) return null;
    const following = bytes[candidate + 1];
    if (following === 0x00 || (following >= 0xd0 && following <= 0xd7)) {
      offset = candidate + 2;
      continue;
    }
    return candidate;
  }
}

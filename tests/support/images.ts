import { deflateSync } from 'node:zlib';

/**
 * Real image files built in memory, so that the image rules are tested against bytes and
 * never against declared types. The PNG encoder and its CRC32 are written here on purpose,
 * independent of the production parser (which uses node:zlib's crc32).
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data, CRC of type and data. */
export function pngChunk(type: string, data: Buffer = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A private, ancillary, safe-to-copy chunk type: decoders skip it. */
const PADDING_CHUNK = 'paDd';
const CHUNK_OVERHEAD = 12;

export interface PngOptions {
  /** Colour of every pixel (8-bit RGB). */
  rgb?: [number, number, number];
  /** Pad the file with an ancillary chunk to exactly this many bytes. */
  totalBytes?: number;
}

/** A complete 8-bit RGB PNG of one colour: signature, IHDR, IDAT, IEND. */
export function aPng(width: number, height: number, { rgb = [200, 120, 40], totalBytes }: PngOptions = {}): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  header[10] = 0; // compression: deflate
  header[11] = 0; // filter method
  header[12] = 0; // no interlace
  const scanline = Buffer.alloc(1 + width * 3); // filter byte 0 (None), then the pixels
  for (let x = 0; x < width; x += 1) scanline.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => scanline));
  const chunks = [pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(pixels)), pngChunk('IEND')];
  const unpadded = Buffer.concat([PNG_SIGNATURE, ...chunks]);
  if (totalBytes === undefined) return unpadded;
  const paddingLength = totalBytes - unpadded.length - CHUNK_OVERHEAD;
  if (paddingLength < 0) throw new Error(`A ${width}x${height} PNG is already ${unpadded.length} bytes`);
  const padding = pngChunk(PADDING_CHUNK, Buffer.alloc(paddingLength));
  return Buffer.concat([PNG_SIGNATURE, chunks[0], padding, chunks[1], chunks[2]]);
}

function jpegSegment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

export interface JpegOptions {
  /** Frame marker: 0xC0 baseline (default), 0xC2 progressive, ... The entropy data stays baseline. */
  frameMarker?: number;
  /** Extra 0xFF fill bytes before every marker, as the JPEG spec allows. */
  fillBytes?: number;
  /** Put the Huffman tables (0xFFC4, inside the SOF range) before the frame header. */
  tablesBeforeFrame?: boolean;
}

/**
 * A baseline greyscale JPEG of one grey, small enough for any size: SOI, APP0 JFIF, DQT, SOF0
 * with the dimensions, DHT, SOS, entropy-coded data, EOI. Each Huffman table holds one 1-bit
 * code (DC difference 0, AC end-of-block), so every 8x8 block is two zero bits. The parser
 * under test reads only the marker structure and the SOF dimensions. The file is also a
 * decodable image (Chromium drew these, and aPng's files, at the right size and colour when
 * this builder was written), but no decoder runs in the tests.
 */
export function aJpeg(
  width: number,
  height: number,
  { frameMarker = 0xc0, fillBytes = 0, tablesBeforeFrame = false }: JpegOptions = {},
): Buffer {
  const jfif = Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const quantisation = Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 1)]);
  const frame = Buffer.alloc(9);
  frame[0] = 8; // precision
  frame.writeUInt16BE(height, 1);
  frame.writeUInt16BE(width, 3);
  frame.set([1, 1, 0x11, 0], 5); // one component: id 1, sampling 1x1, quantisation table 0
  const oneCodeTable = (tableClassAndId: number) =>
    Buffer.concat([Buffer.from([tableClassAndId, 1]), Buffer.alloc(15), Buffer.from([0x00])]);
  const tables = [jpegSegment(0xc4, oneCodeTable(0x00)), jpegSegment(0xc4, oneCodeTable(0x10))];
  const scanHeader = Buffer.from([1, 1, 0x00, 0, 63, 0]);
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const entropy = Buffer.alloc(Math.ceil((blocks * 2) / 8));
  const usedBits = (blocks * 2) % 8;
  if (usedBits) entropy[entropy.length - 1] = (1 << (8 - usedBits)) - 1; // pad the last byte with 1 bits
  const segments = [
    Buffer.from([0xff, 0xd8]),
    jpegSegment(0xe0, jfif),
    jpegSegment(0xdb, quantisation),
    ...(tablesBeforeFrame ? tables : []),
    jpegSegment(frameMarker, frame),
    ...(tablesBeforeFrame ? [] : tables),
    Buffer.concat([jpegSegment(0xda, scanHeader), entropy]),
    Buffer.from([0xff, 0xd9]),
  ];
  if (fillBytes === 0) return Buffer.concat(segments);
  const fill = Buffer.alloc(fillBytes, 0xff);
  return Buffer.concat(segments.map((segment, index) => (index === 0 ? segment : Buffer.concat([fill, segment]))));
}

/** The header of a GIF89a (a format the rules refuse). */
export function aGif(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'latin1');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  return Buffer.concat([header, Buffer.from([0x3b])]);
}

/** The header of a lossless WebP (a format the rules refuse). */
export function aWebp(width: number, height: number): Buffer {
  const bits = Buffer.alloc(5);
  bits[0] = 0x2f;
  bits.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.from([bits.length, 0, 0, 0]), bits]);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + chunk.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, chunk]);
}

/**
 * Node only: the one PNG writer (the engine's images, the API's captcha and QR codes) and its
 * CRC-32, Node's own `zlib.crc32`.
 *
 * An opaque canvas is encoded several times faster than by the canvas' own encoder (which tries
 * every row filter at zlib level 6: ~70 ms for a 2000 × 1500 drawing, a third of a `cad convert`
 * run).
 *
 * Drawings are opaque (the background is painted first), so the image is written as 8-bit RGB, or
 * as 8-bit grey when every pixel is grey (black or grey lines on white: antialiasing blends greys
 * into greys; about 40% of drawings), rows unfiltered, deflated at level 1 on the thread pool
 * while the next rows are read from the canvas. Line drawings are mostly long runs of the
 * background: RGB files come out about 1.2 times the size of the canvas encoder's, grey ones
 * smaller, with the same pixels. Rows are read and packed in strips of about 512 KB, so a
 * 100-megapixel image never holds a second full copy of itself.
 */
import { once } from 'node:events';
import { createDeflate, crc32, deflateSync } from 'node:zlib';

/** An opaque RGBA image read in strips of rows (the canvas' getImageData). */
export interface RgbaRows {
  width: number;
  height: number;
  /** `count` rows from `y`, RGBA, 4 bytes a pixel; alpha is ignored. */
  rows(y: number, count: number): Uint8Array | Uint8ClampedArray;
}

export interface PngOptions {
  /** zlib level 1..9 (default 1: fastest; 4 gives ~30% smaller files at twice the time). */
  level?: number;
  /**
   * The image is probably all grey (every colour drawn was grey): try an 8-bit grey PNG first. A
   * pixel that is not grey after all makes it start again in RGB: never wrong, only slower.
   */
  grey?: boolean;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Rows are read, packed and compressed in strips of about this many bytes, through this many buffers. */
const STRIP_BYTES = 512 * 1024;
const STRIPS = 4;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const GREY = 0;
const RGB = 2;

/** A whole PNG of 8-bit samples, not interlaced, around its compressed rows. */
function pngFile(width: number, height: number, colourType: typeof GREY | typeof RGB, idat: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = colourType;
  // Bytes 10-12 stay 0: deflate, filter method 0, no interlace.
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}

type Pixels = Uint8Array | Uint8ClampedArray;

/** The pixels as 32-bit words (RGBA in memory order) on little-endian machines, when aligned. */
const wordsOf = (rgba: Pixels, count: number): Uint32Array | null =>
  LITTLE_ENDIAN && rgba.byteOffset % 4 === 0 ? new Uint32Array(rgba.buffer, rgba.byteOffset, count) : null;

/**
 * RGBA rows → PNG rows of RGB, each after its filter byte (0: none). Four pixels at a time as
 * 32-bit words on little-endian machines (3 words out for 4 in), byte by byte elsewhere.
 */
function packRgb(rgba: Pixels, width: number, rows: number, out: Buffer, scratch: Uint32Array): boolean {
  const stride = 3 * width + 1;
  const sb = new Uint8Array(scratch.buffer, scratch.byteOffset, scratch.byteLength);
  const words = wordsOf(rgba, width * rows);
  for (let y = 0; y < rows; y++) {
    const at = y * stride;
    out[at] = 0;
    if (!words) {
      for (let x = 0, i = 4 * y * width, o = at + 1; x < width; x++, i += 4) {
        out[o++] = rgba[i] as number;
        out[o++] = rgba[i + 1] as number;
        out[o++] = rgba[i + 2] as number;
      }
      continue;
    }
    let i = y * width;
    const rowEnd = i + width;
    const fours = i + (width & ~3);
    let o = 0;
    for (; i < fours; i += 4) {
      const p0 = words[i] as number,
        p1 = words[i + 1] as number,
        p2 = words[i + 2] as number,
        p3 = words[i + 3] as number;
      scratch[o++] = (p0 & 0xffffff) | (p1 << 24);
      scratch[o++] = ((p1 >>> 8) & 0xffff) | (p2 << 16);
      scratch[o++] = ((p2 >>> 16) & 0xff) | (p3 << 8);
    }
    let b = 4 * o;
    for (; i < rowEnd; i++) {
      const p = words[i] as number;
      sb[b++] = p & 255;
      sb[b++] = (p >>> 8) & 255;
      sb[b++] = (p >>> 16) & 255;
    }
    out.set(sb.subarray(0, 3 * width), at + 1);
  }
  return true;
}

/** RGBA rows → PNG rows of grey (the red channel); false as soon as a pixel is not grey. */
function packGrey(rgba: Pixels, width: number, rows: number, out: Buffer, scratch: Uint32Array): boolean {
  const stride = width + 1;
  const sb = new Uint8Array(scratch.buffer, scratch.byteOffset, scratch.byteLength);
  const words = wordsOf(rgba, width * rows);
  for (let y = 0; y < rows; y++) {
    const at = y * stride;
    out[at] = 0;
    if (!words) {
      for (let x = 0, i = 4 * y * width, o = at + 1; x < width; x++, i += 4) {
        const r = rgba[i] as number;
        if (rgba[i + 1] !== r || rgba[i + 2] !== r) return false;
        out[o++] = r;
      }
      continue;
    }
    let i = y * width;
    const rowEnd = i + width;
    const fours = i + (width & ~3);
    let o = 0;
    // Grey: red = green = blue, i.e. the word's low three bytes are equal.
    let notGrey = 0;
    for (; i < fours; i += 4) {
      const p0 = words[i] as number,
        p1 = words[i + 1] as number,
        p2 = words[i + 2] as number,
        p3 = words[i + 3] as number;
      notGrey |= (p0 ^ (p0 >>> 8)) | (p1 ^ (p1 >>> 8)) | (p2 ^ (p2 >>> 8)) | (p3 ^ (p3 >>> 8));
      scratch[o++] = (p0 & 255) | ((p1 & 255) << 8) | ((p2 & 255) << 16) | (p3 << 24);
    }
    let b = 4 * o;
    for (; i < rowEnd; i++) {
      const p = words[i] as number;
      notGrey |= p ^ (p >>> 8);
      sb[b++] = p & 255;
    }
    if (notGrey & 0xffff) return false;
    out.set(sb.subarray(0, width), at + 1);
  }
  return true;
}

/** The PNG of the image in one colour type; null when `grey` and a pixel is not grey. */
async function encode(image: RgbaRows, level: number, grey: boolean): Promise<Buffer | null> {
  const { width, height } = image;
  const stride = (grey ? 1 : 3) * width + 1;
  const pack = grey ? packGrey : packRgb;
  const stripRows = Math.max(1, Math.floor(STRIP_BYTES / stride));
  const z = createDeflate({ level, chunkSize: 256 * 1024 });
  const parts: Buffer[] = [];
  z.on('data', (c: Buffer) => parts.push(c));
  const done = once(z, 'end');
  // Awaited below; a failure also reaches the loop through 'error'.
  done.catch(() => {});
  const scratch = new Uint32Array(Math.ceil((3 * width) / 4) + 1);
  // A few strip buffers, each reused once the compressor has taken its rows: fresh memory costs a
  // page fault per 4 KB, as much time as packing the rows.
  const free: Buffer[] = [];
  let buffers = 0;
  let wake: (() => void) | null = null;
  let failed: unknown = null;
  const release = (b: Buffer): void => {
    free.push(b);
    wake?.();
    wake = null;
  };
  z.on('error', (e: unknown) => {
    failed = e;
    wake?.();
    wake = null;
  });
  for (let y = 0; y < height; y += stripRows) {
    const n = Math.min(stripRows, height - y);
    const rgba = image.rows(y, n);
    if (rgba.length < 4 * width * n) throw new Error(`Expected ${4 * width * n} bytes of pixels, got ${rgba.length}`);
    while (!free.length && buffers >= STRIPS && !failed) await new Promise<void>((resolve) => (wake = resolve));
    if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
    let buf = free.pop();
    if (!buf) {
      buf = Buffer.allocUnsafe(stripRows * stride);
      buffers++;
    }
    const strip = buf;
    const packed = strip.subarray(0, n * stride);
    if (!pack(rgba, width, n, packed, scratch)) {
      z.destroy();
      return null;
    }
    z.write(packed, () => release(strip));
  }
  z.end();
  await done;
  return pngFile(width, height, grey ? GREY : RGB, Buffer.concat(parts));
}

/** Encodes an opaque RGBA image as an 8-bit RGB PNG, or grey when `options.grey` and it is. */
export async function encodeOpaquePng(image: RgbaRows, options: PngOptions = {}): Promise<Buffer> {
  const { width, height } = image;
  if (!(width >= 1 && height >= 1 && Number.isInteger(width) && Number.isInteger(height)))
    throw new Error(`Invalid image size ${width}×${height}`);
  const level = options.level ?? 1;
  if (options.grey) {
    const png = await encode(image, level, true);
    if (png) return png;
  }
  return (await encode(image, level, false)) as Buffer;
}

/** A small PNG (8-bit RGB) of rows that each start with their filter byte (0, none): captchas, QR codes. */
export function encodeRgbPng(width: number, height: number, filteredRows: Uint8Array): Buffer {
  return pngFile(width, height, RGB, deflateSync(filteredRows));
}

/** A real PNG of `size`x`size` pixels of one colour (tests and fixtures). */
export function solidPng(size: number, rgb: readonly [number, number, number]): Buffer {
  const row = [0, ...Array.from({ length: size }, () => rgb).flat()];
  return encodeRgbPng(size, size, Uint8Array.from(Array.from({ length: size }, () => row).flat()));
}

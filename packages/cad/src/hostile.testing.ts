/**
 * Hostile inputs, made in memory for the tests and the bench
 * (docs/decisions/0027-bounded-conversions.md): tiny files that expand into enormous work. Each is
 * a valid file; only its numbers are unreasonable.
 */
import { deflateRawSync, constants as zlib } from 'node:zlib';

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A DXF of groups written as code/value line pairs, no tables: readers must cope with that. */
function dxf(blocks: string[], entities: string[]): Uint8Array {
  const blockSection = blocks.length ? `0\nSECTION\n2\nBLOCKS\n${blocks.join('')}0\nENDSEC\n` : '';
  return ascii(`${blockSection}0\nSECTION\n2\nENTITIES\n${entities.join('')}0\nENDSEC\n0\nEOF\n`);
}

const block = (name: string, body: string): string => `0\nBLOCK\n8\n0\n2\n${name}\n70\n0\n10\n0\n20\n0\n${body}0\nENDBLK\n`;
const line = '0\nLINE\n8\n0\n10\n0\n20\n0\n11\n1\n21\n1\n';
const minsert = (name: string, columns: number, rows: number, spacing: number): string =>
  `0\nINSERT\n8\n0\n2\n${name}\n10\n0\n20\n0\n70\n${columns}\n71\n${rows}\n44\n${spacing}\n45\n${spacing}\n`;

/** One MINSERT of a one-line block in a `columns` x `rows` grid (10,000 x 1,000: 10^7 copies in ~300 bytes). */
export function minsertBombDxf(columns = 10_000, rows = 1_000): Uint8Array {
  return dxf([block('B', line)], [minsert('B', columns, rows, 2)]);
}

/** MINSERTs nested `levels` deep, each a `side` x `side` grid of the next (side^(2*levels) lines in ~400 bytes). */
export function nestedMinsertDxf(levels = 4, side = 100): Uint8Array {
  const blocks = [block(`L${levels}`, line)];
  for (let level = levels - 1; level >= 1; level--) blocks.push(block(`L${level}`, minsert(`L${level + 1}`, side, side, 2)));
  return dxf(blocks, [minsert('L1', side, side, 2 * side * side)]);
}

/** Blocks nested `depth` deep, each inserting the next twice: 2^depth lines from plain INSERTs. */
export function doublingBlocksDxf(depth = 23): Uint8Array {
  const insert = (name: string, x: number): string => `0\nINSERT\n8\n0\n2\n${name}\n10\n${x}\n20\n0\n`;
  const blocks = [block(`D${depth}`, line)];
  for (let level = depth - 1; level >= 1; level--) blocks.push(block(`D${level}`, insert(`D${level + 1}`, 0) + insert(`D${level + 1}`, 1)));
  return dxf(blocks, [insert('D1', 0)]);
}

/** A HATCH of a fine user-defined pattern over a large square: `lines` pattern lines in one entity. */
export function denseHatchDxf(size = 1_000_000, spacing = 0.01): Uint8Array {
  const boundary = [
    [0, 0],
    [size, 0],
    [size, size],
    [0, size],
  ]
    .map(([x, y]) => `10\n${x}\n20\n${y}\n`)
    .join('');
  const hatch = `0\nHATCH\n8\n0\n10\n0\n20\n0\n30\n0\n2\nUSER\n70\n0\n71\n0\n91\n1\n92\n3\n72\n0\n73\n1\n93\n4\n${boundary}97\n0\n75\n0\n76\n0\n52\n0\n41\n1\n77\n0\n78\n1\n53\n45\n43\n0\n44\n0\n45\n${-spacing}\n46\n${spacing}\n79\n0\n98\n0\n`;
  return dxf([], [hatch]);
}

/** A SPLINE of degree `degree` through `points` control points (de Boor's work grows with degree squared). */
export function splineDxf(points = 2_000, degree = 1_000): Uint8Array {
  const knots = Array.from({ length: points + degree + 1 }, (_, i) => `40\n${i}\n`).join('');
  const controls = Array.from({ length: points }, (_, i) => `10\n${i}\n20\n${i % 2}\n30\n0\n`).join('');
  return dxf([], [`0\nSPLINE\n8\n0\n70\n8\n71\n${degree}\n72\n${points + degree + 1}\n73\n${points}\n74\n0\n${knots}${controls}`]);
}

/** Adler-32 of `length` bytes all equal to `byte` (zlib's trailer), without making them. */
function adler32OfRepeated(byte: number, length: number): number {
  const mod = 65521n;
  const n = BigInt(length);
  const c = BigInt(byte);
  const a = (1n + n * c) % mod;
  const b = (n + (c * n * (n + 1n)) / 2n) % mod;
  return Number((b << 16n) | a);
}

/**
 * A zlib stream that inflates to `decodedBytes` spaces: one raw deflate segment of 8 MB, made
 * self-contained by a full flush (it refers to nothing before it), repeated, then a final empty
 * block and the checksum. About 1 KB of stream per MB of output.
 */
export function flateBomb(decodedBytes: number): Uint8Array {
  const SEGMENT = 8 << 20;
  if (decodedBytes % SEGMENT !== 0) throw new Error(`decodedBytes must be a multiple of ${SEGMENT}`);
  const segment = deflateRawSync(Buffer.alloc(SEGMENT, 0x20), { level: 9, finishFlush: zlib.Z_FULL_FLUSH });
  const copies = decodedBytes / SEGMENT;
  const out = new Uint8Array(2 + segment.length * copies + 2 + 4);
  out.set([0x78, 0xda], 0);
  for (let i = 0; i < copies; i++) out.set(segment, 2 + i * segment.length);
  let at = 2 + segment.length * copies;
  out.set([0x03, 0x00], at); // a final, empty block with fixed codes
  at += 2;
  new DataView(out.buffer).setUint32(at, adler32OfRepeated(0x20, decodedBytes));
  return out;
}

/** A PDF of objects (each `N 0 obj ... endobj`, streams given as [dict, bytes]), catalog 1, with its xref table. */
export function pdfOf(objects: (string | [string, Uint8Array])[]): Uint8Array {
  const parts: Uint8Array[] = [ascii('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const push = (bytes: Uint8Array): void => {
    parts.push(bytes);
    length += bytes.length;
  };
  objects.forEach((object, index) => {
    offsets.push(length);
    if (typeof object === 'string') return push(ascii(`${index + 1} 0 obj\n${object}\nendobj\n`));
    const [dict, bytes] = object;
    push(ascii(`${index + 1} 0 obj\n${dict}\nstream\n`));
    push(bytes);
    push(ascii('\nendstream\nendobj\n'));
  });
  const xref = length;
  const table = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  push(
    ascii(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${table}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A one-page PDF with a line on it, whose content stream inflates to `decodedBytes` more (1 GiB from ~1 MB). */
export function flateBombPdf(decodedBytes = 2 ** 30): Uint8Array {
  const stream = flateBomb(decodedBytes);
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents [4 0 R 5 0 R] >>',
    ['<< /Length 14 >>', ascii('10 10 m 90 90 l S')],
    [`<< /Length ${stream.length} /Filter /FlateDecode >>`, stream],
  ]);
}

/** A PDF of `pages` pages, each with a line, all drawing the same small content stream. */
export function manyPagesPdf(pages = 20_000): Uint8Array {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 4} 0 R`).join(' ');
  const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 3 0 R >>';
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ['<< /Length 17 >>', ascii('10 10 m 90 90 l S')],
    ...Array.from({ length: pages }, () => page),
  ]);
}

/**
 * What one conversion may make of a file (docs/decisions/0027-bounded-conversions.md). A small file
 * can describe an enormous amount of work: a 300-byte DXF with a MINSERT of 10^7 copies, MINSERTs
 * nested four deep, a 1 MB PDF whose content inflates to 1 GB. Each budget is checked as the work
 * goes, and the first one exceeded stops it with a CadLimitError naming it, so the conversion fails
 * early, with a reason, instead of filling memory or running until its time limit. The same budgets
 * guard the conversion workers, the `cad` command and its resident engine, and the viewer's build
 * worker. The defaults are about 40 times what the corpus's largest drawings need (82,000 entities
 * drawn, 350,000 points).
 */
import { CadLimitError, type LimitName } from './errors';

export type EngineLimits = Record<LimitName, number>;

export const ENGINE_LIMITS: Readonly<EngineLimits> = {
  /** Entities drawn, each block reference and each copy of a block's content counting once. */
  entities: 3_000_000,
  /** Points of the display lists (a line has 2; curves have their segments'). */
  points: 15_000_000,
  /** PDF input: pages converted in one go. */
  pdfPages: 100,
  /** PDF input: bytes its compressed streams (but images) inflate to, counted before pdf.js reads them. */
  pdfDecodedBytes: 256 * 1024 * 1024,
  /** Bytes of one output file. */
  outputBytes: 200 * 1024 * 1024,
  /** Pixels of an image: a PNG/JPG written, or an image of a PDF read (pdf.js drops a larger one undecoded). */
  pixels: 100_000_000,
};

/** The defaults with the caller's own values over them. */
export function limitsOf(overrides: Partial<EngineLimits> | undefined): EngineLimits {
  return { ...ENGINE_LIMITS, ...overrides };
}

/** An output file within the budget, or the CadLimitError that refuses it. */
export function checkOutputBytes(bytes: Uint8Array, limits: Partial<EngineLimits> = {}): Uint8Array {
  const max = limitsOf(limits).outputBytes;
  if (bytes.length > max)
    throw new CadLimitError('outputBytes', max, `the output would be ${bytes.length} bytes, over the ${max}-byte limit`);
  return bytes;
}

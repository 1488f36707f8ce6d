/**
 * Opens a drawing from its bytes, whatever it is: DXF (ASCII or binary) or DWG, recognised by
 * content, never by file name. Node-side entry (DWG reading runs the GPL reader as a separate
 * program through `dwg-client`, loaded only when the bytes are a DWG).
 */
import { CadReadError } from './errors';
import { detectDxf, readDxf, type ReadResult } from './dxf/index';

export type DrawingFormat = 'dxf' | 'dwg';

export interface OpenOptions {
  /** How long the DWG reader may take before the file is refused (default 120 s). */
  dwgTimeoutMs?: number;
  /** Force the DXF text encoding (a TextDecoder label), ignoring $DWGCODEPAGE. */
  encoding?: string;
}

export type OpenResult = ReadResult & { format: DrawingFormat };

const DEFAULT_DWG_TIMEOUT_MS = 120_000;

const ascii = (bytes: Uint8Array, start: number, end: number): string => String.fromCharCode(...bytes.subarray(start, end));

/** What a non-drawing file looks like, for the refusal message; null when it is not a known kind. */
function otherKind(bytes: Uint8Array): string | null {
  const head = ascii(bytes, 0, Math.min(bytes.length, 16));
  if (head.startsWith('%PDF-')) return 'PDF';
  if (bytes[0] === 0x89 && head.startsWith('PNG', 1)) return 'PNG image';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'JPEG image';
  if (head.startsWith('GIF8')) return 'GIF image';
  if (head.startsWith('BM') && bytes.length > 26 && bytes[14] !== undefined && bytes[14] >= 12 && bytes[15] === 0) return 'BMP image';
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'TIFF image';
  if (head.startsWith('(DWF V')) return 'DWF';
  if (head.startsWith('PK\x03\x04')) return 'ZIP archive (DWFx, DOCX or similar)';
  if (head.startsWith('Rar!') || (bytes[0] === 0x1f && bytes[1] === 0x8b) || head.startsWith('7z\xbc\xaf')) return 'compressed archive';
  if (/^\s*<(\?xml|svg|!DOCTYPE|html)/i.test(ascii(bytes, 0, Math.min(bytes.length, 64)))) return 'XML/SVG/HTML document';
  return null;
}

/** Could be DWG: every release starts with 'AC' ('AC1015', 'AC1.40', 'AC2.10'); dwg-client decides. */
function mayBeDwg(bytes: Uint8Array): boolean {
  return bytes.length >= 6 && bytes[0] === 0x41 && bytes[1] === 0x43;
}

/** A reader's failure as a one-line CadReadError naming the file; a crash inside a reader is 'corrupt'. */
function asReadError(what: string, err: unknown): CadReadError {
  if (err instanceof CadReadError) return new CadReadError(err.reason, `${what}${err.message}`);
  const message = err instanceof Error ? err.message : String(err);
  return new CadReadError('corrupt', `${what}the drawing is damaged and cannot be read (${message.split('\n')[0]})`);
}

function guard<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw asReadError(what, err);
  }
}

async function guardAsync<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw asReadError(what, err);
  }
}

/**
 * Reads a DXF or DWG drawing. Throws `CadReadError`: 'empty' for an empty file, 'unsupported' for
 * a PDF, an image or an unknown DWG version, 'not-dxf' when the bytes are no drawing at all,
 * 'corrupt' when a drawing cannot be decoded.
 */
export async function openDrawing(bytes: Uint8Array, name?: string, options: OpenOptions = {}): Promise<OpenResult> {
  const what = name ? `${name}: ` : '';
  if (bytes.length === 0 || bytes.every((b) => b === 0 || b === 9 || b === 10 || b === 13 || b === 32))
    throw new CadReadError('empty', `${what}the file is empty`);
  const kind = otherKind(bytes);
  if (kind === 'PDF')
    throw new CadReadError('unsupported', `${what}this is a PDF, not a DWG or DXF drawing (converting PDF to CAD is a separate tool)`);
  if (kind) throw new CadReadError('unsupported', `${what}this is a ${kind}, not a DWG or DXF drawing`);

  if (mayBeDwg(bytes)) {
    const dwg = await import('./dwg-client');
    if (dwg.isDwg(bytes)) {
      const result = await guardAsync(what, () => dwg.readDwg(bytes, { timeoutMs: options.dwgTimeoutMs ?? DEFAULT_DWG_TIMEOUT_MS }));
      return { ...result, format: 'dwg' };
    }
    if (/^AC[0-9.]{4}$/.test(ascii(bytes, 0, 6)))
      throw new CadReadError('unsupported', `${what}unsupported DWG version ${ascii(bytes, 0, 6)}`);
  }

  if (detectDxf(bytes))
    return { ...guard(what, () => readDxf(bytes, options.encoding ? { encoding: options.encoding } : {})), format: 'dxf' };
  throw new CadReadError('not-dxf', `${what}not a DWG or DXF drawing (unrecognised content)`);
}

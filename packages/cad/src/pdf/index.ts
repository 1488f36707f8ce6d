/**
 * PDF -> drawing model (for DXF/DWG writing): pdf.js reads the pages (its legacy build, in this
 * process, no worker thread), graphics.ts replays each page's operators with the graphics state,
 * entities.ts makes CAD entities of the result. Node-side (pdf.js is loaded on first use).
 *
 * Units: PDF points become millimetres (1 pt = 25.4/72 mm) and $INSUNITS = 4, so a 1:1 drawing
 * keeps its size. Pages are placed side by side in model space, left to right, 20 mm apart.
 */
import type * as PdfjsApi from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Color, Drawing, Entity, Header } from '../model';
import { emptyDrawing, finishDrawing } from '../drawing';
import { CadLimitError, CadReadError } from '../errors';
import { limitsOf, type EngineLimits } from '../limits';
import { affineMultiply, type Affine2D } from '../geom/matrix';
import { rectRegion, replayPage, type FontInfo, type Mark, type PageMarks } from './graphics';
import { colorOf, isDark, markEntities, Tables, takeBackground } from './entities';
import { parsePageRange } from './pages';
import { checkPdfStreams } from './streams';

export interface PdfToDrawingOptions {
  /** Pages to convert, 1-based: '1-3,5'. Default: all. */
  pages?: string;
  /** Bezier curves as SPLINE (default) or as polylines within 0.05 mm. */
  curves?: 'spline' | 'polyline';
  /** One layer per colour (default), or per PDF layer (optional content group) when the file has them. */
  layers?: 'color' | 'pdf';
  /** The budgets (limits.ts): pages, inflated bytes, entities made, pixels of an image read. */
  limits?: Partial<EngineLimits>;
}

export interface PdfToDrawingResult {
  drawing: Drawing;
  /** What was approximated, skipped or placed, one line each. */
  notes: string[];
  /** Pages (1-based) with images and no vector content: nothing converted from them. */
  rasterOnlyPages: number[];
  pageCount: number;
}

/** Millimetres per PDF point. */
export const MM_PER_PT = 25.4 / 72;
/** Space between pages placed side by side, mm. */
export const PAGE_GAP_MM = 20;

export const RASTER_ONLY_MESSAGE = '该PDF为扫描件或纯图片，没有可转换的矢量内容';

/** The parts of pdf.js used here (its types are not imported so the module loads lazily). */
interface PdfPage {
  /** The crop box, user space. */
  view: number[];
  getViewport(o: { scale: number }): { transform: number[]; width: number; height: number };
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[] }>;
  commonObjs: { has(id: string): boolean; get(id: string): unknown };
  cleanup(): void;
}
interface PdfDoc {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getOptionalContentConfig(): Promise<{ getGroups(): Record<string, { name?: string | null; visible?: boolean }> | null }>;
  destroy(): Promise<void>;
}

/**
 * pdf.js' CJK CMaps and standard-font data, from its package folder. Node's modules are taken
 * with process.getBuiltinModule, not imported: the package index stays browser-safe, and a
 * bundled build (packages/cad-cli/bin/cad.cjs) needs no dynamic import.
 */
function pdfjsAssets(): { cMapUrl: string; standardFontDataUrl: string } {
  const { createRequire } = process.getBuiltinModule('node:module');
  const path = process.getBuiltinModule('node:path');
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return { cMapUrl: `${root}/cmaps/`, standardFontDataUrl: `${root}/standard_fonts/` };
}

/**
 * pdf.js in this process: its API, and its "worker" (the parser) loaded here and handed over as
 * `globalThis.pdfjsWorker`, which pdf.js' in-process fake worker takes instead of importing its
 * worker file by path (an import a bundled build cannot make). Loaded once, on first use.
 */
let pdfjsLoaded: Promise<typeof PdfjsApi> | null = null;
function loadPdfjs(): Promise<typeof PdfjsApi> {
  pdfjsLoaded ??= (async () => {
    const nativePush = Array.prototype.push;
    const nativeParse = JSON.parse;
    // The worker module ships without type declarations: its specifier is typed as a plain string
    // (so TypeScript does not look for them); bundlers still see a literal and include it.
    const [pdfjs, worker] = await Promise.all([
      import('pdfjs-dist/legacy/build/pdf.mjs'),
      import('pdfjs-dist/legacy/build/pdf.worker.mjs' as string) as Promise<unknown>,
    ]);
    const g = globalThis as { pdfjsWorker?: unknown };
    g.pdfjsWorker ??= worker;
    // The legacy build's polyfills (core-js) replace two built-ins Node has, for the whole process:
    // Array.prototype.push (a spec corner: pushing onto a frozen length) and JSON.parse (a
    // proposal). Their stand-ins are several times slower - every push in the process, the DXF
    // writer's and the renderer's included - and pdf.js needs neither: Node's own go back.
    const restore = (target: object, key: string, value: unknown): void => {
      if ((target as Record<string, unknown>)[key] !== value)
        Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: false });
    };
    restore(Array.prototype, 'push', nativePush);
    restore(JSON, 'parse', nativeParse);
    return pdfjs;
  })();
  return pdfjsLoaded;
}

async function openPdf(bytes: Uint8Array, limits: EngineLimits): Promise<PdfDoc> {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  if (!head.includes('%PDF-')) throw new CadReadError('corrupt', '文件不是PDF格式，无法转换');
  await checkPdfStreams(bytes, limits.pdfDecodedBytes);
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    // pdf.js takes ownership of the buffer it is given: a copy keeps the caller's bytes intact.
    // A plain Uint8Array: pdf.js refuses a Node Buffer (whose slice() would share memory anyway).
    data: new Uint8Array(bytes),
    ...pdfjsAssets(),
    cMapPacked: true,
    isEvalSupported: false,
    // Images are not converted (only counted): a larger one is dropped rather than decoded.
    maxImageSize: limits.pixels,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    return (await task.promise) as unknown as PdfDoc;
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    if (name === 'PasswordException') throw new CadReadError('unsupported', 'PDF已加密，需要密码才能打开，请先解除密码保护再转换');
    throw new CadReadError('corrupt', `PDF文件已损坏或格式不正确，无法读取（${err instanceof Error ? err.message : String(err)}）`);
  }
}

/** A pdf.js font as the replay needs it: family without the subset tag, matrix, writing mode. */
function fontInfo(font: unknown): FontInfo | null {
  if (!font || typeof font !== 'object') return null;
  const f = font as { name?: unknown; fallbackName?: unknown; fontMatrix?: unknown; vertical?: unknown };
  let family = typeof f.name === 'string' ? f.name.replace(/^[A-Z]{6}\+/, '') : '';
  // Chinese font names are often stored in GBK bytes (宋体 as "ËÎÌå").
  if (/[\u0080-\u00ff]/.test(family) && Array.from(family).every((c) => c.charCodeAt(0) <= 0xff)) {
    try {
      family = new TextDecoder('gbk', { fatal: true }).decode(Uint8Array.from(family, (c) => c.charCodeAt(0)));
    } catch {
      // Not GBK: keep the name as read.
    }
  }
  const m =
    Array.isArray(f.fontMatrix) && f.fontMatrix.length === 6 ? (f.fontMatrix as Affine2D) : ([0.001, 0, 0, 0.001, 0, 0] as Affine2D);
  return { family, fontMatrix: m, vertical: f.vertical === true };
}

/** PDF user space -> model-space mm: the page's view box and rotation, y up, placed at `offsetX`. */
function pageMatrix(viewport: { transform: number[]; height: number }, offsetX: number): Affine2D {
  const t = viewport.transform;
  const view: Affine2D = [t[0] ?? 1, t[1] ?? 0, t[2] ?? 0, t[3] ?? 1, t[4] ?? 0, t[5] ?? 0];
  const yUp: Affine2D = [MM_PER_PT, 0, 0, -MM_PER_PT, offsetX, viewport.height * MM_PER_PT];
  return affineMultiply(yUp, view);
}

const LAYER_NAME_BAD = /[<>/\\":;?*|=`,]/g;

/**
 * Layer naming: 'PDF_255_0_0' per colour, or the optional content group's name. A colour layer's
 * colour is set when it is made: white is the foreground (ACI 7) if the first page using it is dark.
 */
function layerChooser(
  mode: 'color' | 'ocg',
  groups: Record<string, { name?: string | null; visible?: boolean }>,
  page: { dark: boolean },
): (m: Mark) => { name: string; color: Color; on?: boolean } {
  if (mode === 'ocg') {
    return (m) => {
      const g = m.ocg ? groups[m.ocg] : undefined;
      if (!g) return { name: '0', color: { aci: 7 } };
      const name = (g.name ?? '').replace(LAYER_NAME_BAD, '_').trim() || `PDF_LAYER_${m.ocg ?? ''}`;
      return { name, color: { aci: 7 }, on: g.visible !== false };
    };
  }
  return (m) => ({ name: `PDF_${(m.rgb >> 16) & 255}_${(m.rgb >> 8) & 255}_${m.rgb & 255}`, color: colorOf(m.rgb, page.dark) });
}

function pageNotes(p: number, marks: PageMarks, entities: number, background: { count: number; rgb: number | null }): string[] {
  const notes: string[] = [];
  const n = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;
  if (background.rgb !== null) {
    const hex = `#${background.rgb.toString(16).padStart(6, '0')}`;
    notes.push(
      `page ${p}: ${background.count === 1 ? 'the page background fill' : `${background.count} page background fills`} (${hex}) left out${isDark(background.rgb) ? ': a dark page, so white is the foreground colour (ACI 7)' : ''}`,
    );
  }
  if (marks.images && entities) notes.push(`page ${p}: ${n(marks.images, 'image')} not converted (vector content only)`);
  if (marks.clipped)
    notes.push(
      `page ${p}: ${n(marks.clipped, 'path or text item', 'paths or text items')} cut to the visible area (page edge, clipping paths)`,
    );
  if (marks.shadings) notes.push(`page ${p}: ${n(marks.shadings, 'gradient (shading) fill')} skipped`);
  if (marks.patternFills) notes.push(`page ${p}: ${n(marks.patternFills, 'pattern colour')} converted as solid grey`);
  if (marks.invisibleText) notes.push(`page ${p}: ${n(marks.invisibleText, 'invisible text item')} (an OCR layer) skipped`);
  if (marks.verticalText) notes.push(`page ${p}: vertical text converted as horizontal runs`);
  const mirrored = marks.marks.filter((m) => m.kind === 'text' && m.mirrored).length;
  if (mirrored) notes.push(`page ${p}: ${n(mirrored, 'mirrored text item')} converted unmirrored`);
  return notes;
}

/** Converts the chosen pages of a PDF to a drawing in millimetres. */
export async function pdfToDrawing(bytes: Uint8Array, options: PdfToDrawingOptions = {}): Promise<PdfToDrawingResult> {
  const limits = limitsOf(options.limits);
  const doc = await openPdf(bytes, limits);
  try {
    const pageCount = doc.numPages;
    const pages = parsePageRange(options.pages, pageCount);
    if (typeof pages === 'string') {
      const { CadConvertError } = await import('../convert');
      throw new CadConvertError('bad-option', pages);
    }
    if (pages.length > limits.pdfPages)
      throw new CadLimitError(
        'pdfPages',
        limits.pdfPages,
        `${pages.length} pages to convert, over the limit of ${limits.pdfPages}: choose a page range`,
      );
    const notes: string[] = [];
    let groups: Record<string, { name?: string | null; visible?: boolean }> = {};
    if (options.layers === 'pdf') {
      groups = (await doc.getOptionalContentConfig()).getGroups() ?? {};
      if (!Object.keys(groups).length) notes.push('the PDF has no layers (optional content groups): one layer per colour instead');
    }
    const byOcg = Object.keys(groups).length > 0;
    const header: Header = {
      acadVersion: 'AC1032',
      release: 'R2018',
      encoding: 'utf-8',
      insUnits: 4,
      measurement: 1,
      vars: { $ACADVER: 'AC1032', $INSUNITS: 4, $MEASUREMENT: 1, $LTSCALE: 1 },
      ltscale: 1,
    };
    const drawing = emptyDrawing(header);
    const tables = new Tables(drawing);
    tables.layer('0', { aci: 7 });
    for (const name of ['ByBlock', 'ByLayer', 'Continuous'])
      drawing.linetypes[name] = { name, description: name === 'Continuous' ? 'Solid line' : '', totalLength: 0, elements: [] };
    tables.textStyle('');
    const pageLook = { dark: false };
    const entityOptions = {
      curves: options.curves ?? 'spline',
      layerOf: layerChooser(byOcg ? 'ocg' : 'color', groups, pageLook),
      ownColor: byOcg,
      dark: false,
    };

    const rasterOnlyPages: number[] = [];
    let offsetX = 0;
    let maxHeight = 0;
    let placed = 0;
    for (const p of pages) {
      const page = await doc.getPage(p);
      const viewport = page.getViewport({ scale: 1 });
      const ops = await page.getOperatorList();
      const fonts = new Map<string, FontInfo | null>();
      const fontOf = (id: string): FontInfo | null => {
        if (!fonts.has(id)) fonts.set(id, page.commonObjs.has(id) ? fontInfo(page.commonObjs.get(id)) : null);
        return fonts.get(id) ?? null;
      };
      const toModel = pageMatrix(viewport, offsetX);
      const marks = replayPage(ops.fnArray, ops.argsArray, toModel, fontOf, rectRegion(page.view, toModel));
      const w = viewport.width * MM_PER_PT,
        h = viewport.height * MM_PER_PT;
      const background = takeBackground(marks.marks, w * h);
      pageLook.dark = entityOptions.dark = background.rgb !== null && isDark(background.rgb);
      const entities: Entity[] = markEntities(marks.marks, tables, entityOptions);
      page.cleanup();
      notes.push(...pageNotes(p, marks, entities.length, background));
      if (!entities.length) {
        if (marks.images) {
          rasterOnlyPages.push(p);
          notes.push(`page ${p}: scanned or image-only (no vector paths or text): nothing to convert`);
        } else notes.push(`page ${p}: blank (no vector paths, text or images)`);
        continue;
      }
      for (const e of entities) drawing.modelSpace.push(e);
      if (drawing.modelSpace.length > limits.entities)
        throw new CadLimitError('entities', limits.entities, `the pages converted make more than ${limits.entities} entities`);
      if (placed)
        notes.push(`page ${p} placed to the right of the previous page (x from ${offsetX.toFixed(1)} mm, ${PAGE_GAP_MM} mm apart)`);
      placed++;
      offsetX += w + PAGE_GAP_MM;
      maxHeight = Math.max(maxHeight, h);
    }
    if (!drawing.modelSpace.length) {
      if (rasterOnlyPages.length) throw new CadReadError('empty', RASTER_ONLY_MESSAGE);
      throw new CadReadError('empty', 'PDF所选页面是空白页，没有可转换的内容');
    }
    const extMax: [number, number, number] = [Math.max(0, offsetX - PAGE_GAP_MM), maxHeight, 0];
    Object.assign(header.vars, { $EXTMIN: [0, 0, 0], $EXTMAX: extMax, $LIMMIN: [0, 0, 0], $LIMMAX: extMax });
    Object.assign(header, { extMin: [0, 0, 0], extMax, limMin: [0, 0, 0], limMax: extMax });
    drawing.layouts.push(
      { name: 'Model', tabOrder: 0, blockName: '*Model_Space', isModel: true, viewports: [] },
      { name: 'Layout1', tabOrder: 1, blockName: '*Paper_Space', isModel: false, entities: [], viewports: [] },
    );
    drawing.stats.entities = drawing.modelSpace.length;
    finishDrawing(drawing, [], notes);
    return { drawing, notes, rasterOnlyPages, pageCount };
  } finally {
    await doc.destroy();
  }
}

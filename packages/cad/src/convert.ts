/**
 * Drawing bytes → PDF / PNG / JPG / SVG: the one library call behind the `cad convert` command and
 * the conversion workers. Node-side (reads fonts from disk, DWG through its own program).
 */
import type { Drawing, Layout } from './model';
import type { BuildResult, Scene } from './display/types';
import { buildScenes } from './display/builder';
import { CadReadError } from './errors';
import { checkOutputBytes } from './limits';
import { openDrawing, type DrawingFormat } from './open';
import type { FontProvider } from './text/fonts';
import type { OutputFormat, PaperName, RenderOptions } from './render/options';
import { RASTER_MAX_SIDE } from './render/options';
import { writeDxf, type DxfVersion } from './dxf-writer/writer';
import { writeDwg, type DwgVersion } from './dwg-writer/writer';
import type { SaveAsChange } from './save-as';
import { graphicsLowering } from './save-as-graphics';
import { attachCompanions, type CompanionFile, type CompanionSource, type ReferenceReport } from './companions';
import { attachUnderlays, type UnderlayPages } from './underlay-files';

export { attachUnderlays };

/** What the back ends take besides the format (paper, orientation, colour, width or dpi, background, JPG quality). */
export type RenderChoices = Omit<RenderOptions, 'format'>;
export type { OutputFormat, PaperName };

export interface ConvertOptions extends RenderChoices {
  format: OutputFormat;
  /** A layout by name ('Model' = model space). Default: the model, or the first layout with content when the model is empty. */
  layout?: string;
  /** Every layout with content: one multi-page PDF, or one raster/SVG output per layout. */
  allLayouts?: boolean;
  /** Fonts; default: the system fonts plus `fontDirs` and $CAD_FONT_DIR (SHX and TrueType folders). */
  fonts?: FontProvider;
  fontDirs?: string[];
  /** File name, for error messages (and an xref that refers back to this drawing). */
  name?: string;
  dwgTimeoutMs?: number;
  /** Files supplied with the drawing, or where to look them up: the pictures and drawings it refers to (companions.ts). */
  companions?: readonly CompanionFile[] | CompanionSource;
  /** The pages of the PDFs given with the drawing, for its PDF underlays (the caller reads them with pdf/). */
  underlayPages?: UnderlayPages;
}

export interface ConvertOutput {
  /** The layout drawn ('Model' for model space). */
  name: string | undefined;
  /** The layouts drawn in it, in page order. */
  layouts: string[];
  data: Uint8Array;
}

export interface ConvertResult {
  outputs: ConvertOutput[];
  format: DrawingFormat;
  /** Reader and builder warnings, one line each. */
  warnings: string[];
  /** Fonts not found whose substitute looks different (BuildResult.missingFonts). */
  missingFonts: string[];
  /** Characters no available font has. */
  missingCharacters: string[];
  /** Entity types drawn, over the scenes rendered (a raster with no ink while this is non-zero is a bug). */
  drawn: Record<string, number>;
  /** Entity types that could not be drawn (no way to draw them here, or one that failed), with counts. */
  skipped: Record<string, number>;
  /** The drawing's pictures and external references: which the supplied files answered, which not. */
  references: ReferenceReport;
}

/** Refusals that are about the request, not the file (an unknown layout, contradictory options). */
export class CadConvertError extends Error {
  readonly reason: 'unknown-layout' | 'bad-option';
  constructor(reason: 'unknown-layout' | 'bad-option', message: string) {
    super(message);
    this.name = 'CadConvertError';
    this.reason = reason;
  }
}

const FORMATS: readonly OutputFormat[] = ['pdf', 'png', 'jpg', 'svg'];

function checkOptions(o: ConvertOptions): void {
  if (!FORMATS.includes(o.format))
    throw new CadConvertError('bad-option', `unknown output format '${String(o.format)}' (pdf, png, jpg or svg)`);
  if (o.width !== undefined && o.dpi !== undefined) throw new CadConvertError('bad-option', 'give either a width or a DPI, not both');
  if (o.layout !== undefined && o.allLayouts) throw new CadConvertError('bad-option', 'give either a layout or all layouts, not both');
  if (o.width !== undefined && !(Number.isInteger(o.width) && o.width >= 1 && o.width <= MAX_WIDTH))
    throw new CadConvertError('bad-option', `width must be a whole number of pixels from 1 to ${MAX_WIDTH}`);
  if (o.dpi !== undefined && !(Number.isFinite(o.dpi) && o.dpi >= 1 && o.dpi <= MAX_DPI))
    throw new CadConvertError('bad-option', `DPI must be a number from 1 to ${MAX_DPI}`);
  if (o.quality !== undefined && !(o.quality >= 1 && o.quality <= 100))
    throw new CadConvertError('bad-option', 'JPG quality must be from 1 to 100');
}

export const MAX_WIDTH = RASTER_MAX_SIDE;
export const MAX_DPI = 2400;

const hasInk = (s: Scene): boolean => s.bounds !== null;

/** Names of the layouts a drawing has ('Model' first), for messages. */
export function layoutNames(drawing: Drawing): string[] {
  const names = drawing.layouts.map((l) => (l.isModel ? 'Model' : l.name));
  return names.includes('Model') ? names : ['Model', ...names];
}

const paperCount = (l: Layout): number => l.entities?.filter((e) => e.type !== 'VIEWPORT').length ?? 0;

/** The 'empty' refusal, saying why nothing is drawn. `layout` names the one layout asked for. */
function nothingToDraw(drawing: Drawing, build: BuildResult, name: string | undefined, layout?: Layout): CadReadError {
  const where = layout ? ` in layout '${layout.isModel ? 'Model' : layout.name}'` : '';
  const what = `${name ? `${name}: ` : ''}no drawable entities${where}`;
  const total = layout
    ? layout.isModel
      ? drawing.modelSpace.length
      : paperCount(layout) + layout.viewports.filter((v) => v.id !== 1).length
    : drawing.modelSpace.length + drawing.layouts.reduce((n, l) => n + paperCount(l), 0);
  if (total === 0) {
    const blocks = Object.values(drawing.blocks).filter((b) => !b.name.startsWith('*') && b.entities.length > 0).length;
    const unused = !layout && blocks ? ` (${blocks} block definition${blocks === 1 ? '' : 's'}, none inserted)` : '';
    return new CadReadError('empty', `${what}: ${layout ? 'the layout' : 'the drawing'} is empty${unused}`);
  }
  const skipped = Object.entries(build.counts.skipped).sort((a, b) => b[1] - a[1]);
  const skippedTotal = skipped.reduce((n, [, c]) => n + c, 0);
  const list = skipped
    .slice(0, 6)
    .map(([t, n]) => `${n} ${t}`)
    .join(', ');
  if (skippedTotal >= total) return new CadReadError('empty', `${what}: only entity types not drawn here (${list})`);
  const hidden = `the ${total} entit${total === 1 ? 'y is' : 'ies are'} on layers that are off, frozen or not plotted, or invisible`;
  return new CadReadError('empty', `${what}: ${hidden}${skippedTotal ? `; not drawn here: ${list}` : ''}`);
}

/** Picks the scenes to draw; throws when there is nothing to draw. */
function chooseScenes(
  drawing: Drawing,
  fonts: FontProvider,
  options: Pick<ConvertOptions, 'layout' | 'allLayouts' | 'name' | 'limits'>,
): BuildResult {
  const limits = options.limits;
  if (options.layout !== undefined) {
    const wanted = options.layout.toLowerCase();
    const layout = drawing.layouts.find((l) => l.name.toLowerCase() === wanted || (l.isModel && wanted === 'model'));
    if (!layout && wanted !== 'model')
      throw new CadConvertError('unknown-layout', `no layout named '${options.layout}' (layouts: ${layoutNames(drawing).join(', ')})`);
    const model: Layout = { name: 'Model', tabOrder: 0, blockName: '*Model_Space', isModel: true, viewports: [] };
    const chosen = layout ?? model;
    const build = buildScenes(drawing, { layouts: chosen.isModel ? 'model' : [chosen.name], fonts, limits });
    const scenes = build.scenes.filter(hasInk);
    if (!scenes.length) throw nothingToDraw(drawing, build, options.name, chosen);
    return { ...build, scenes };
  }
  if (options.allLayouts) {
    const build = buildScenes(drawing, { layouts: 'all', fonts, limits });
    const scenes = build.scenes.filter(hasInk);
    if (!scenes.length) throw nothingToDraw(drawing, build, options.name);
    return { ...build, scenes };
  }
  // Default: the model; when it draws nothing, the first paper-space layout that does. Only the
  // scene drawn is built (one layout at a time), not every layout of the drawing.
  const model = buildScenes(drawing, { layouts: 'model', fonts, limits });
  const first = model.scenes.find(hasInk);
  if (first) return { ...model, scenes: [first] };
  const papers = drawing.layouts.filter((l) => !l.isModel);
  if (!papers.length) throw nothingToDraw(drawing, model, options.name);
  for (const paper of papers) {
    if (!paperCount(paper) && !paper.viewports.some((v) => v.id !== 1 && v.on)) continue;
    const one = buildScenes(drawing, { layouts: [paper.name], fonts, limits });
    const layout = one.scenes.find((s) => !s.isModel && hasInk(s));
    if (layout) return { ...one, scenes: [layout] };
  }
  // Nothing anywhere: every layout built, for the reason given.
  throw nothingToDraw(drawing, buildScenes(drawing, { layouts: 'all', fonts, limits }), options.name);
}

/** The back-end options among a conversion's options. */
function renderChoices(o: ConvertOptions): RenderChoices {
  const {
    format: _format,
    layout: _layout,
    allLayouts: _all,
    fonts: _fonts,
    fontDirs: _dirs,
    name: _name,
    dwgTimeoutMs: _timeout,
    underlayPages: _underlays,
    ...choices
  } = o;
  return choices;
}

/** The font provider for a conversion: the system fonts, `fontDirs` and $CAD_FONT_DIR (SHX and TrueType folders). */
export async function defaultFonts(fontDirs: string[] = []): Promise<FontProvider> {
  const { nodeFontProvider } = await import('./text/node-fonts');
  return nodeFontProvider({ fontDirs });
}

/**
 * One back end, loaded on demand: a PDF need not load the raster library nor a PNG pdfkit (each
 * costs a tenth of a second or more at start-up, which the `cad` command pays per file). Same
 * functions as `render/index.ts`'s `renderScenes`.
 */
async function render(scenes: Scene[], options: RenderOptions): Promise<Uint8Array> {
  switch (options.format) {
    case 'pdf':
      return (await import('./render/node-pdf')).renderPdf(scenes, options);
    case 'png':
    case 'jpg':
      return (await import('./render/node-raster')).renderRaster(scenes[0], options);
    case 'svg':
      return (await import('./render/svg')).renderSvg(scenes[0], options);
  }
}

/** 'AC' and a release number: the bytes are (probably) a DWG, read by a separate process. */
const isDwgSignature = (bytes: Uint8Array): boolean =>
  bytes.length >= 6 && bytes[0] === 0x41 && bytes[1] === 0x43 && /^AC[0-9.]{4}$/.test(String.fromCharCode(...bytes.subarray(0, 6)));

/**
 * While the DWG reader runs in its own process, this one waits: load the back end meanwhile (and
 * let the canvas read the installed fonts' names). Started on the next turn of the event loop, once
 * the reader has been started. Never fails: the conversion does the same again if needed.
 */
function warmUpWhileReading(format: OutputFormat): Promise<void> {
  return new Promise<void>((done) => {
    setImmediate(() => {
      const load =
        format === 'pdf'
          ? import('./render/node-pdf')
          : format === 'png' || format === 'jpg'
            ? import('./render/node-raster').then((m) => m.warmUpRaster())
            : null;
      if (!load) return done();
      load.then(
        () => done(),
        () => done(),
      );
    });
  });
}

/** Renders already built scenes: one PDF for all, or one raster/SVG per scene. */
export async function renderChosen(scenes: Scene[], options: ConvertOptions): Promise<ConvertOutput[]> {
  const choices = renderChoices(options);
  if (options.format === 'pdf') {
    const data = checkOutputBytes(await render(scenes, { format: 'pdf', ...choices }), options.limits);
    return [{ name: scenes.length === 1 ? scenes[0]?.name : undefined, layouts: scenes.map((s) => s.name), data }];
  }
  const outputs: ConvertOutput[] = [];
  for (const scene of scenes)
    outputs.push({
      name: scene.name,
      layouts: [scene.name],
      data: checkOutputBytes(await render([scene], { format: options.format, ...choices }), options.limits),
    });
  return outputs;
}

/** A drawing read and its scenes chosen, ready to render (once or in several formats). */
export interface PreparedConversion {
  format: DrawingFormat;
  drawing: Drawing;
  scenes: Scene[];
  warnings: string[];
  missingFonts: string[];
  missingCharacters: string[];
  /** Entity types drawn in the chosen scenes' build. */
  drawn: Record<string, number>;
  /** Entity types the build could not draw, with counts. */
  skipped: Record<string, number>;
  references: ReferenceReport;
}

/** Reads the bytes and chooses the scenes (the first half of `convertDrawing`). Throws as it does. */
export async function prepareConversion(
  bytes: Uint8Array,
  options: Omit<ConvertOptions, 'format'> & { format?: OutputFormat },
): Promise<PreparedConversion> {
  checkOptions({ format: 'pdf', ...options });
  const opened = await openDrawing(bytes, options.name, options.dwgTimeoutMs !== undefined ? { dwgTimeoutMs: options.dwgTimeoutMs } : {});
  const fonts = options.fonts ?? (await defaultFonts(options.fontDirs));
  const references = await attachCompanions(opened.drawing, options.companions ?? [], {
    ...(options.name ? { name: options.name } : {}),
    open: async (b, name) =>
      (await openDrawing(b, name, options.dwgTimeoutMs !== undefined ? { dwgTimeoutMs: options.dwgTimeoutMs } : {})).drawing,
  });
  const loadWarnings: string[] = [];
  if (options.underlayPages) await attachUnderlays(opened.drawing, options.underlayPages, loadWarnings);
  const build = chooseScenes(opened.drawing, fonts, options);
  return {
    format: opened.format,
    drawing: opened.drawing,
    scenes: build.scenes,
    warnings: [...opened.warnings, ...loadWarnings, ...build.warnings.map((w) => w.message)],
    missingFonts: build.missingFonts,
    missingCharacters: build.missingCharacters,
    drawn: build.counts.drawn,
    skipped: build.counts.skipped,
    references,
  };
}

/**
 * Converts drawing bytes (DXF or DWG) to PDF, PNG, JPG or SVG. Throws `CadReadError` when the file
 * cannot be read or has nothing to draw ('empty'), `CadConvertError` for an unknown layout or
 * contradictory options.
 */
export async function convertDrawing(bytes: Uint8Array, options: ConvertOptions): Promise<ConvertResult> {
  checkOptions(options);
  const warm = isDwgSignature(bytes) ? warmUpWhileReading(options.format) : null;
  const prepared = await prepareConversion(bytes, options);
  await warm;
  const outputs = await renderChosen(prepared.scenes, options);
  const { format, warnings, missingFonts, missingCharacters, drawn, skipped, references } = prepared;
  return { outputs, format, warnings, missingFonts, missingCharacters, drawn, skipped, references };
}

/** What a drawing holds, as a conversion's result page says it: its layouts with content ('Model' for model space) and their objects. */
export interface DrawingSummary {
  layouts: string[];
  objects: number;
}

/** The layouts with something in them ('Model' first) and the objects of model and paper space (blocks' contents not counted). */
export function drawingSummary(drawing: Drawing): DrawingSummary {
  const paper = drawing.layouts.filter((l) => !l.isModel && (l.entities?.length ?? 0) > 0);
  return {
    layouts: [...(drawing.modelSpace.length > 0 ? ['Model'] : []), ...paper.map((l) => l.name)],
    objects: drawing.modelSpace.length + paper.reduce((n, l) => n + (l.entities?.length ?? 0), 0),
  };
}

/** The DXF or DWG version a drawing is saved as. */
export type SaveAsTarget = { format: 'dxf'; version: DxfVersion } | { format: 'dwg'; version: DwgVersion };

export interface SavedDrawing {
  bytes: Uint8Array;
  /** The writer's English lines and the same changes as the save-as report (decision 0037). */
  notes: string[];
  changes: SaveAsChange[];
  /** What the drawing saved holds (decision 0036). */
  summary: DrawingSummary;
}

/**
 * A drawing already read, saved as a DXF or DWG of a version the way `convertToDxf`/`convertToDwg`
 * save it (with the graphic lowering of objects the version cannot hold), and what it holds: the
 * conversion workers read the drawing themselves (a DWG within the job's time limit, or a PDF's vectors).
 */
export function writeDrawingAs(drawing: Drawing, target: SaveAsTarget): SavedDrawing {
  const graphics = graphicsLowering(drawing);
  const out =
    target.format === 'dwg'
      ? writeDwg(drawing, { version: target.version, graphics })
      : writeDxf(drawing, { version: target.version, graphics });
  return { bytes: out.bytes, notes: out.notes, changes: out.changes, summary: drawingSummary(drawing) };
}

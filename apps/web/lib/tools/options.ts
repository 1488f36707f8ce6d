import {
  cadVersionsFor,
  ZConversionOptions,
  type TCadVersion,
  type TConversionOptions,
  type TOutputExtension,
  type TTaskType,
} from '@xcad/protocol';

// The options each tool offers (decision 0019) and how they travel: the output in `outputfileextension`,
// the target version of cad2ver in `fileversion`, everything else as JSON in `parainfo`
// (protocol ZConversionOptions). Choices are fixed lists, so only the PDF page range is typed.

type Choice<T> = NonNullable<T>;
export type Paper = Choice<TConversionOptions['paper']>;
export type Orientation = Choice<TConversionOptions['orientation']>;
export type ColorMode = Choice<TConversionOptions['color']>;
export type Background = Choice<TConversionOptions['background']>;

export const PAPERS: readonly Paper[] = ZConversionOptions.shape.paper.unwrap().options;
export const ORIENTATIONS: readonly Orientation[] = ZConversionOptions.shape.orientation.unwrap().options;
export const COLOR_MODES: readonly ColorMode[] = ZConversionOptions.shape.color.unwrap().options;
export const BACKGROUNDS: readonly Background[] = ZConversionOptions.shape.background.unwrap().options;

/** Image widths offered (px): screen, 2K, 4K and print sizes within the protocol's 64-8000. */
export const IMAGE_WIDTHS = [1280, 1920, 2560, 3840, 7680] as const;
/** DPI offered: screen, draft, print and fine print within the protocol's 36-600. */
export const IMAGE_DPIS = [96, 150, 200, 300, 600] as const;

type ImageWidth = (typeof IMAGE_WIDTHS)[number];
type ImageDpi = (typeof IMAGE_DPIS)[number];

interface Cad2PdfOptions {
  readonly tool: 'cad2pdf';
  /** The model (or the first layout with content when the model is empty), or every layout. */
  readonly scope: 'model' | 'all';
  readonly paper: Paper;
  readonly orientation: Orientation;
  readonly color: ColorMode;
}

interface Cad2JpgOptions {
  readonly tool: 'cad2jpg';
  readonly format: 'jpg' | 'png';
  readonly scope: 'model' | 'all';
  readonly sizeBy: 'width' | 'dpi';
  readonly width: ImageWidth;
  readonly dpi: ImageDpi;
  readonly background: Background;
  readonly color: ColorMode;
}

export interface Cad2VerOptions {
  readonly tool: 'cad2ver';
  readonly version: TCadVersion;
  readonly format: 'dwg' | 'dxf';
}

interface Pdf2CadOptions {
  readonly tool: 'pdf2cad';
  /** The same versions as cad2ver (decision 0036). */
  readonly version: TCadVersion;
  readonly format: 'dwg' | 'dxf';
  readonly pageScope: 'all' | 'range';
  /** As typed, e.g. `1-3, 5`; read only when `pageScope` is 'range'. */
  readonly pages: string;
}

export type ToolOptions = Cad2PdfOptions | Cad2JpgOptions | Cad2VerOptions | Pdf2CadOptions;
export type OptionsOf<T extends TTaskType> = Extract<ToolOptions, { tool: T }>;

export function defaultOptionsOf(tool: TTaskType): ToolOptions {
  switch (tool) {
    case 'cad2pdf':
      return { tool, scope: 'model', paper: 'fit', orientation: 'auto', color: 'color' };
    case 'cad2jpg':
      return { tool, format: 'jpg', scope: 'model', sizeBy: 'width', width: 2560, dpi: 150, background: 'white', color: 'color' };
    case 'cad2ver':
      // Saving a DWG down for an older program is what most people come for; 2004 opens almost
      // everywhere.
      return { tool, version: '2004', format: 'dwg' };
    case 'pdf2cad':
      return { tool, version: '2004', format: 'dwg', pageScope: 'all', pages: '' };
  }
}

/** The tools that write DWG or DXF: cad2ver and pdf2cad offer the same versions (decision 0036). */
export type CadOutputOptions = Cad2VerOptions | Pdf2CadOptions;

/** The versions offered for the chosen format (DWG is written in fewer versions than DXF). */
export function versionsOf(options: CadOutputOptions): readonly TCadVersion[] {
  return cadVersionsFor(options.format);
}

/** Another format: a version that format is not written in becomes 2004 (written in both). */
export function withCadFormat<T extends CadOutputOptions>(options: T, format: CadOutputOptions['format']): T {
  return { ...options, format, version: cadVersionsFor(format).includes(options.version) ? options.version : '2004' };
}

const PAGE_RANGES = /^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$/;
const PAGES_MAX_LENGTH = 64;

/**
 * A page range as the server takes it (`1-3,5`): spaces dropped, Chinese commas and dashes read
 * as ASCII ones. null when it is not a list of pages and ranges counted from 1, each range rising.
 */
export function normalizePages(text: string): string | null {
  const pages = text
    .replace(/[\s\u3000]+/g, '')
    .replace(/[，、；;]/g, ',')
    .replace(/[－—–~～]/g, '-')
    .replace(/^,+|,+$/g, '');
  if (pages.length === 0 || pages.length > PAGES_MAX_LENGTH || !PAGE_RANGES.test(pages)) return null;
  const isValid = pages.split(',').every((part) => {
    const [first = 0, last = first] = part.split('-').map(Number);
    return first >= 1 && last >= first;
  });
  return isValid ? pages : null;
}

export interface TaskParams {
  readonly outputfileextension: TOutputExtension;
  readonly fileversion?: TCadVersion;
  /** JSON of the options; '' for the defaults. */
  readonly parainfo: string;
}

export type TaskParamsResult = { readonly ok: true; readonly params: TaskParams } | { readonly ok: false; readonly problem: 'pages' };

function withParainfo(outputfileextension: TOutputExtension, options: TConversionOptions, fileversion?: TCadVersion): TaskParamsResult {
  // The page offers nothing outside the protocol's schema; parsing keeps it that way.
  const parsed = ZConversionOptions.parse(options);
  const parainfo = Object.keys(parsed).length === 0 ? '' : JSON.stringify(parsed);
  return {
    ok: true,
    params: fileversion === undefined ? { outputfileextension, parainfo } : { outputfileextension, fileversion, parainfo },
  };
}

/** What uploadpar carries for these options, or the field to correct. */
export function taskParamsOf(options: ToolOptions): TaskParamsResult {
  switch (options.tool) {
    case 'cad2pdf':
      return withParainfo('pdf', {
        ...(options.scope === 'all' ? { allLayouts: true } : {}),
        paper: options.paper,
        orientation: options.orientation,
        color: options.color,
      });
    case 'cad2jpg':
      return withParainfo(options.format, {
        ...(options.scope === 'all' ? { allLayouts: true } : {}),
        ...(options.sizeBy === 'width' ? { width: options.width } : { dpi: options.dpi }),
        background: options.background,
        color: options.color,
      });
    case 'cad2ver':
      return withParainfo(options.format, {}, options.version);
    case 'pdf2cad': {
      if (options.pageScope === 'all') return withParainfo(options.format, {}, options.version);
      const pages = normalizePages(options.pages);
      return pages === null ? { ok: false, problem: 'pages' } : withParainfo(options.format, { pages }, options.version);
    }
  }
}

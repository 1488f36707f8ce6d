/**
 * What the viewer's workers hand the page: the display lists of @xcad/cad (decision 0017) packed
 * into GPU-ready typed arrays, so a 20-30 MB drawing crosses from the worker to the page as a few
 * transferable buffers instead of millions of JS objects (decision 0021).
 *
 * Coordinates are float32 relative to an origin held in float64: each list is cut into spatial
 * buckets with an origin of their own, so a drawing far from (0, 0) keeps sub-pixel precision
 * when zoomed in, and buckets outside the view are skipped.
 */

/**
 * Thin lines (lineweight up to the CAD default, 0.25 mm): GL_LINES, two vertices per segment, each
 * x, y, order, style. One device pixel wide: what CAD programs draw for ordinary lines.
 */
export const LINE_FLOATS = 4;
/**
 * Wide lines (heavier lineweights) and dots: two triangles per segment, six vertices, each
 * x0, y0, x1, y1, along (0 at the start, 1 at the end), across (-1 or +1), order, style; the vertex
 * shader widens them to the lineweight in device pixels.
 */
export const WIDE_FLOATS = 8;
/** Lineweights up to this (mm) are drawn one device pixel wide. */
export const THIN_LINEWEIGHT_MM = 0.25;
/** Floats per fill vertex (three per triangle): x, y, order, style, colour (0xRRGGBB, or FILL_STYLE_COLOR / FILL_BACKGROUND). */
export const FILL_FLOATS = 5;
/** Fill colour value: the style's colour. */
export const FILL_STYLE_COLOR = -1;
/** Fill colour value: the background (wipeouts). */
export const FILL_BACKGROUND = -2;

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** A spatial piece of a list: its geometry relative to `origin`, and where it lies (list coordinates). */
export interface Bucket {
  origin: [number, number];
  bounds: Box;
  /** LINE_FLOATS per vertex, two vertices per thin segment. */
  lines: Float32Array;
  /**
   * The same thin lines with polyline vertices closer than the list's `coarseTolerance` merged:
   * drawn instead of `lines` when that tolerance is under a device pixel (a drawing seen whole).
   */
  coarse: Float32Array;
  /** WIDE_FLOATS per vertex, six vertices per wide segment or dot. */
  wide: Float32Array;
  /** FILL_FLOATS per vertex, three vertices per triangle. */
  fills: Float32Array;
}

/** One line of text (a TextPrimitive), kept on the page for the glyph atlas, the overlay and hit tests. */
export interface PackedTexts {
  count: number;
  /** All strings joined; text i is chars.slice(offsets[i], offsets[i + 1]). */
  chars: string;
  offsets: Uint32Array;
  /** Text space → list coordinates, 6 per text ([a, b, c, d, e, f] as in TextPrimitive.matrix). */
  matrices: Float64Array;
  /** Em size in text units. */
  sizes: Float32Array;
  /** Advance width of the whole string in text units, as the engine measured it. */
  widths: Float32Array;
  styles: Uint32Array;
  fonts: Uint16Array;
  /** Draw order (the primitive's index in the list). */
  orders: Float32Array;
  /** The innermost clip (PackedList.clips) each text lies in, -1 for none. */
  clips: Int32Array;
}

interface PackedStyle {
  /** 0xRRGGBB, or -1 for the foreground colour (ACI 7). */
  color: number;
  /** Millimetres on paper. */
  lineweight: number;
  layer: number;
}

export interface PackedLayer {
  name: string;
  color: number;
  /** As the drawing saved it (on and thawed). */
  visible: boolean;
}

export interface PackedFont {
  /** The font the drawing asked for. */
  requested: string;
  /** The family the engine measured with ('DejaVu Sans', 'Noto Sans CJK SC', 'Liberation Serif', ...). */
  family: string;
  substituted: boolean;
}

/**
 * A clipped run of a list (an XCLIPped block reference, decision 0017's ClipRun): its primitives
 * show only inside `polygon`, and inside the polygons of the clips it is nested in.
 */
interface PackedClip {
  /** One closed ring in list coordinates (x, y pairs); an inverted clip is an outer frame bridged to its hole. */
  polygon: Float64Array;
  /** The clip this one is nested in, or -1. */
  parent: number;
  /** The geometry of its primitives (those of clips nested in it are in theirs). */
  buckets: Bucket[];
}

export interface PackedList {
  id: number;
  styles: PackedStyle[];
  layers: PackedLayer[];
  fonts: PackedFont[];
  /** The geometry outside every clip. */
  buckets: Bucket[];
  /** Clipped runs, parents before the clips nested in them (empty when nothing is clipped). */
  clips: PackedClip[];
  texts: PackedTexts;
  /** Primitives in the list: the depth range of its draw order. */
  primitiveCount: number;
  bounds: Box | null;
  segmentCount: number;
  triangleCount: number;
  /** List units: how far the coarse lines may stray from the exact ones. */
  coarseTolerance: number;
}

interface PackedViewport {
  /** Clip polygon, paper coordinates (x, y pairs). */
  clip: Float64Array;
  /** Model → paper [a, b, c, d, e, f]. */
  matrix: [number, number, number, number, number, number];
  list: number;
  frozenLayers: number[];
}

interface PackedPaper {
  width: number;
  height: number;
  rotation: number;
  margins: [number, number, number, number];
  name?: string;
}

export interface PackedScene {
  name: string;
  isModel: boolean;
  tabOrder: number;
  list: number;
  viewports: PackedViewport[];
  paper?: PackedPaper;
  bounds: Box | null;
}

export interface DrawingNotices {
  /** Fonts asked for and not found whose substitute looks different (the usual stand-ins are not listed). */
  missingFonts: string[];
  /** Characters no font has (the exports lack them too). */
  missingCharacters: string[];
  /** Object types not drawn, with how many. */
  unsupported: { type: string; count: number }[];
  /** How many of those are TArch (天正, TCH_*) objects without proxy graphics: saving as T3 in TArch makes them drawable. */
  tarch: number;
  /** External references that are not attached. */
  xrefs: string[];
  /** The drawing was too big for the point budget: only part of it is shown. */
  truncated: boolean;
  /** Other warnings of the reader and builder (one line each). */
  other: string[];
}

export interface PackedDrawing {
  format: 'dxf' | 'dwg';
  /** $ACADVER as the file says (AC1015, ...), or ''. */
  version: string;
  /** $INSUNITS (0 = unitless). */
  insunits: number;
  lists: PackedList[];
  scenes: PackedScene[];
  notices: DrawingNotices;
  /** Milliseconds spent in each stage inside the worker. */
  timings: { read: number; parse: number; build: number; pack: number };
  /** Bytes of the typed arrays transferred. */
  bytes: number;
}

export type Stage = 'reading' | 'parsing' | 'building' | 'packing' | 'drawing';

export type LoadErrorKind =
  | 'empty'
  | 'corrupt'
  | 'unsupported'
  | 'not-drawing'
  | 'too-large'
  | 'too-complex'
  | 'memory'
  | 'fetch'
  | 'forbidden'
  | 'signin'
  | 'internal';

/** Page → build worker. */
export type BuildRequest =
  /** A DXF file (the page sends a DWG to the DWG worker instead, by its first bytes). */
  | { kind: 'dxf'; file: Blob; maxPoints: number }
  /** A DWG's drawing will arrive on `port` from the DWG worker. */
  | { kind: 'drawing'; port: MessagePort; maxPoints: number };

/** A list's texts ahead of its geometry (pack.ts ListText). */
export type ListTexts = Pick<PackedList, 'id' | 'texts' | 'fonts' | 'bounds'>;

/** Build worker → page. */
export type BuildMessage =
  | { kind: 'progress'; stage: Stage; fraction: number }
  /** The texts, copied (not transferred), while the geometry is packed: the page prepares its glyphs meanwhile. */
  | { kind: 'texts'; lists: ListTexts[] }
  | { kind: 'done'; drawing: PackedDrawing }
  | { kind: 'error'; error: LoadErrorKind; message: string };

import type { FontRef, Substitution } from '../text/fonts';
/**
 * The display list: what every back end (PDF, PNG/JPG, SVG, the browser viewer) draws. It is built
 * once from a `Drawing` by `buildScenes` and holds only resolved, world-space geometry:
 *
 * - Curves are already tessellated, linetypes already turned into dashes, blocks already expanded,
 *   ByLayer/ByBlock already resolved; a back end never looks at the drawing model again.
 * - Coordinates are 2D (x, y) in drawing units: model-space units for the model scene and for
 *   viewport contents, paper-space units (usually millimetres) for a layout's own list.
 * - Primitives are in draw order (later ones paint over earlier ones; a wipeout hides what is
 *   beneath it).
 *
 * Everything here is plain data (numbers, strings, arrays, Float64Array), so a Web Worker can post
 * a scene to the page with its buffers transferred.
 */

export interface Style {
  /** 0xRRGGBB, or FOREGROUND. */
  color: number;
  /** Line weight in millimetres on paper; 0 = the thinnest line the device draws. */
  lineweight: number;
  /** Index into `DisplayList.layers`. */
  layer: number;
}

/**
 * A run of geometry drawn with one style. `coords` holds x, y pairs; `starts` the index (in points,
 * not numbers) where each subpath begins, so subpath i spans points starts[i] .. starts[i+1]-1 (the
 * last one up to coords.length/2 - 1).
 *
 * - 'stroke': each subpath is an open polyline; a closed one repeats its first point at the end.
 * - 'fill': the subpaths are rings of one area, filled with the even-odd rule (holes and islands).
 * - 'wipeout': like 'fill', painted in the background colour.
 */
export interface PathPrimitive {
  kind: 'path';
  mode: 'stroke' | 'fill' | 'wipeout';
  style: number;
  coords: Float64Array;
  starts: Uint32Array;
  /** Fill rule for 'fill' and 'wipeout'; absent = 'evenodd'. Wide polylines use 'nonzero'. */
  rule?: 'evenodd' | 'nonzero';
  /** Fill only: a two-colour gradient (hatch gradients); back ends without gradients use `color` of the style. */
  gradient?: Gradient;
}

export interface Gradient {
  /** 'LINEAR', 'CYLINDER', 'SPHERICAL', ... as the hatch names it. */
  name: string;
  colors: [number, number];
  /** Radians. */
  angle: number;
}

/**
 * One line of text in one font. Text space: x along the baseline, y up, origin at the start of the
 * baseline, 1 unit = 1 world unit. `matrix` [a, b, c, d, e, f] maps text space to world:
 * world = (a·x + c·y + e, b·x + d·y + f); it carries rotation, width factor, oblique and mirroring.
 * The glyphs are set at font size `size` (the em size, in text-space units).
 */
export interface TextPrimitive {
  kind: 'text';
  style: number;
  text: string;
  matrix: [number, number, number, number, number, number];
  size: number;
  /** Index into `DisplayList.fonts`. */
  font: number;
  /** Advance width of the whole string in text-space units (for bounds and hit testing). */
  width: number;
}

/**
 * A picture supplied with the drawing (an IMAGE whose file came along): `matrix` [a, b, c, d, e, f]
 * maps the picture's unit square - x right, y DOWN from its top-left corner, (1, 1) the bottom-right
 * corner - to list coordinates: list = (a·x + c·y + e, b·x + d·y + f). A clipped image is drawn in
 * a clipped run (`DisplayList.clips`).
 */
export interface ImagePrimitive {
  kind: 'image';
  style: number;
  /** Index into `DisplayList.images`. */
  image: number;
  matrix: [number, number, number, number, number, number];
}

/** A picture's file as supplied (PNG or JPEG bytes) and its size in pixels. */
export interface ListImage {
  name: string;
  mime: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  bytes: Uint8Array;
}

export type Primitive = PathPrimitive | TextPrimitive | ImagePrimitive;

export interface LayerInfo {
  name: string;
  /** The layer's own colour (0xRRGGBB or FOREGROUND), for layer panels. */
  color: number;
  /** Shown by the builder (on and not frozen). */
  visible: boolean;
}

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * A clipped run of primitives (an XCLIPped block reference): primitives `from` .. `to` - 1 show only
 * inside `polygon` (x, y pairs in the list's coordinates, one closed ring, nonzero rule; an inverted
 * clip is an outer frame bridged to the hole, so the hole is outside). Runs nest (a clipped block
 * inside a clipped block): a run inside another lies wholly within its range and comes after it.
 */
export interface ClipRun {
  from: number;
  to: number;
  polygon: Float64Array;
}

export interface DisplayList {
  styles: Style[];
  layers: LayerInfo[];
  fonts: FontRef[];
  primitives: Primitive[];
  /** Extents of everything drawn (strokes, fills, text boxes), clips applied; null when nothing is drawn. */
  bounds: Bounds | null;
  /** Clipped runs of `primitives`, by `from` (absent = nothing clipped). Back ends clip with the viewport mechanism. */
  clips?: ClipRun[];
  /** The pictures image primitives show (absent = none). */
  images?: ListImage[];
}

/** A model-space view seen through a paper-space viewport. */
export interface ViewportView {
  /** Clip polygon in paper coordinates (x, y pairs). */
  clip: Float64Array;
  /** Model → paper affine [a, b, c, d, e, f]. */
  matrix: [number, number, number, number, number, number];
  /** The model display list seen in it (may be shared between viewports of the same scale). */
  list: DisplayList;
  /** Indices into `list.layers` frozen in this viewport. */
  frozenLayers: number[];
}

export interface Paper {
  /** Paper size in millimetres as the layout's page setup names it (unrotated). */
  width: number;
  height: number;
  /** Page-setup rotation: 0, 90, 180, 270 degrees. */
  rotation: number;
  /** Printable area margins, mm: left, bottom, right, top. */
  margins: [number, number, number, number];
  name?: string;
}

export interface Scene {
  /** 'Model' or the layout's tab name. */
  name: string;
  isModel: boolean;
  tabOrder: number;
  /** Model space (model scene) or the layout's own paper-space entities. */
  list: DisplayList;
  /** Paper-space layouts: the viewports, in draw order (empty for model). */
  viewports: ViewportView[];
  /** Layouts: the page setup, when the drawing has one. */
  paper?: Paper;
  /** Extents of the scene including viewports (paper coordinates for layouts). */
  bounds: Bounds | null;
}

export interface BuildWarning {
  code: 'missing-font' | 'unsupported-entity' | 'missing-block' | 'xref' | 'image' | 'limit';
  message: string;
  /** The font, entity type or block name concerned. */
  subject: string;
}

export interface BuildResult {
  scenes: Scene[];
  warnings: BuildWarning[];
  /** Fonts asked for and not found whose substitute looks different (each once): the notices name these. */
  missingFonts: string[];
  /** Every font asked for and not found, with what stands in for it (text/fonts.ts). */
  substitutedFonts: Substitution[];
  /** Characters no available font has (each once). */
  missingCharacters: string[];
  /** Entity types drawn / skipped, by DXF name. */
  counts: { drawn: Record<string, number>; skipped: Record<string, number> };
}

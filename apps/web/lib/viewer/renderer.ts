import { layoutSheet } from '@xcad/cad/paper';
import { displayColor } from './colors';
import { CELL, FONT_PX, GLYPH_FLOATS, type GlyphSet } from './glyphs';
import { MAX_CLIP_DEPTH, clipChain, polygonThrough } from './clips';
import {
  COLOR_FRAGMENT,
  FILL_VERTEX,
  GLYPH_FRAGMENT,
  GLYPH_VERTEX,
  LINE_VERTEX,
  SHAPE_FRAGMENT,
  SHAPE_VERTEX,
  WIDE_VERTEX,
} from './shaders';
import {
  FILL_FLOATS,
  LINE_FLOATS,
  WIDE_FLOATS,
  type Box,
  type Bucket,
  type PackedDrawing,
  type PackedList,
  type PackedScene,
} from './types';
import { boxesOverlap, compose, transformBox, viewMatrix, type Affine, type View } from './view';

// The WebGL renderer (WebGL2, else WebGL1). Per frame and per list: for each visible bucket one
// draw call for fills, one for thin lines, one for wide lines, and one per atlas page for glyphs;
// a layout draws its sheet, then each viewport's model list clipped by a stencil of the viewport's
// outline (stencil bit 0), then its own paper-space list on top. A list's XCLIPped block
// references (PackedList.clips) are drawn after the rest of it, each through a stencil of its
// polygons (bits 1-7, one per nesting level); depth keeps the draw order across the passes. Wide lines are triangles pushed out in the vertex
// shader to their lineweight in device pixels, so lineweights hold at any zoom.

type GL = WebGLRenderingContext | WebGL2RenderingContext;

export type RendererProblem = 'no-webgl' | 'no-vertex-textures';

export interface FrameInput {
  scene: PackedScene;
  view: View;
  /** Model space background (0xRRGGBB); a layout's sheet takes it too. */
  background: number;
  /** Around a layout's sheet. */
  surround: number;
  lineweights: boolean;
  /** Per list, per layer: 1 when the user shows it. */
  layerOn: readonly Uint8Array[];
  /** Device pixels per CSS pixel. */
  dpr: number;
  /** Glyphs taller than this (device px) are left to the 2D overlay. */
  maxEmPx: number;
}

export interface FrameStats {
  ms: number;
  drawCalls: number;
  segments: number;
}

interface Program {
  program: WebGLProgram;
  attributes: Record<string, number>;
  uniforms: Record<string, WebGLUniformLocation | null>;
}

interface GpuBucket {
  origin: [number, number];
  bounds: Box;
  lines: WebGLBuffer | null;
  lineVertices: number;
  coarse: WebGLBuffer | null;
  coarseVertices: number;
  wide: WebGLBuffer | null;
  wideVertices: number;
  fills: WebGLBuffer | null;
  fillVertices: number;
}

interface GpuGlyphBucket {
  page: number;
  origin: [number, number];
  bounds: Box;
  maxCell: number;
  buffer: WebGLBuffer | null;
  count: number;
}

interface GpuClip {
  buckets: GpuBucket[];
}

interface GpuList {
  list: PackedList;
  buckets: GpuBucket[];
  clips: GpuClip[];
  /** Glyph buckets by clip: index 0 outside every clip, i + 1 in clip i. */
  glyphs: GpuGlyphBucket[][];
  colorTexture: WebGLTexture | null;
  weightTexture: WebGLTexture | null;
  styleSize: [number, number];
  /** What the colour texture holds now (background | visibility), to skip uploads. */
  colorKey: string;
  colorData: Uint8Array;
}

/** Lineweight on screen in model space: millimetres at 96 dpi (0.25 mm, the CAD default, is one pixel). */
const MODEL_PX_PER_MM = 96 / 25.4;
/** The coarse lines are drawn while their tolerance is under this many device pixels. */
const COARSE_MAX_PX = 0.8;
/** Glyph cells shorter than this on screen (device px; the letters are about half of it) are not drawn. */
const MIN_GLYPH_CELL_PX = 3;
/** Extra device pixels around a bucket's box when culling: wide lines reach out of it. */
const CULL_MARGIN = 40;

function compile(gl: GL, vertex: string, fragment: string): Program {
  const program = gl.createProgram();
  if (!program) throw new Error('WebGL program unavailable');
  for (const [type, source] of [
    [gl.VERTEX_SHADER, vertex],
    [gl.FRAGMENT_SHADER, fragment],
  ] as const) {
    const shader = gl.createShader(type);
    if (!shader) throw new Error('WebGL shader unavailable');
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost())
      throw new Error(`Shader: ${gl.getShaderInfoLog(shader) ?? ''}`);
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost())
    throw new Error(`Program: ${gl.getProgramInfoLog(program) ?? ''}`);
  const attributes: Record<string, number> = {};
  const count = gl.getProgramParameter(program, gl.ACTIVE_ATTRIBUTES) as number;
  for (let i = 0; i < count; i++) {
    const info = gl.getActiveAttrib(program, i);
    if (info) attributes[info.name] = gl.getAttribLocation(program, info.name);
  }
  const uniforms: Record<string, WebGLUniformLocation | null> = {};
  const ucount = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS) as number;
  for (let i = 0; i < ucount; i++) {
    const info = gl.getActiveUniform(program, i);
    if (info) uniforms[info.name] = gl.getUniformLocation(program, info.name);
  }
  return { program, attributes, uniforms };
}

/** An affine (device pixels) as a column-major mat3 uniform, after translating local coordinates by `origin`. */
function mat3Of(m: Affine, origin: [number, number]): Float32Array {
  const [a, b, c, d, e, f] = m;
  return new Float32Array([a, b, 0, c, d, 0, a * origin[0] + c * origin[1] + e, b * origin[0] + d * origin[1] + f, 1]);
}

function rgbFloats(rgb: number): [number, number, number] {
  return [((rgb >> 16) & 255) / 255, ((rgb >> 8) & 255) / 255, (rgb & 255) / 255];
}

export class Renderer {
  private gl!: GL;
  private lineProgram!: Program;
  private wideProgram!: Program;
  private fillProgram!: Program;
  private glyphProgram!: Program;
  private shapeProgram!: Program;
  private shapeBuffer: WebGLBuffer | null = null;
  private lists: GpuList[] = [];
  private pages: WebGLTexture[] = [];
  private source: { drawing: PackedDrawing; glyphs: GlyphSet } | null = null;
  /** Stencil bits of the canvas: bit 0 for viewports, the rest for nested clips. */
  private stencilBits = 8;
  private lost = false;
  readonly api: 'webgl2' | 'webgl1';

  private constructor(
    private readonly canvas: HTMLCanvasElement,
    gl: GL,
    private readonly onRestored: () => void,
  ) {
    this.api = typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext ? 'webgl2' : 'webgl1';
    this.setup(gl);
    canvas.addEventListener('webglcontextlost', this.handleLost);
    canvas.addEventListener('webglcontextrestored', this.handleRestored);
  }

  /** A renderer on the canvas, or why the browser cannot draw with WebGL. */
  static create(canvas: HTMLCanvasElement, onRestored: () => void): Renderer | RendererProblem {
    const attributes: WebGLContextAttributes = {
      alpha: false,
      antialias: true,
      depth: true,
      stencil: true,
      preserveDrawingBuffer: false,
      powerPreference: 'high-performance',
    };
    const gl =
      (canvas.getContext('webgl2', attributes) as WebGL2RenderingContext | null) ??
      (canvas.getContext('webgl', attributes) as WebGLRenderingContext | null);
    if (!gl) return 'no-webgl';
    if ((gl.getParameter(gl.MAX_VERTEX_TEXTURE_IMAGE_UNITS) as number) < 2) return 'no-vertex-textures';
    return new Renderer(canvas, gl, onRestored);
  }

  private setup(gl: GL): void {
    this.gl = gl;
    this.lineProgram = compile(gl, LINE_VERTEX, COLOR_FRAGMENT);
    this.wideProgram = compile(gl, WIDE_VERTEX, COLOR_FRAGMENT);
    this.fillProgram = compile(gl, FILL_VERTEX, COLOR_FRAGMENT);
    this.glyphProgram = compile(gl, GLYPH_VERTEX, GLYPH_FRAGMENT);
    this.shapeProgram = compile(gl, SHAPE_VERTEX, SHAPE_FRAGMENT);
    this.shapeBuffer = gl.createBuffer();
    this.stencilBits = (gl.getParameter(gl.STENCIL_BITS) as number) || 8;
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  }

  private readonly handleLost = (event: Event) => {
    event.preventDefault();
    this.lost = true;
  };

  private readonly handleRestored = () => {
    this.lost = false;
    this.setup(this.gl);
    if (this.source) this.load(this.source.drawing, this.source.glyphs);
    this.onRestored();
  };

  get isLost(): boolean {
    return this.lost || this.gl.isContextLost();
  }

  /** GPU copies of a drawing's buffers and its glyph atlas (the previous drawing's are freed). */
  load(drawing: PackedDrawing, glyphs: GlyphSet): void {
    this.release();
    this.source = { drawing, glyphs };
    const gl = this.gl;
    const upload = (data: Float32Array): WebGLBuffer | null => {
      if (data.length === 0) return null;
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      return buffer;
    };
    this.pages = glyphs.pages.map((page) => {
      const texture = gl.createTexture() as WebGLTexture;
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, page.canvas as TexImageSource);
      gl.generateMipmap(gl.TEXTURE_2D);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      return texture;
    });
    const gpuBucket = (b: Bucket): GpuBucket => ({
      origin: b.origin,
      bounds: b.bounds,
      lines: upload(b.lines),
      lineVertices: b.lines.length / LINE_FLOATS,
      coarse: upload(b.coarse),
      coarseVertices: b.coarse.length / LINE_FLOATS,
      wide: upload(b.wide),
      wideVertices: b.wide.length / WIDE_FLOATS,
      fills: upload(b.fills),
      fillVertices: b.fills.length / FILL_FLOATS,
    });
    this.lists = drawing.lists.map((list, li) => {
      const styleCount = Math.max(1, list.styles.length);
      const width = Math.min(styleCount, 1024);
      const height = Math.ceil(styleCount / width);
      const weights = new Uint8Array(width * height * 4);
      list.styles.forEach((s, i) => {
        weights[4 * i] = Math.max(0, Math.min(255, Math.round(s.lineweight * 100)));
      });
      const weightTexture = this.styleTexture(width, height, weights);
      const colorData = new Uint8Array(width * height * 4);
      const glyphsByClip: GpuGlyphBucket[][] = Array.from({ length: list.clips.length + 1 }, () => []);
      for (const g of glyphs.lists[li]?.buckets ?? [])
        glyphsByClip[g.clip + 1]?.push({
          page: g.page,
          origin: g.origin,
          bounds: g.bounds,
          maxCell: g.maxCell,
          buffer: upload(g.data),
          count: g.count,
        });
      return {
        list,
        buckets: list.buckets.map(gpuBucket),
        clips: list.clips.map((c) => ({ buckets: c.buckets.map(gpuBucket) })),
        glyphs: glyphsByClip,
        colorTexture: this.styleTexture(width, height, colorData),
        weightTexture,
        styleSize: [width, height],
        colorKey: '',
        colorData,
      };
    });
  }

  private styleTexture(width: number, height: number, data: Uint8Array): WebGLTexture | null {
    const gl = this.gl;
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, data);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return texture;
  }

  /** Frees the GPU copies of the current drawing. */
  release(): void {
    const gl = this.gl;
    for (const l of this.lists) {
      for (const b of [...l.buckets, ...l.clips.flatMap((c) => c.buckets)]) {
        gl.deleteBuffer(b.lines);
        gl.deleteBuffer(b.coarse);
        gl.deleteBuffer(b.wide);
        gl.deleteBuffer(b.fills);
      }
      for (const g of l.glyphs.flat()) gl.deleteBuffer(g.buffer);
      gl.deleteTexture(l.colorTexture);
      gl.deleteTexture(l.weightTexture);
    }
    for (const p of this.pages) gl.deleteTexture(p);
    this.lists = [];
    this.pages = [];
    this.source = null;
  }

  dispose(): void {
    this.release();
    this.canvas.removeEventListener('webglcontextlost', this.handleLost);
    this.canvas.removeEventListener('webglcontextrestored', this.handleRestored);
  }

  /** Colour and visibility of every style of a list for this pass (layers off, layers frozen in a viewport). */
  private updateColors(l: GpuList, background: number, layerOn: Uint8Array | undefined, frozen: readonly number[]): void {
    const key = `${background}|${layerOn ? layerOn.join('') : ''}|${frozen.join(',')}`;
    if (key === l.colorKey) return;
    l.colorKey = key;
    const frozenSet = frozen.length ? new Set(frozen) : null;
    const data = l.colorData;
    l.list.styles.forEach((s, i) => {
      const rgb = displayColor(s.color, background);
      const on = (layerOn ? layerOn[s.layer] !== 0 : true) && !frozenSet?.has(s.layer);
      data[4 * i] = (rgb >> 16) & 255;
      data[4 * i + 1] = (rgb >> 8) & 255;
      data[4 * i + 2] = rgb & 255;
      data[4 * i + 3] = on ? 255 : 0;
    });
    const gl = this.gl;
    gl.bindTexture(gl.TEXTURE_2D, l.colorTexture);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, l.styleSize[0], l.styleSize[1], gl.RGBA, gl.UNSIGNED_BYTE, data);
  }

  render(frame: FrameInput): FrameStats {
    const start = performance.now();
    const stats: FrameStats = { ms: 0, drawCalls: 0, segments: 0 };
    if (this.isLost) return stats;
    const gl = this.gl;
    const { view, scene } = frame;
    gl.viewport(0, 0, view.width, view.height);
    gl.disable(gl.SCISSOR_TEST);
    gl.disable(gl.STENCIL_TEST);
    gl.depthMask(true);
    gl.colorMask(true, true, true, true);
    gl.stencilMask(0xff);
    const clear = rgbFloats(scene.isModel ? frame.background : frame.surround);
    gl.clearColor(clear[0], clear[1], clear[2], 1);
    gl.clearDepth(1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);
    const toDevice = viewMatrix(view);
    const screen: Box = { minX: 0, minY: 0, maxX: view.width, maxY: view.height };
    // Lineweights: fixed on screen in model space; true to the paper (zoom with it) in a layout.
    const pxPerMm = !frame.lineweights ? 0 : scene.isModel ? MODEL_PX_PER_MM * frame.dpr : view.scale;
    if (!scene.isModel) this.drawSheet(frame, toDevice, stats);
    for (const vp of scene.viewports) {
      const list = this.lists[vp.list];
      if (!list || vp.clip.length < 6) continue;
      const clipDevice = new Float32Array(vp.clip.length);
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      for (let i = 0; i < vp.clip.length; i += 2) {
        const x = vp.clip[i] as number,
          y = vp.clip[i + 1] as number;
        const dx = toDevice[0] * x + toDevice[2] * y + toDevice[4],
          dy = toDevice[1] * x + toDevice[3] * y + toDevice[5];
        clipDevice[i] = dx;
        clipDevice[i + 1] = dy;
        minX = Math.min(minX, dx);
        maxX = Math.max(maxX, dx);
        minY = Math.min(minY, dy);
        maxY = Math.max(maxY, dy);
      }
      const area: Box = {
        minX: Math.max(0, minX),
        minY: Math.max(0, minY),
        maxX: Math.min(view.width, maxX),
        maxY: Math.min(view.height, maxY),
      };
      if (area.minX >= area.maxX || area.minY >= area.maxY) continue;
      gl.enable(gl.SCISSOR_TEST);
      gl.scissor(
        Math.floor(area.minX),
        Math.floor(view.height - area.maxY),
        Math.ceil(area.maxX - area.minX) + 1,
        Math.ceil(area.maxY - area.minY) + 1,
      );
      this.stencilPolygon(clipDevice, view);
      gl.clear(gl.DEPTH_BUFFER_BIT);
      this.drawList(list, compose(toDevice, vp.matrix), frame, area, pxPerMm, vp.frozenLayers, stats, true);
      gl.disable(gl.STENCIL_TEST);
      gl.disable(gl.SCISSOR_TEST);
    }
    const own = this.lists[scene.list];
    if (own) {
      gl.clear(gl.DEPTH_BUFFER_BIT);
      this.drawList(own, toDevice, frame, screen, pxPerMm, [], stats, false);
    }
    stats.ms = performance.now() - start;
    return stats;
  }

  /**
   * Draws a tiny drawing through every path (fills, thin and wide lines, glyphs, a layout's sheet and
   * a stencilled viewport) and clears it again: drivers, and software renderers above all, compile
   * their shader variants at the first draw, so this moves that cost out of the first real frame.
   * Run while the page is idle, before a file is chosen.
   */
  warmUp(view: View, atlas: HTMLCanvasElement | OffscreenCanvas): void {
    if (this.isLost || this.source) return;
    const box = { minX: 0, minY: 0, maxX: 1, maxY: 1 };
    const line = Float32Array.from([0, 0, 0, 0, 1, 1, 0, 0]);
    const wide = new Float32Array(6 * WIDE_FLOATS);
    for (let k = 0; k < 6; k++) wide.set([0, 0, 1, 0, k % 2, k < 3 ? -1 : 1, 1, 0], k * WIDE_FLOATS);
    const fill = Float32Array.from([0, 0, 2, 0, -1, 1, 0, 2, 0, -1, 0, 1, 2, 0, -1]);
    const glyph = new Float32Array(6 * GLYPH_FLOATS);
    for (let k = 0; k < 6; k++) glyph.set([k % 2, k < 3 ? 0 : 1, 0, 0, 3, 0, 0, 0.1], k * GLYPH_FLOATS);
    const list: PackedList = {
      id: 0,
      styles: [{ color: -1, lineweight: 0.5, layer: 0 }],
      layers: [{ name: '0', color: -1, visible: true }],
      fonts: [],
      buckets: [{ origin: [0, 0], bounds: box, lines: line, coarse: line, wide, fills: fill }],
      // A clipped copy too: the clip stencil's path.
      clips: [
        {
          polygon: Float64Array.from([0, 0, 1, 0, 0.5, 1]),
          parent: -1,
          buckets: [{ origin: [0, 0], bounds: box, lines: line, coarse: line, wide, fills: fill }],
        },
      ],
      texts: {
        count: 0,
        chars: '',
        offsets: new Uint32Array(1),
        matrices: new Float64Array(0),
        sizes: new Float32Array(0),
        widths: new Float32Array(0),
        styles: new Uint32Array(0),
        fonts: new Uint16Array(0),
        orders: new Float32Array(0),
        clips: new Int32Array(0),
      },
      primitiveCount: 4,
      bounds: box,
      segmentCount: 2,
      triangleCount: 1,
      coarseTolerance: 0,
    };
    const clip = Float64Array.from([0, 0, 1, 0, 1, 1, 0, 1]);
    const drawing: PackedDrawing = {
      format: 'dxf',
      version: '',
      insunits: 0,
      lists: [list],
      scenes: [
        { name: 'Model', isModel: true, tabOrder: 0, list: 0, viewports: [], bounds: box },
        {
          name: 'Layout',
          isModel: false,
          tabOrder: 1,
          list: 0,
          viewports: [{ clip, matrix: [1, 0, 0, 1, 0, 0], list: 0, frozenLayers: [] }],
          bounds: box,
        },
      ],
      notices: { missingFonts: [], missingCharacters: [], unsupported: [], tarch: 0, xrefs: [], truncated: false, other: [] },
      timings: { read: 0, parse: 0, build: 0, pack: 0 },
      bytes: 0,
    };
    const glyphs: GlyphSet = {
      pages: [{ canvas: atlas, width: atlas.width, height: atlas.height }],
      lists: [
        {
          buckets: [{ page: 0, clip: -1, origin: [0, 0], bounds: box, maxCell: 1, data: glyph, count: 1 }],
          info: { boxes: new Float64Array(0), ems: new Float32Array(0), fits: new Float32Array(0) },
          glyphCount: 1,
        },
      ],
      css: [[]],
    };
    this.load(drawing, glyphs);
    const frame = {
      view: { ...view, cx: 0.5, cy: 0.5, scale: Math.min(view.width, view.height) / 2 },
      background: 0,
      surround: 0,
      lineweights: true,
      layerOn: [Uint8Array.of(1)],
      dpr: 1,
      maxEmPx: 48,
    };
    for (const scene of drawing.scenes) this.render({ ...frame, scene });
    this.release();
    const gl = this.gl;
    gl.clearColor(0, 0, 0, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT | gl.STENCIL_BUFFER_BIT);
  }

  /** Blocks until the GPU has finished the frame (benchmarks, and the first frame's timing). */
  finish(): void {
    const pixel = new Uint8Array(4);
    this.gl.readPixels(0, 0, 1, 1, this.gl.RGBA, this.gl.UNSIGNED_BYTE, pixel);
  }

  private drawSheet(frame: FrameInput, toDevice: Affine, stats: FrameStats): void {
    const sheet = layoutSheet(frame.scene.paper)?.box ?? frame.scene.bounds;
    if (!sheet) return;
    const d = transformBox(sheet, toDevice);
    const shadow = Math.max(2, 4 * frame.dpr);
    this.fillRect(
      { minX: d.minX + shadow, minY: d.minY + shadow, maxX: d.maxX + shadow, maxY: d.maxY + shadow },
      [0, 0, 0, 0.35],
      frame.view,
    );
    this.fillRect(d, [...rgbFloats(frame.background), 1], frame.view);
    stats.drawCalls += 2;
  }

  private useShape(color: [number, number, number, number], view: View): void {
    const gl = this.gl;
    const p = this.shapeProgram;
    gl.useProgram(p.program);
    gl.uniform2f(p.uniforms.uViewport ?? null, view.width, view.height);
    gl.uniform4f(p.uniforms.uColor ?? null, ...color);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.shapeBuffer);
    const loc = p.attributes.aPosition as number;
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 8, 0);
  }

  private fillRect(b: Box, color: [number, number, number, number], view: View): void {
    const gl = this.gl;
    gl.disable(gl.DEPTH_TEST);
    if (color[3] < 1) {
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    }
    this.useShape(color, view);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([b.minX, b.minY, b.maxX, b.minY, b.minX, b.maxY, b.maxX, b.maxY]), gl.STREAM_DRAW);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    gl.disableVertexAttribArray(this.shapeProgram.attributes.aPosition as number);
    gl.disable(gl.BLEND);
  }

  /** Marks the inside of a polygon (even-odd) in the stencil; drawing then passes only there. */
  private stencilPolygon(polygon: Float32Array, view: View): void {
    const gl = this.gl;
    gl.clearStencil(0);
    gl.clear(gl.STENCIL_BUFFER_BIT);
    gl.enable(gl.STENCIL_TEST);
    gl.disable(gl.DEPTH_TEST);
    gl.colorMask(false, false, false, false);
    gl.stencilFunc(gl.ALWAYS, 0, 1);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.INVERT);
    gl.stencilMask(1);
    this.useShape([0, 0, 0, 0], view);
    gl.bufferData(gl.ARRAY_BUFFER, polygon, gl.STREAM_DRAW);
    gl.drawArrays(gl.TRIANGLE_FAN, 0, polygon.length / 2);
    gl.disableVertexAttribArray(this.shapeProgram.attributes.aPosition as number);
    gl.colorMask(true, true, true, true);
    gl.stencilFunc(gl.EQUAL, 1, 1);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.KEEP);
  }

  private bindStyles(p: Program, l: GpuList, view: View, orderStep: number): void {
    const gl = this.gl;
    gl.useProgram(p.program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, l.colorTexture);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, l.weightTexture);
    gl.uniform1i(p.uniforms.uStyleColor ?? null, 0);
    gl.uniform1i(p.uniforms.uStyleWeight ?? null, 1);
    gl.uniform2f(p.uniforms.uStyleSize ?? null, l.styleSize[0], l.styleSize[1]);
    gl.uniform2f(p.uniforms.uViewport ?? null, view.width, view.height);
    gl.uniform1f(p.uniforms.uOrderStep ?? null, orderStep);
  }

  private attribute(p: Program, name: string, size: number, stride: number, offset: number): void {
    const gl = this.gl;
    const loc = p.attributes[name];
    if (loc === undefined || loc < 0) return;
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, size, gl.FLOAT, false, stride, offset);
  }

  private resetAttributes(p: Program): void {
    for (const loc of Object.values(p.attributes)) if (loc >= 0) this.gl.disableVertexAttribArray(loc);
  }

  /**
   * Draws a list: what lies outside every clip, then each clip's part through the stencil of its
   * polygons. `inViewport`: the pass already tests stencil bit 0 (a layout's viewport).
   */
  private drawList(
    l: GpuList,
    toDevice: Affine,
    frame: FrameInput,
    area: Box,
    pxPerMm: number,
    frozen: readonly number[],
    stats: FrameStats,
    inViewport: boolean,
  ): void {
    this.updateColors(l, frame.background, frame.layerOn[l.list.id], frozen);
    const cull: Box = {
      minX: area.minX - CULL_MARGIN,
      minY: area.minY - CULL_MARGIN,
      maxX: area.maxX + CULL_MARGIN,
      maxY: area.maxY + CULL_MARGIN,
    };
    this.drawPart(l, l.buckets, l.glyphs[0] ?? [], toDevice, frame, cull, pxPerMm, stats);
    if (l.clips.length === 0) return;
    const gl = this.gl;
    const levels = Math.max(0, Math.min(MAX_CLIP_DEPTH, this.stencilBits - 1));
    l.clips.forEach((clip, i) => {
      const glyphs = l.glyphs[i + 1] ?? [];
      const seen = (b: { bounds: Box }) => boxesOverlap(transformBox(b.bounds, toDevice), cull);
      if (!clip.buckets.some(seen) && !glyphs.some(seen)) return;
      const polygons = clipChain(l.list, i)
        .slice(0, levels)
        .map((k) => polygonThrough(l.list.clips[k]?.polygon ?? new Float64Array(0), toDevice));
      this.stencilClip(polygons, frame.view, inViewport);
      this.drawPart(l, clip.buckets, glyphs, toDevice, frame, cull, pxPerMm, stats);
    });
    // Back to the pass's own stencil: the viewport's bit, or none.
    if (inViewport) {
      gl.stencilFunc(gl.EQUAL, 1, 1);
      gl.stencilMask(1);
    } else gl.disable(gl.STENCIL_TEST);
  }

  /**
   * Marks the inside of each polygon (device pixels, outermost clip first) in a stencil bit of its
   * own (1, 2, ...; each cleared first, within the scissor), then lets drawing pass only where all
   * of them are set, and the viewport's bit 0 too in a viewport.
   */
  private stencilClip(polygons: Float32Array[], view: View, inViewport: boolean): void {
    const gl = this.gl;
    gl.enable(gl.STENCIL_TEST);
    gl.disable(gl.DEPTH_TEST);
    gl.colorMask(false, false, false, false);
    gl.clearStencil(0);
    this.useShape([0, 0, 0, 0], view);
    let bits = 0;
    polygons.forEach((polygon, level) => {
      const bit = 2 << level;
      gl.stencilMask(bit);
      gl.clear(gl.STENCIL_BUFFER_BIT);
      gl.stencilFunc(gl.ALWAYS, 0, bit);
      gl.stencilOp(gl.KEEP, gl.KEEP, gl.INVERT);
      if (polygon.length >= 6) {
        gl.bufferData(gl.ARRAY_BUFFER, polygon, gl.STREAM_DRAW);
        gl.drawArrays(gl.TRIANGLE_FAN, 0, polygon.length / 2);
      }
      bits |= bit;
    });
    gl.disableVertexAttribArray(this.shapeProgram.attributes.aPosition as number);
    gl.colorMask(true, true, true, true);
    const base = inViewport ? 1 : 0;
    gl.stencilFunc(gl.EQUAL, base | bits, base | bits);
    gl.stencilOp(gl.KEEP, gl.KEEP, gl.KEEP);
  }

  /** Fills, thin lines, wide lines and glyphs of some buckets of a list (its colours set). */
  private drawPart(
    l: GpuList,
    buckets: readonly GpuBucket[],
    glyphs: readonly GpuGlyphBucket[],
    toDevice: Affine,
    frame: FrameInput,
    cull: Box,
    pxPerMm: number,
    stats: FrameStats,
  ): void {
    const gl = this.gl;
    const view = frame.view;
    const orderStep = 2 / (l.list.primitiveCount + 2);
    const visible = buckets.filter((b) => boxesOverlap(transformBox(b.bounds, toDevice), cull));
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.disable(gl.BLEND);

    // Fills.
    const fp = this.fillProgram;
    this.bindStyles(fp, l, view, orderStep);
    gl.uniform3f(fp.uniforms.uBackground ?? null, ...rgbFloats(frame.background));
    for (const b of visible) {
      if (!b.fills || b.fillVertices === 0) continue;
      gl.bindBuffer(gl.ARRAY_BUFFER, b.fills);
      this.attribute(fp, 'aPosition', 2, FILL_FLOATS * 4, 0);
      this.attribute(fp, 'aFill', 3, FILL_FLOATS * 4, 8);
      gl.uniformMatrix3fv(fp.uniforms.uMatrix ?? null, false, mat3Of(toDevice, b.origin));
      gl.drawArrays(gl.TRIANGLES, 0, b.fillVertices);
      stats.drawCalls++;
    }
    this.resetAttributes(fp);

    // Thin lines: the coarse copy when it strays less than a pixel from them.
    const lp = this.lineProgram;
    this.bindStyles(lp, l, view, orderStep);
    const scale = Math.sqrt(Math.abs(toDevice[0] * toDevice[3] - toDevice[1] * toDevice[2]));
    const coarse = l.list.coarseTolerance * scale < COARSE_MAX_PX;
    for (const b of visible) {
      const buffer = coarse ? b.coarse : b.lines;
      const vertices = coarse ? b.coarseVertices : b.lineVertices;
      if (!buffer || vertices === 0) continue;
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      this.attribute(lp, 'aLine', 4, LINE_FLOATS * 4, 0);
      gl.uniformMatrix3fv(lp.uniforms.uMatrix ?? null, false, mat3Of(toDevice, b.origin));
      gl.drawArrays(gl.LINES, 0, vertices);
      stats.drawCalls++;
      stats.segments += vertices / 2;
    }
    this.resetAttributes(lp);

    // Wide lines and dots.
    const wp = this.wideProgram;
    this.bindStyles(wp, l, view, orderStep);
    gl.uniform1f(wp.uniforms.uPxPerMm ?? null, pxPerMm);
    gl.uniform1f(wp.uniforms.uMinWidth ?? null, Math.max(1, Math.round(frame.dpr)));
    for (const b of visible) {
      if (!b.wide || b.wideVertices === 0) continue;
      gl.bindBuffer(gl.ARRAY_BUFFER, b.wide);
      this.attribute(wp, 'aSegment', 4, WIDE_FLOATS * 4, 0);
      this.attribute(wp, 'aCorner', 4, WIDE_FLOATS * 4, 16);
      gl.uniformMatrix3fv(wp.uniforms.uMatrix ?? null, false, mat3Of(toDevice, b.origin));
      gl.drawArrays(gl.TRIANGLES, 0, b.wideVertices);
      stats.drawCalls++;
      stats.segments += b.wideVertices / 6;
    }
    this.resetAttributes(wp);

    // Text.
    if (glyphs.length === 0) return;
    const gp = this.glyphProgram;
    this.bindStyles(gp, l, view, orderStep);
    // The shader sees cell heights: an em is FONT_PX / CELL of a cell.
    gl.uniform1f(gp.uniforms.uMaxCellPx ?? null, (frame.maxEmPx * CELL) / FONT_PX);
    gl.uniform1i(gp.uniforms.uAtlas ?? null, 2);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.activeTexture(gl.TEXTURE2);
    for (const g of glyphs) {
      // Text too small to read at this zoom is left out (a CAD program draws it as a speck).
      if (!g.buffer || g.maxCell * scale < MIN_GLYPH_CELL_PX || !boxesOverlap(transformBox(g.bounds, toDevice), cull)) continue;
      gl.bindTexture(gl.TEXTURE_2D, this.pages[g.page] ?? null);
      gl.bindBuffer(gl.ARRAY_BUFFER, g.buffer);
      const stride = GLYPH_FLOATS * 4;
      this.attribute(gp, 'aGlyph', 4, stride, 0);
      this.attribute(gp, 'aMeta', 4, stride, 16);
      gl.uniformMatrix3fv(gp.uniforms.uMatrix ?? null, false, mat3Of(toDevice, g.origin));
      gl.drawArrays(gl.TRIANGLES, 0, g.count * 6);
      stats.drawCalls++;
    }
    this.resetAttributes(gp);
    gl.disable(gl.BLEND);
  }
}

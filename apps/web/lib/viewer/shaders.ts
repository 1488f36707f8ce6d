// GLSL ES 1.00: the same sources run on WebGL2 and on WebGL1. No instancing: software renderers
// (SwiftShader, the fallback of browsers without a usable GPU) run instanced draws an instance at a
// time, ten times slower than the same triangles drawn plainly.
//
// Draw order: each primitive's index in its display list becomes its depth (later = nearer), so
// fills, lines and text can each be drawn in one call per bucket and still cover one another as
// the drawing orders them (a solid hatch over a line, a wipeout hiding what lies beneath it).
// Styles (colour, visibility, lineweight) are looked up in two small textures by style index, so
// turning a layer off or switching the background re-uploads a few bytes, not the geometry.

const STYLE_LOOKUP = `
uniform sampler2D uStyleColor;
uniform sampler2D uStyleWeight;
uniform vec2 uStyleSize;
vec2 styleUv(float s) {
  float x = mod(s, uStyleSize.x);
  float y = floor(s / uStyleSize.x);
  return vec2((x + 0.5) / uStyleSize.x, (y + 0.5) / uStyleSize.y);
}
`;

const COMMON = `
uniform mat3 uMatrix;     // local coordinates -> device pixels (y down)
uniform vec2 uViewport;   // device pixels
uniform float uOrderStep; // depth per primitive
vec4 clipOf(vec2 device, float order) {
  vec2 ndc = vec2(device.x / uViewport.x * 2.0 - 1.0, 1.0 - device.y / uViewport.y * 2.0);
  return vec4(ndc, 1.0 - (order + 1.0) * uOrderStep, 1.0);
}
const vec4 HIDDEN = vec4(2.0, 2.0, 2.0, 1.0);
`;

/** Thin lines (GL_LINES): one device pixel. */
export const LINE_VERTEX = `
precision highp float;
attribute vec4 aLine; // x, y, order, style
${COMMON}
${STYLE_LOOKUP}
varying vec3 vColor;
void main() {
  vec4 c = texture2D(uStyleColor, styleUv(aLine.w));
  if (c.a < 0.5) { gl_Position = HIDDEN; vColor = vec3(0.0); return; }
  gl_Position = clipOf((uMatrix * vec3(aLine.xy, 1.0)).xy, aLine.z);
  vColor = c.rgb;
}
`;

/** Wide lines and dots: each vertex knows its segment and its corner, and is pushed out to the lineweight. */
export const WIDE_VERTEX = `
precision highp float;
attribute vec4 aSegment; // x0, y0, x1, y1
attribute vec4 aCorner;  // along (0 or 1), across (-1 or +1), order, style
${COMMON}
${STYLE_LOOKUP}
uniform float uPxPerMm;
uniform float uMinWidth;
varying vec3 vColor;
void main() {
  vec2 st = styleUv(aCorner.w);
  vec4 c = texture2D(uStyleColor, st);
  if (c.a < 0.5) { gl_Position = HIDDEN; vColor = vec3(0.0); return; }
  float mm = texture2D(uStyleWeight, st).r * 255.0 / 100.0;
  float width = clamp(mm * uPxPerMm, uMinWidth, 64.0);
  vec2 p0 = (uMatrix * vec3(aSegment.xy, 1.0)).xy;
  vec2 p1 = (uMatrix * vec3(aSegment.zw, 1.0)).xy;
  vec2 d = p1 - p0;
  float len = length(d);
  vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
  vec2 n = vec2(-dir.y, dir.x);
  float half_ = width * 0.5;
  // Square caps: a dot (no length) shows as a square, polyline corners close up.
  vec2 p = mix(p0, p1, aCorner.x) + dir * (aCorner.x * 2.0 - 1.0) * half_ + n * aCorner.y * half_;
  gl_Position = clipOf(p, aCorner.z);
  vColor = c.rgb;
}
`;

export const FILL_VERTEX = `
precision highp float;
attribute vec2 aPosition;
attribute vec3 aFill; // order, style, colour (0xRRGGBB, -1 the style's, -2 the background)
${COMMON}
${STYLE_LOOKUP}
uniform vec3 uBackground;
varying vec3 vColor;
void main() {
  vec4 c = texture2D(uStyleColor, styleUv(aFill.y));
  if (c.a < 0.5) { gl_Position = HIDDEN; vColor = vec3(0.0); return; }
  vec3 color = c.rgb;
  if (aFill.z == -2.0) color = uBackground;
  else if (aFill.z >= 0.0) {
    float v = aFill.z;
    color = vec3(floor(v / 65536.0), mod(floor(v / 256.0), 256.0), mod(v, 256.0)) / 255.0;
  }
  gl_Position = clipOf((uMatrix * vec3(aPosition, 1.0)).xy, aFill.x);
  vColor = color;
}
`;

export const COLOR_FRAGMENT = `
precision mediump float;
varying vec3 vColor;
void main() { gl_FragColor = vec4(vColor, 1.0); }
`;

export const GLYPH_VERTEX = `
precision highp float;
attribute vec4 aGlyph; // x, y, u, v
attribute vec4 aMeta;  // order, style, the cell's vertical axis (x, y)
${COMMON}
${STYLE_LOOKUP}
uniform float uMaxCellPx; // glyphs in taller cells are drawn by the 2D overlay
varying vec3 vColor;
varying vec2 vUv;
void main() {
  vec4 c = texture2D(uStyleColor, styleUv(aMeta.y));
  vec2 vAxis = (uMatrix * vec3(aMeta.zw, 0.0)).xy;
  float cell = length(vAxis);
  if (c.a < 0.5 || cell > uMaxCellPx || cell < 3.0) { gl_Position = HIDDEN; vColor = vec3(0.0); vUv = vec2(0.0); return; }
  gl_Position = clipOf((uMatrix * vec3(aGlyph.xy, 1.0)).xy, aMeta.x);
  vColor = c.rgb;
  vUv = aGlyph.zw;
}
`;

export const GLYPH_FRAGMENT = `
precision mediump float;
uniform sampler2D uAtlas;
varying vec3 vColor;
varying vec2 vUv;
void main() {
  float a = texture2D(uAtlas, vUv).a;
  if (a < 0.03) discard;
  gl_FragColor = vec4(vColor, a);
}
`;

/** Plain shapes in device pixels: the layout's sheet, its shadow, viewport clip polygons (into the stencil). */
export const SHAPE_VERTEX = `
precision highp float;
attribute vec2 aPosition;
uniform vec2 uViewport;
void main() {
  gl_Position = vec4(aPosition.x / uViewport.x * 2.0 - 1.0, 1.0 - aPosition.y / uViewport.y * 2.0, 0.0, 1.0);
}
`;

export const SHAPE_FRAGMENT = `
precision mediump float;
uniform vec4 uColor;
void main() { gl_FragColor = uColor; }
`;

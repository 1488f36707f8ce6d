/** HATCH: boundary paths (polyline or edges), pattern definition lines, gradient. */
import type { Color, HatchEdge, HatchEntity, HatchPath } from '@xcad/cad/model';
import type { HatchPatternLine } from '@xcad/cad/geom';
import { RAD2DEG } from '../access';
import type { DwgColor } from '../wasm';
import { modelColor } from './colors';
import type { EntityContext, Owner } from './context';

export function hatch(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): HatchEntity {
  const a = r.a;
  const solid = a.u8(tio, type, 'is_solid_fill') !== 0;
  const e: HatchEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'HATCH',
    pattern: a.str(tio, type, 'name'),
    solid,
    associative: a.u8(tio, type, 'is_associative') !== 0,
    elevation: a.d(tio, type, 'elevation'),
    paths: [],
    style: a.u16(tio, type, 'style'),
    patternType: a.u16(tio, type, 'pattern_type', 1),
    patternAngle: a.d(tio, type, 'angle') * RAD2DEG,
    patternScale: a.d(tio, type, 'scale_spacing', 1) || 1,
    patternDouble: a.u8(tio, type, 'double_flag') !== 0,
    patternLines: [],
  };
  // Boundary paths.
  const P = 'HATCH_Path';
  const S = 'HATCH_PathSeg';
  const nPaths = a.u32(tio, type, 'num_paths');
  const paths = a.ptr(tio, type, 'paths');
  const pathSize = a.subSize(P);
  const segSize = a.subSize(S);
  const polySize = a.subSize('HATCH_PolylinePath');
  const cpSize = a.subSize('HATCH_ControlPoint');
  const so = (f: string): number => a.subOff(S, f);
  if (paths && pathSize > 0)
    for (let i = 0; i < Math.min(nPaths, 100_000); i++) {
      const p = paths + i * pathSize;
      const flags = a.u32At(p + a.subOff(P, 'flag'));
      const count = a.u32At(p + a.subOff(P, 'num_segs_or_paths'));
      const path: HatchPath = { flags, edges: [] };
      if (flags & 2) {
        const vp = a.u32At(p + a.subOff(P, 'polyline_paths'));
        const vertices: { x: number; y: number; bulge: number }[] = [];
        const po = Math.max(0, a.subOff('HATCH_PolylinePath', 'point'));
        const bo = a.subOff('HATCH_PolylinePath', 'bulge');
        if (vp && polySize > 0)
          for (let k = 0; k < Math.min(count, 1_000_000); k++) {
            const q = vp + k * polySize;
            vertices.push({ x: a.f64At(q + po), y: a.f64At(q + po + 8), bulge: bo >= 0 ? a.f64At(q + bo) : 0 });
          }
        path.polyline = { vertices, closed: a.u8At(p + a.subOff(P, 'closed')) !== 0 };
      } else {
        const sp = a.u32At(p + a.subOff(P, 'segs'));
        if (sp && segSize > 0)
          for (let k = 0; k < Math.min(count, 1_000_000); k++) {
            const q = sp + k * segSize;
            const kind = a.u8At(q + so('curve_type'));
            let edge: HatchEdge | undefined;
            if (kind === 1) edge = { kind: 'line', start: a.p2At(q + so('first_endpoint')), end: a.p2At(q + so('second_endpoint')) };
            else if (kind === 2)
              edge = {
                kind: 'arc',
                center: a.p2At(q + so('center')),
                radius: a.f64At(q + so('radius')),
                startAngle: a.f64At(q + so('start_angle')) * RAD2DEG,
                endAngle: a.f64At(q + so('end_angle')) * RAD2DEG,
                ccw: a.u8At(q + so('is_ccw')) !== 0,
              };
            else if (kind === 3)
              edge = {
                kind: 'ellipse',
                center: a.p2At(q + so('center')),
                majorAxis: a.p2At(q + so('endpoint')),
                ratio: a.f64At(q + so('minor_major_ratio')),
                startAngle: a.f64At(q + so('start_angle')) * RAD2DEG,
                endAngle: a.f64At(q + so('end_angle')) * RAD2DEG,
                ccw: a.u8At(q + so('is_ccw')) !== 0,
              };
            else if (kind === 4) {
              const nk = a.u32At(q + so('num_knots'));
              const nc = a.u32At(q + so('num_control_points'));
              const kp = a.u32At(q + so('knots'));
              const cp = a.u32At(q + so('control_points'));
              const nf = a.u32At(q + so('num_fitpts'));
              const fp = a.u32At(q + so('fitpts'));
              const rational = a.u8At(q + so('is_rational')) !== 0;
              const controlPoints: [number, number][] = [];
              const weights: number[] = [];
              const cpo = Math.max(0, a.subOff('HATCH_ControlPoint', 'point'));
              const cwo = a.subOff('HATCH_ControlPoint', 'weight');
              if (cp && cpSize > 0)
                for (let c = 0; c < Math.min(nc, 100_000); c++) {
                  controlPoints.push(a.p2At(cp + c * cpSize + cpo));
                  if (rational && cwo >= 0) weights.push(a.f64At(cp + c * cpSize + cwo));
                }
              const fitPoints: [number, number][] = [];
              if (fp) for (let c = 0; c < Math.min(nf, 100_000); c++) fitPoints.push(a.p2At(fp + 16 * c));
              edge = {
                kind: 'spline',
                degree: a.u32At(q + so('degree')),
                rational,
                periodic: a.u8At(q + so('is_periodic')) !== 0,
                knots: kp ? a.doublesAt(kp, Math.min(nk, 100_000)) : [],
                controlPoints,
                weights,
                fitPoints,
              };
            }
            if (edge) path.edges.push(edge);
          }
      }
      e.paths.push(path);
    }
  // Pattern definition lines.
  const D = 'HATCH_DefLine';
  const nLines = a.u16(tio, type, 'num_deflines');
  const lines = a.ptr(tio, type, 'deflines');
  const lineSize = a.subSize(D);
  if (!solid && lines && lineSize > 0)
    for (let i = 0; i < Math.min(nLines, 10_000); i++) {
      const q = lines + i * lineSize;
      const nd = a.u16At(q + a.subOff(D, 'num_dashes'));
      const dp = a.u32At(q + a.subOff(D, 'dashes'));
      const line: HatchPatternLine = {
        angle: a.f64At(q + a.subOff(D, 'angle')) * RAD2DEG,
        base: a.p2At(q + a.subOff(D, 'pt0')),
        offset: a.p2At(q + a.subOff(D, 'offset')),
        dashes: dp ? a.doublesAt(dp, Math.min(nd, 1000)) : [],
      };
      e.patternLines.push(line);
    }
  // Gradient.
  if (a.u32(tio, type, 'is_gradient_fill')) {
    const nc = a.u32(tio, type, 'num_colors');
    const cp = a.ptr(tio, type, 'colors');
    const size = a.subSize('HATCH_Color');
    const co = a.subOff('HATCH_Color', 'color');
    const colors: Color[] = [];
    if (cp && size > 0 && co >= 0)
      for (let i = 0; i < Math.min(nc, 16); i++) {
        const c = r.a.w.dwg_dynapi_subclass_value(cp + i * size, 'HATCH_Color', 'color');
        if (!c.success) continue;
        const mc = modelColor(c.data as DwgColor);
        colors.push(mc.rgb !== undefined ? { rgb: mc.rgb } : mc);
      }
    e.gradient = {
      name: a.str(tio, type, 'gradient_name'),
      colors,
      angle: a.d(tio, type, 'gradient_angle'),
      shift: a.d(tio, type, 'gradient_shift'),
      singleColor: a.u32(tio, type, 'single_color_gradient') !== 0,
      tint: a.d(tio, type, 'gradient_tint'),
    };
  }
  return e;
}

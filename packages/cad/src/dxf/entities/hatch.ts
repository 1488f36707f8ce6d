/** HATCH: boundary paths, pattern definition lines, gradient. */
import type { Color, HatchEdge, HatchEntity, HatchPath } from '../../model';
import { asNum, asStr, type DxfRecord } from '../record';
import { mk } from './base';

export function hatch(r: DxfRecord): HatchEntity {
  const { codes, vals } = r;
  const end = r.length;
  let i = 0;
  const n = (k: number): number => asNum(vals[k]);
  const xy = (k: number): [number, number] => [asNum(vals[k]), codes[k + 1] === (codes[k] as number) + 10 ? asNum(vals[k + 1]) : 0];
  // Skip to the path count.
  const paths: HatchPath[] = [];
  const pc = r.indexOf(91);
  const e: HatchEntity = mk(r, {
    type: 'HATCH',
    pattern: r.str(2),
    solid: r.num(70) === 1,
    associative: r.num(71) === 1,
    elevation: r.pt(10)[2],
    paths,
    style: 0,
    patternType: 1,
    patternAngle: 0,
    patternScale: 1,
    patternDouble: false,
    patternLines: [],
  });
  if (pc < 0) return e;
  const pathCount = n(pc);
  i = pc + 1;
  const at = (code: number): boolean => i < end && codes[i] === code;
  for (let p = 0; p < pathCount && i < end; p++) {
    while (i < end && codes[i] !== 92) i++;
    if (i >= end) break;
    const flags = n(i++);
    const path: HatchPath = { flags, edges: [] };
    paths.push(path);
    if (flags & 2) {
      let hasBulge = false;
      let closed = false;
      if (at(72)) hasBulge = n(i++) !== 0;
      if (at(73)) closed = n(i++) !== 0;
      const count = at(93) ? n(i++) : 0;
      const vertices: { x: number; y: number; bulge: number }[] = [];
      for (let k = 0; k < count && i < end; k++) {
        if (!at(10)) break;
        const [x, y] = xy(i);
        i += codes[i + 1] === 20 ? 2 : 1;
        let bulge = 0;
        if (at(42)) bulge = n(i++);
        vertices.push({ x, y, bulge });
      }
      void hasBulge;
      path.polyline = { vertices, closed };
    } else {
      const count = at(93) ? n(i++) : 0;
      for (let k = 0; k < count && i < end; k++) {
        if (!at(72)) break;
        const et = n(i++);
        const start = i;
        // The edge's groups run until the next 72 (next edge), 97 (source objects) or 92.
        let stop = i;
        if (et === 4) {
          // Spline edges contain 73/74 etc.; find the end by the counts.
          const deg = at(94) ? n(i++) : 3;
          const rational = at(73) ? n(i++) !== 0 : false;
          const periodic = at(74) ? n(i++) !== 0 : false;
          const nk = at(95) ? n(i++) : 0;
          const nc = at(96) ? n(i++) : 0;
          const knots: number[] = [];
          const controlPoints: [number, number][] = [];
          const weights: number[] = [];
          const fitPoints: [number, number][] = [];
          for (let q = 0; q < nk && at(40); q++) knots.push(n(i++));
          for (let q = 0; q < nc && at(10); q++) {
            controlPoints.push(xy(i));
            i += codes[i + 1] === 20 ? 2 : 1;
            if (at(42)) weights.push(n(i++));
          }
          if (at(97)) {
            const nf = n(i++);
            for (let q = 0; q < nf && at(11); q++) {
              fitPoints.push(xy(i));
              i += codes[i + 1] === 21 ? 2 : 1;
            }
          }
          while (at(12) || at(22) || at(13) || at(23)) i++;
          path.edges.push({ kind: 'spline', degree: deg, rational, periodic, knots, controlPoints, weights, fitPoints });
          continue;
        }
        while (stop < end && codes[stop] !== 72 && codes[stop] !== 97 && codes[stop] !== 92 && codes[stop] !== 75) stop++;
        const find = (code: number): number => {
          for (let q = start; q < stop; q++) if (codes[q] === code) return q;
          return -1;
        };
        const p2 = (code: number): [number, number] => {
          const q = find(code);
          return q < 0 ? [0, 0] : xy(q);
        };
        const v1 = (code: number, def = 0): number => {
          const q = find(code);
          return q < 0 ? def : n(q);
        };
        let edge: HatchEdge | undefined;
        if (et === 1) edge = { kind: 'line', start: p2(10), end: p2(11) };
        else if (et === 2)
          edge = { kind: 'arc', center: p2(10), radius: v1(40), startAngle: v1(50), endAngle: v1(51), ccw: v1(73, 1) !== 0 };
        else if (et === 3)
          edge = {
            kind: 'ellipse',
            center: p2(10),
            majorAxis: p2(11),
            ratio: v1(40, 1),
            startAngle: v1(50),
            endAngle: v1(51, 360),
            ccw: v1(73, 1) !== 0,
          };
        if (edge) path.edges.push(edge);
        i = stop;
      }
    }
    // Source boundary objects.
    if (at(97)) {
      const ns = n(i++);
      for (let q = 0; q < ns && at(330); q++) i++;
    }
  }
  // Pattern data after the paths.
  let lines = 0;
  for (; i < end; i++) {
    const c = codes[i] as number;
    if (c === 75) e.style = n(i);
    else if (c === 76) e.patternType = n(i);
    else if (c === 52) e.patternAngle = n(i);
    else if (c === 41) e.patternScale = n(i);
    else if (c === 77) e.patternDouble = n(i) !== 0;
    else if (c === 78) {
      lines = n(i);
      i++;
      for (let l = 0; l < lines && at(53); l++) {
        const angle = n(i++);
        const base: [number, number] = [at(43) ? n(i++) : 0, at(44) ? n(i++) : 0];
        const offset: [number, number] = [at(45) ? n(i++) : 0, at(46) ? n(i++) : 0];
        const nd = at(79) ? n(i++) : 0;
        const dashes: number[] = [];
        for (let d = 0; d < nd && at(49); d++) dashes.push(n(i++));
        e.patternLines.push({ angle, base, offset, dashes });
      }
      i--;
    } else if (c === 450 && n(i) !== 0) {
      const colors: Color[] = [];
      let name = '';
      let angle = 0;
      let shift = 0;
      let single = false;
      let tint = 0;
      for (let q = i + 1; q < end; q++) {
        const cq = codes[q] as number;
        if (cq === 452) single = n(q) !== 0;
        else if (cq === 460) angle = n(q);
        else if (cq === 461) shift = n(q);
        else if (cq === 462) tint = n(q);
        else if (cq === 470) name = asStr(vals[q]);
        else if (cq === 421) colors.push({ rgb: n(q) & 0xffffff });
        else if (cq === 63) colors.push({ aci: n(q) });
      }
      // 63 and 421 describe the same colour: keep one entry per 421 when both are written.
      const rgbOnly = colors.filter((c2) => c2.rgb !== undefined);
      e.gradient = { name, colors: rgbOnly.length ? rgbOnly : colors, angle, shift, singleColor: single, tint };
      break;
    }
  }
  return e;
}

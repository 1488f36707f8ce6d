import type { Entity } from './model';

/** A few characteristic points of an entity in its own space (for the tolerance estimate only). */
export function entityKeyPoints(e: Entity): [number, number][] {
  switch (e.type) {
    case 'LINE':
      return [
        [e.start[0], e.start[1]],
        [e.end[0], e.end[1]],
      ];
    case 'CIRCLE':
    case 'ARC':
      return [
        [e.center[0] - e.radius, e.center[1] - e.radius],
        [e.center[0] + e.radius, e.center[1] + e.radius],
      ];
    case 'ELLIPSE':
      return [
        [e.center[0] - e.majorAxis[0], e.center[1] - e.majorAxis[1]],
        [e.center[0] + e.majorAxis[0], e.center[1] + e.majorAxis[1]],
      ];
    case 'LWPOLYLINE':
      return e.vertices.map((v) => [v.x, v.y]);
    case 'POLYLINE':
      return e.vertices.map((v) => [v.position[0], v.position[1]]);
    case 'SPLINE':
      return (e.controlPoints.length ? e.controlPoints : e.fitPoints).map((p) => [p[0], p[1]]);
    case 'INSERT':
    case 'TEXT':
    case 'ATTRIB':
    case 'MTEXT':
      return [[e.insertion[0], e.insertion[1]]];
    case 'SOLID':
    case 'TRACE':
    case '3DFACE':
      return e.points.map((p) => [p[0], p[1]]);
    case 'POINT':
      return [[e.position[0], e.position[1]]];
    case 'VIEWPORT':
      return [
        [e.center[0] - e.width / 2, e.center[1] - e.height / 2],
        [e.center[0] + e.width / 2, e.center[1] + e.height / 2],
      ];
    case 'HATCH':
      return e.paths.flatMap((p) =>
        p.polyline
          ? p.polyline.vertices.map((v) => [v.x, v.y] as [number, number])
          : p.edges.flatMap((ed) => (ed.kind === 'line' ? [ed.start, ed.end] : [])),
      );
    case 'DIMENSION':
      return [
        [e.defPoint[0], e.defPoint[1]],
        [e.textMidpoint[0], e.textMidpoint[1]],
      ];
    // The types a save-as lowers (decision 0037) have key points too, so the original and its
    // lowered form give the same tolerance estimate (and so the same dashes).
    case 'LEADER':
      return e.vertices.map((p) => [p[0], p[1]]);
    case 'MLINE':
      return e.vertices.map((v) => [v.position[0], v.position[1]]);
    case 'MESH':
      return e.vertices.map((p) => [p[0], p[1]]);
    case 'IMAGE':
    case 'WIPEOUT': {
      const [w, h] = e.imageSize;
      const p = e.insertion;
      return [
        [p[0], p[1]],
        [p[0] + e.u[0] * w + e.v[0] * h, p[1] + e.u[1] * w + e.v[1] * h],
      ];
    }
    case 'ACAD_TABLE':
      return [[e.insertion[0], e.insertion[1]]];
    case 'MULTILEADER': {
      const pts: [number, number][] = [];
      for (const l of e.leaders) {
        for (const line of l.lines) for (const v of line.vertices) pts.push([v[0], v[1]]);
        if (l.lastPoint) pts.push([l.lastPoint[0], l.lastPoint[1]]);
      }
      const c = e.textPosition ?? e.blockPosition;
      if (c) pts.push([c[0], c[1]]);
      return pts;
    }
    default:
      return [];
  }
}

import { describe, expect, it } from 'vitest';
import type { Entity, EntityOf } from '../model';
import { readDxf } from './reader';
import { entitiesDxf, dxfText } from './test-helpers';

function one<T extends Entity['type']>(groups: [number, string | number][], type: T): EntityOf<T> {
  const { drawing } = readDxf(entitiesDxf(groups));
  const e = drawing.modelSpace[0];
  expect(e?.type).toBe(type);
  return e as EntityOf<T>;
}

describe('DXF entities', () => {
  it('reads LINE with common properties: true colour, lineweight, extrusion, linetype, ltscale', () => {
    const e = one(
      [
        [0, 'LINE'],
        [5, '2F'],
        [100, 'AcDbEntity'],
        [8, 'Walls'],
        [6, 'DASHED'],
        [62, 1],
        [420, 0x112233],
        [370, 35],
        [48, 2.5],
        [60, 1],
        [100, 'AcDbLine'],
        [10, 1.5],
        [20, -2],
        [30, 0.25],
        [11, 10],
        [21, 20],
        [31, 0],
        [210, 0],
        [220, 0],
        [230, -1],
      ],
      'LINE',
    );
    expect(e.handle).toBe('2F');
    expect(e.layer).toBe('Walls');
    expect(e.linetype).toBe('DASHED');
    expect(e.color).toEqual({ aci: 1, rgb: 0x112233 });
    expect(e.lineweight).toBe(35);
    expect(e.ltscale).toBe(2.5);
    expect(e.visible).toBe(false);
    expect(e.start).toEqual([1.5, -2, 0.25]);
    expect(e.end).toEqual([10, 20, 0]);
    expect(e.extrusion).toEqual([0, 0, -1]);
  });

  it('defaults colour to ByLayer and extrusion to +Z', () => {
    const e = one(
      [
        [0, 'CIRCLE'],
        [8, '0'],
        [10, 5],
        [20, 6],
        [40, 2.5],
      ],
      'CIRCLE',
    );
    expect(e.color).toEqual({ aci: 256 });
    expect(e.extrusion).toEqual([0, 0, 1]);
    expect(e.center).toEqual([5, 6, 0]);
    expect(e.radius).toBe(2.5);
  });

  it('reads ARC angles in degrees and ELLIPSE parameters', () => {
    const a = one(
      [
        [0, 'ARC'],
        [10, 1],
        [20, 2],
        [40, 3],
        [50, 30],
        [51, 120],
      ],
      'ARC',
    );
    expect([a.startAngle, a.endAngle, a.radius]).toEqual([30, 120, 3]);
    const el = one(
      [
        [0, 'ELLIPSE'],
        [10, 0],
        [20, 0],
        [11, 4],
        [21, 0],
        [40, 0.5],
        [41, 0],
        [42, Math.PI],
      ],
      'ELLIPSE',
    );
    expect(el.majorAxis).toEqual([4, 0, 0]);
    expect(el.ratio).toBe(0.5);
    expect(el.endParam).toBeCloseTo(Math.PI, 12);
  });

  it('reads LWPOLYLINE vertices with bulges, widths, constant width, closed flag and elevation', () => {
    const e = one(
      [
        [0, 'LWPOLYLINE'],
        [100, 'AcDbEntity'],
        [8, 'P'],
        [100, 'AcDbPolyline'],
        [90, 3],
        [70, 129],
        [43, 0.5],
        [38, 7],
        [10, 0],
        [20, 0],
        [42, 1],
        [10, 10],
        [20, 0],
        [40, 0.2],
        [41, 0.4],
        [10, 10],
        [20, 5],
        [42, -0.414],
      ],
      'LWPOLYLINE',
    );
    expect(e.closed).toBe(true);
    expect(e.plinegen).toBe(true);
    expect(e.constantWidth).toBe(0.5);
    expect(e.elevation).toBe(7);
    expect(e.vertices).toEqual([
      { x: 0, y: 0, bulge: 1, startWidth: 0, endWidth: 0 },
      { x: 10, y: 0, bulge: 0, startWidth: 0.2, endWidth: 0.4 },
      { x: 10, y: 5, bulge: -0.414, startWidth: 0, endWidth: 0 },
    ]);
  });

  it('reads POLYLINE with VERTEX records and SEQEND, and polyface meshes', () => {
    const { drawing } = readDxf(
      entitiesDxf([
        [0, 'POLYLINE'],
        [8, 'A'],
        [66, 1],
        [10, 0],
        [20, 0],
        [30, 2],
        [70, 1],
        [0, 'VERTEX'],
        [8, 'A'],
        [10, 1],
        [20, 1],
        [30, 2],
        [42, 0.5],
        [0, 'VERTEX'],
        [8, 'A'],
        [10, 3],
        [20, 1],
        [30, 2],
        [0, 'SEQEND'],
        [0, 'POLYLINE'],
        [66, 1],
        [70, 64],
        [71, 3],
        [72, 1],
        [0, 'VERTEX'],
        [10, 0],
        [20, 0],
        [30, 0],
        [70, 192],
        [0, 'VERTEX'],
        [10, 1],
        [20, 0],
        [30, 0],
        [70, 192],
        [0, 'VERTEX'],
        [10, 0],
        [20, 1],
        [30, 0],
        [70, 192],
        [0, 'VERTEX'],
        [10, 0],
        [20, 0],
        [30, 0],
        [70, 128],
        [71, 1],
        [72, 2],
        [73, -3],
        [0, 'SEQEND'],
        [0, 'POINT'],
        [10, 9],
        [20, 9],
      ]),
    );
    expect(drawing.modelSpace.map((e) => e.type)).toEqual(['POLYLINE', 'POLYLINE', 'POINT']);
    const [p2d, mesh] = drawing.modelSpace as [EntityOf<'POLYLINE'>, EntityOf<'POLYLINE'>];
    expect(p2d.kind).toBe('2d');
    expect(p2d.closed).toBe(true);
    expect(p2d.elevation).toBe(2);
    expect(p2d.vertices.map((v) => [v.position, v.bulge])).toEqual([
      [[1, 1, 2], 0.5],
      [[3, 1, 2], 0],
    ]);
    expect(mesh.kind).toBe('polyface');
    expect(mesh.vertices).toHaveLength(3);
    expect(mesh.faces).toEqual([[1, 2, -3]]);
  });

  it('reads SPLINE knots, weights, control and fit points, flags', () => {
    const e = one(
      [
        [0, 'SPLINE'],
        [100, 'AcDbSpline'],
        [70, 6],
        [71, 2],
        [72, 6],
        [73, 3],
        [74, 2],
        [40, 0],
        [40, 0],
        [40, 0],
        [40, 1],
        [40, 1],
        [40, 1],
        [41, 1],
        [41, 0.7071],
        [41, 1],
        [10, 0],
        [20, 0],
        [30, 0],
        [10, 1],
        [20, 1],
        [30, 0],
        [10, 2],
        [20, 0],
        [30, 0],
        [11, 0],
        [21, 0],
        [31, 0],
        [11, 2],
        [21, 0],
        [31, 0],
      ],
      'SPLINE',
    );
    expect(e.degree).toBe(2);
    expect(e.periodic).toBe(true);
    expect(e.rational).toBe(true);
    expect(e.closed).toBe(false);
    expect(e.knots).toEqual([0, 0, 0, 1, 1, 1]);
    expect(e.weights).toEqual([1, 0.7071, 1]);
    expect(e.controlPoints).toEqual([
      [0, 0, 0],
      [1, 1, 0],
      [2, 0, 0],
    ]);
    expect(e.fitPoints).toEqual([
      [0, 0, 0],
      [2, 0, 0],
    ]);
  });

  it('reads SOLID (3 corners repeat the third), TRACE and 3DFACE', () => {
    const s = one(
      [
        [0, 'SOLID'],
        [10, 0],
        [20, 0],
        [11, 1],
        [21, 0],
        [12, 0],
        [22, 1],
      ],
      'SOLID',
    );
    expect(s.points[3]).toEqual([0, 1, 0]);
    const f = one(
      [
        [0, '3DFACE'],
        [10, 0],
        [20, 0],
        [11, 1],
        [21, 0],
        [12, 1],
        [22, 1],
        [13, 0],
        [23, 1],
        [70, 5],
      ],
      '3DFACE',
    );
    expect(f.invisibleEdges).toBe(5);
    expect(f.points[2]).toEqual([1, 1, 0]);
  });

  it('reads TEXT alignment 72/73 with alignment point 11, style, width and oblique', () => {
    const e = one(
      [
        [0, 'TEXT'],
        [100, 'AcDbText'],
        [10, 1],
        [20, 2],
        [40, 2.5],
        [1, ' Hello'],
        [50, 30],
        [41, 0.8],
        [51, 15],
        [7, 'ROMANS'],
        [71, 2],
        [72, 1],
        [11, 5],
        [21, 6],
        [100, 'AcDbText'],
        [73, 2],
      ],
      'TEXT',
    );
    expect(e.text).toBe(' Hello');
    expect(e.insertion).toEqual([1, 2, 0]);
    expect(e.alignPoint).toEqual([5, 6, 0]);
    expect([e.halign, e.valign, e.generation]).toEqual([1, 2, 2]);
    expect([e.height, e.rotation, e.widthFactor, e.oblique, e.style]).toEqual([2.5, 30, 0.8, 15, 'ROMANS']);
  });

  it('joins MTEXT 3 + 1 groups and reads attachment, width, direction, background', () => {
    const e = one(
      [
        [0, 'MTEXT'],
        [100, 'AcDbEntity'],
        [8, 'T'],
        [100, 'AcDbMText'],
        [10, 1],
        [20, 1],
        [40, 3.5],
        [41, 50],
        [71, 5],
        [72, 1],
        [3, 'First chunk '],
        [3, 'second chunk '],
        [1, 'and the end\\P{\\C1;red}'],
        [7, 'Standard'],
        [11, 0],
        [21, 1],
        [31, 0],
        [44, 1.25],
        [90, 1],
        [63, 2],
        [45, 1.5],
      ],
      'MTEXT',
    );
    expect(e.text).toBe('First chunk second chunk and the end\\P{\\C1;red}');
    expect(e.attachment).toBe(5);
    expect(e.width).toBe(50);
    expect(e.height).toBe(3.5);
    expect(e.rotation).toBeCloseTo(90, 10);
    expect(e.lineSpacingFactor).toBe(1.25);
    expect(e.background).toEqual({ flags: 1, color: { aci: 2 }, scale: 1.5 });
  });

  it('reads INSERT attributes and MINSERT counts', () => {
    const { drawing } = readDxf(
      entitiesDxf([
        [0, 'INSERT'],
        [8, '0'],
        [66, 1],
        [2, 'DOOR'],
        [10, 5],
        [20, 5],
        [41, 2],
        [42, 3],
        [50, 90],
        [70, 4],
        [71, 2],
        [44, 10],
        [45, 20],
        [0, 'ATTRIB'],
        [100, 'AcDbText'],
        [10, 6],
        [20, 5],
        [40, 1],
        [1, 'D-01'],
        [100, 'AcDbAttribute'],
        [2, 'NUMBER'],
        [70, 0],
        [74, 3],
        [0, 'ATTRIB'],
        [10, 6],
        [20, 4],
        [40, 1],
        [1, 'oak'],
        [2, 'MATERIAL'],
        [70, 1],
        [0, 'SEQEND'],
      ]),
    );
    const e = drawing.modelSpace[0] as EntityOf<'INSERT'>;
    expect(drawing.modelSpace).toHaveLength(1);
    expect(e.name).toBe('DOOR');
    expect(e.scale).toEqual([2, 3, 1]);
    expect(e.rotation).toBe(90);
    expect([e.columnCount, e.rowCount, e.columnSpacing, e.rowSpacing]).toEqual([4, 2, 10, 20]);
    expect(e.attributes.map((a) => [a.tag, a.text, a.valign, a.attributeFlags])).toEqual([
      ['NUMBER', 'D-01', 3, 0],
      ['MATERIAL', 'oak', 0, 1],
    ]);
  });

  it('reads DIMENSION block, type, definition points and measurement', () => {
    const e = one(
      [
        [0, 'DIMENSION'],
        [2, '*D5'],
        [10, 0],
        [20, 9],
        [11, 6],
        [21, 9.5],
        [70, 33],
        [1, '<> mm'],
        [3, 'ISO'],
        [42, 12000],
        [13, 0],
        [23, 8],
        [14, 12],
        [24, 8],
      ],
      'DIMENSION',
    );
    expect([e.block, e.dimType, e.flags, e.text, e.style, e.measurement]).toEqual(['*D5', 1, 33, '<> mm', 'ISO', 12000]);
    expect(e.defPoints.p13).toEqual([0, 8, 0]);
    expect(e.defPoints.p14).toEqual([12, 8, 0]);
  });

  it('reads LEADER vertices and MULTILEADER lines and text', () => {
    const l = one(
      [
        [0, 'LEADER'],
        [3, 'Standard'],
        [71, 1],
        [72, 0],
        [76, 2],
        [10, 0],
        [20, 0],
        [10, 5],
        [20, 5],
      ],
      'LEADER',
    );
    expect(l.vertices).toEqual([
      [0, 0, 0],
      [5, 5, 0],
    ]);
    expect(l.arrowhead).toBe(true);
    const m = one(
      [
        [0, 'MULTILEADER'],
        [100, 'AcDbMLeader'],
        [300, 'CONTEXT_DATA{'],
        [40, 1],
        [10, 0],
        [20, 0],
        [30, 0],
        [41, 2.5],
        [140, 1.2],
        [290, 1],
        [304, 'Note A'],
        [12, 12],
        [22, 8],
        [32, 0],
        [302, 'LEADER{'],
        [290, 1],
        [10, 10],
        [20, 8],
        [30, 0],
        [11, 1],
        [21, 0],
        [31, 0],
        [40, 2],
        [304, 'LEADER_LINE{'],
        [10, 0],
        [20, 0],
        [30, 0],
        [10, 5],
        [20, 6],
        [30, 0],
        [305, '}'],
        [303, '}'],
        [301, '}'],
        [340, 'AB'],
      ],
      'MULTILEADER',
    );
    expect(m.text).toBe('Note A');
    expect(m.textPosition).toEqual([12, 8, 0]);
    expect(m.textHeight).toBe(2.5);
    expect(m.leaders).toHaveLength(1);
    expect(m.leaders[0]?.lastPoint).toEqual([10, 8, 0]);
    expect(m.leaders[0]?.lines[0]?.vertices).toEqual([
      [0, 0, 0],
      [5, 6, 0],
    ]);
  });

  it('reads HATCH edge paths, polyline paths with bulges, pattern lines and gradients', () => {
    const e = one(
      [
        [0, 'HATCH'],
        [100, 'AcDbHatch'],
        [10, 0],
        [20, 0],
        [30, 3],
        [210, 0],
        [220, 0],
        [230, 1],
        [2, 'ANSI31'],
        [70, 0],
        [71, 0],
        [91, 2],
        [92, 1],
        [93, 4],
        [72, 1],
        [10, 0],
        [20, 0],
        [11, 10],
        [21, 0],
        [72, 2],
        [10, 10],
        [20, 5],
        [40, 5],
        [50, 270],
        [51, 90],
        [73, 1],
        [72, 3],
        [10, 5],
        [20, 10],
        [11, 5],
        [21, 0],
        [40, 0.5],
        [50, 0],
        [51, 180],
        [73, 0],
        [72, 4],
        [94, 3],
        [73, 0],
        [74, 0],
        [95, 8],
        [96, 4],
        [40, 0],
        [40, 0],
        [40, 0],
        [40, 0],
        [40, 1],
        [40, 1],
        [40, 1],
        [40, 1],
        [10, 0],
        [20, 10],
        [10, -1],
        [20, 7],
        [10, -1],
        [20, 3],
        [10, 0],
        [20, 0],
        [97, 0],
        [92, 3],
        [72, 1],
        [73, 1],
        [93, 2],
        [10, 1],
        [20, 1],
        [42, 0.5],
        [10, 2],
        [20, 2],
        [42, 0],
        [97, 0],
        [75, 1],
        [76, 1],
        [52, 45],
        [41, 2],
        [77, 0],
        [78, 1],
        [53, 45],
        [43, 0],
        [44, 0],
        [45, -2.2],
        [46, 2.2],
        [79, 2],
        [49, 1],
        [49, -0.5],
        [98, 0],
      ],
      'HATCH',
    );
    expect(e.pattern).toBe('ANSI31');
    expect(e.solid).toBe(false);
    expect(e.elevation).toBe(3);
    expect(e.paths).toHaveLength(2);
    const edges = e.paths[0]?.edges ?? [];
    expect(edges.map((x) => x.kind)).toEqual(['line', 'arc', 'ellipse', 'spline']);
    expect(edges[0]).toEqual({ kind: 'line', start: [0, 0], end: [10, 0] });
    expect(edges[1]).toEqual({ kind: 'arc', center: [10, 5], radius: 5, startAngle: 270, endAngle: 90, ccw: true });
    expect(edges[2]).toMatchObject({ kind: 'ellipse', majorAxis: [5, 0], ratio: 0.5, ccw: false });
    expect(edges[3]).toMatchObject({
      kind: 'spline',
      degree: 3,
      knots: [0, 0, 0, 0, 1, 1, 1, 1],
      controlPoints: [
        [0, 10],
        [-1, 7],
        [-1, 3],
        [0, 0],
      ],
    });
    expect(e.paths[1]?.polyline).toEqual({
      closed: true,
      vertices: [
        { x: 1, y: 1, bulge: 0.5 },
        { x: 2, y: 2, bulge: 0 },
      ],
    });
    expect([e.style, e.patternAngle, e.patternScale]).toEqual([1, 45, 2]);
    expect(e.patternLines).toEqual([{ angle: 45, base: [0, 0], offset: [-2.2, 2.2], dashes: [1, -0.5] }]);

    const g = one(
      [
        [0, 'HATCH'],
        [10, 0],
        [20, 0],
        [2, 'SOLID'],
        [70, 1],
        [91, 0],
        [75, 0],
        [76, 1],
        [98, 0],
        [450, 1],
        [451, 0],
        [452, 0],
        [453, 2],
        [460, 0.5],
        [461, 0.25],
        [462, 1],
        [463, 0],
        [63, 5],
        [421, 0xff0000],
        [463, 1],
        [63, 2],
        [421, 0x00ff00],
        [470, 'LINEAR'],
      ],
      'HATCH',
    );
    expect(g.solid).toBe(true);
    expect(g.gradient).toEqual({
      name: 'LINEAR',
      colors: [{ rgb: 0xff0000 }, { rgb: 0x00ff00 }],
      angle: 0.5,
      shift: 0.25,
      singleColor: false,
      tint: 1,
    });
  });

  it('reads IMAGE/WIPEOUT clip boundaries, XLINE/RAY, VIEWPORT and ACAD_TABLE', () => {
    const w = one(
      [
        [0, 'WIPEOUT'],
        [10, 1],
        [20, 2],
        [11, 0.5],
        [21, 0],
        [12, 0],
        [22, 0.5],
        [13, 1],
        [23, 1],
        [70, 7],
        [280, 1],
        [71, 2],
        [91, 3],
        [14, -0.5],
        [24, -0.5],
        [14, 0.5],
        [24, -0.5],
        [14, 0],
        [24, 0.5],
      ],
      'WIPEOUT',
    );
    expect(w.clipBoundary).toEqual([
      [-0.5, -0.5],
      [0.5, -0.5],
      [0, 0.5],
    ]);
    expect(w.clipping).toBe(true);
    expect(w.u).toEqual([0.5, 0, 0]);
    const x = one(
      [
        [0, 'XLINE'],
        [10, 1],
        [20, 1],
        [11, 0],
        [21, 1],
      ],
      'XLINE',
    );
    expect(x.direction).toEqual([0, 1, 0]);
    const { drawing } = readDxf(
      entitiesDxf([
        [0, 'VIEWPORT'],
        [67, 1],
        [10, 100],
        [20, 80],
        [40, 200],
        [41, 100],
        [68, 2],
        [69, 2],
        [12, 50],
        [22, 25],
        [45, 400],
        [51, 10],
        [90, 0],
        [331, '3F'],
        [340, '4A'],
      ]),
    );
    expect(drawing.modelSpace).toHaveLength(0);
    const paper = drawing.layouts.find((l) => !l.isModel);
    expect(paper?.blockName).toBe('*Paper_Space');
    const v = paper?.viewports[0] as EntityOf<'VIEWPORT'>;
    expect(v.center).toEqual([100, 80, 0]);
    expect([v.width, v.height, v.viewHeight, v.scale, v.twist, v.on]).toEqual([200, 100, 400, 0.25, 10, true]);
    expect(v.frozenLayers).toEqual(['3F']);
    expect(v.clipBoundaryHandle).toBe('4A');
    const t = one(
      [
        [0, 'ACAD_TABLE'],
        [100, 'AcDbBlockReference'],
        [2, '*T3'],
        [10, 4],
        [20, 5],
        [100, 'AcDbTable'],
        [91, 2],
        [92, 1],
        [141, 8],
        [141, 9],
        [142, 30],
        [171, 1],
        [1, 'Title'],
        [302, 'Title'],
        [171, 1],
        [1, 'Row 2'],
      ],
      'ACAD_TABLE',
    );
    expect([t.block, t.rows, t.columns, t.rowHeights, t.columnWidths, t.cells]).toEqual(['*T3', 2, 1, [8, 9], [30], ['Title', 'Row 2']]);
  });

  it('counts unknown entity types and never drops them', () => {
    const { drawing, warnings } = readDxf(
      entitiesDxf([
        [0, 'HELIX'],
        [8, 'X'],
        [0, 'HELIX'],
        [0, 'LINE'],
        [10, 0],
        [20, 0],
        [11, 1],
        [21, 1],
      ]),
    );
    expect(drawing.modelSpace.map((e) => e.type)).toEqual(['UNKNOWN', 'UNKNOWN', 'LINE']);
    expect(drawing.stats.unknown).toEqual({ HELIX: 2 });
    expect(warnings.join()).toContain('HELIX (2)');
  });

  it('tolerates CR line ends, CRLF, blanks around codes and values, and a missing EOF', () => {
    const text = dxfText(
      [
        [0, 'SECTION'],
        [2, 'ENTITIES'],
        [0, 'LINE'],
        [10, ' 1.5 '],
        [20, '2'],
        [11, '3'],
        [21, '4'],
      ],
      '\r',
    ).replace(/^(\d+)\r/gm, '  $1  \r');
    const { drawing, warnings } = readDxf(new TextEncoder().encode(text));
    expect((drawing.modelSpace[0] as EntityOf<'LINE'>).start).toEqual([1.5, 2, 0]);
    expect(warnings.join()).toContain('no EOF');
    const crlf = readDxf(
      new TextEncoder().encode(
        dxfText(
          [
            [0, 'SECTION'],
            [2, 'ENTITIES'],
            [0, 'POINT'],
            [10, 7],
            [20, 8],
            [0, 'ENDSEC'],
            [0, 'EOF'],
          ],
          '\r\n',
        ),
      ),
    );
    expect((crlf.drawing.modelSpace[0] as EntityOf<'POINT'>).position).toEqual([7, 8, 0]);
  });
});

describe('MTEXT caret escapes', () => {
  it('turns ^J into a paragraph break and ^I into a tab', () => {
    const { drawing } = readDxf(
      entitiesDxf([
        [0, 'MTEXT'],
        [10, 0],
        [20, 0],
        [40, 1],
        [1, 'one^Jtwo^Ithree'],
      ]),
    );
    expect((drawing.modelSpace[0] as EntityOf<'MTEXT'>).text).toBe('one\\Ptwo\tthree');
  });
});

describe('very old DXF (R2.x)', () => {
  it('reads a LINE whose groups come as 10, 11, 20, 21', () => {
    const { drawing } = readDxf(
      entitiesDxf([
        [0, 'LINE'],
        [8, '0'],
        [10, 1],
        [11, 5],
        [20, 2],
        [21, 6],
      ]),
    );
    const e = drawing.modelSpace[0] as EntityOf<'LINE'>;
    expect([e.start, e.end]).toEqual([
      [1, 2, 0],
      [5, 6, 0],
    ]);
  });
});

/**
 * Test support (not shipped behaviour): a hand-made drawing with every entity type the DWG writer
 * encodes, plus MLINE (lowered) and a custom entity (left out), in model space, two paper layouts
 * and nested, anonymous and attribute blocks. Used by the read-back and container tests.
 */
import { emptyDrawing } from '../drawing';
import type { Drawing, Entity, EntityBase, EntityOf } from '../model';

const base = (over: Partial<EntityBase> = {}): EntityBase => ({
  layer: 'WALLS',
  color: { aci: 256 },
  linetype: 'BYLAYER',
  ltscale: 1,
  lineweight: -1,
  visible: true,
  extrusion: [0, 0, 1],
  paperSpace: false,
  ...over,
});

const text = (over: Partial<EntityOf<'TEXT'>>): EntityOf<'TEXT'> => ({
  ...base(),
  type: 'TEXT',
  text: '',
  insertion: [0, 0, 0],
  height: 2.5,
  rotation: 0,
  widthFactor: 1,
  oblique: 0,
  style: 'Standard',
  halign: 0,
  valign: 0,
  generation: 0,
  ...over,
});

const polyline = (over: Partial<EntityOf<'POLYLINE'>>): EntityOf<'POLYLINE'> => ({
  ...base(),
  type: 'POLYLINE',
  kind: '2d',
  flags: 0,
  closed: false,
  elevation: 0,
  defaultStartWidth: 0,
  defaultEndWidth: 0,
  m: 0,
  n: 0,
  meshClosedN: false,
  vertices: [],
  faces: [],
  ...over,
});

const vtx = (x: number, y: number, z = 0, over: Partial<EntityOf<'POLYLINE'>['vertices'][number]> = {}): EntityOf<'POLYLINE'>['vertices'][number] => ({
  position: [x, y, z],
  bulge: 0,
  startWidth: 0,
  endWidth: 0,
  flags: 0,
  ...over,
});

/** Every entity type the writer encodes, plus three it lowers (MLINE, MULTILEADER) or leaves out (UNKNOWN). */
export function sampleDrawing(): Drawing {
  const d = emptyDrawing({ acadVersion: 'AC1032', release: 'R2018', encoding: 'utf-8', vars: { $LTSCALE: 2 }, extMin: [0, 0, 0], extMax: [200, 120, 0], insUnits: 4, ltscale: 2 });
  d.layers['0'] = { name: '0', color: { aci: 7 }, linetype: 'Continuous', lineweight: -3, on: true, frozen: false, locked: false, plot: true };
  d.layers.WALLS = { name: 'WALLS', color: { aci: 1 }, linetype: 'DASHED', lineweight: 50, on: true, frozen: false, locked: false, plot: true };
  d.layers['标注'] = { name: '标注', color: { aci: 3, rgb: 0x12ab34 }, linetype: 'Continuous', lineweight: -3, on: false, frozen: false, locked: false, plot: true };
  d.layers.FROZEN = { name: 'FROZEN', color: { aci: 140 }, linetype: 'Continuous', lineweight: 25, on: true, frozen: true, locked: true, plot: true };
  d.linetypes.DASHED = { name: 'DASHED', description: 'Dashed __ __', totalLength: 0.75, elements: [{ length: 0.5, kind: 0 }, { length: -0.25, kind: 0 }] };
  d.textStyles.HZ = { name: 'HZ', flags: 0, font: 'txt.shx', bigFont: 'hztxt.shx', fixedHeight: 0, widthFactor: 0.7, oblique: 0, generation: 0 };
  d.dimStyles.ISO = { name: 'ISO', vars: { 40: 1, 41: 3, 140: 3.5 } };
  d.blocks.DOOR = {
    name: 'DOOR',
    basePoint: [0, 0, 0],
    flags: 2,
    anonymous: false,
    xref: false,
    layer: '0',
    entities: [
      { ...base({ layer: '0' }), type: 'LINE', start: [0, 0, 0], end: [1, 0, 0] },
      text({ ...base({ layer: '0' }), type: 'ATTDEF', text: '门', insertion: [0, 1, 0], height: 0.25, tag: 'NAME', prompt: '名称', attributeFlags: 0 }),
    ],
  };
  d.blocks.NEST = { name: 'NEST', basePoint: [5, 5, 0], flags: 0, anonymous: false, xref: false, layer: '0', entities: [{ ...base({ layer: '0', color: { aci: 0 } }), type: 'INSERT', name: 'DOOR', insertion: [1, 2, 0], scale: [1, 1, 1], rotation: 0, columnCount: 1, rowCount: 1, columnSpacing: 0, rowSpacing: 0, attributes: [] }] };
  d.blocks['*D1'] = {
    name: '*D1',
    basePoint: [0, 0, 0],
    flags: 1,
    anonymous: true,
    xref: false,
    layer: '0',
    entities: [
      { ...base({ layer: '0' }), type: 'LINE', start: [100, 0, 0], end: [100, 10, 0] },
      { ...base({ layer: '0' }), type: 'LINE', start: [140, 0, 0], end: [140, 10, 0] },
      text({ ...base({ layer: '0' }), type: 'MTEXT' as never, text: '40' }),
    ].filter((e) => e.type !== ('MTEXT' as never)) as Entity[],
  };
  const m: Entity[] = [
    { ...base(), type: 'LINE', start: [1.25, 2.5, 0], end: [10.125, -3.0625, 0] },
    { ...base({ layer: 'FROZEN', linetype: 'Continuous' }), type: 'LINE', start: [0, 0, 1.5], end: [3, 4, 5] },
    { ...base({ color: { rgb: 0xff8000 } }), type: 'POINT', position: [5, 5, 0], angle: 0 },
    { ...base({ layer: '标注', color: { aci: 5 }, thickness: 2 }), type: 'CIRCLE', center: [20, 20, 0], radius: 7.5 },
    { ...base({ lineweight: 35, linetype: 'BYBLOCK' }), type: 'ARC', center: [30, 30, 0], radius: 4, startAngle: 15, endAngle: 250 },
    { ...base(), type: 'ELLIPSE', center: [50, 50, 0], majorAxis: [20, 5, 0], ratio: 0.4, startParam: 0.5, endParam: 4 },
    {
      ...base({ linetype: 'DASHED', ltscale: 0.5 }),
      type: 'LWPOLYLINE',
      vertices: [
        { x: 0, y: 0, bulge: 0, startWidth: 0, endWidth: 0 },
        { x: 10, y: 0, bulge: 0.5, startWidth: 0.5, endWidth: 1 },
        { x: 10, y: 10, bulge: 0, startWidth: 0, endWidth: 0 },
      ],
      closed: true,
      plinegen: true,
      constantWidth: 0,
      elevation: 5,
    },
    polyline({ kind: '2d', flags: 1, closed: true, elevation: 2, vertices: [vtx(0, 0, 2), vtx(5, 0, 2, { bulge: -0.4, startWidth: 0.3, endWidth: 0.3 }), vtx(5, 5, 2, { startWidth: 0.1, endWidth: 0.2 })] }),
    polyline({ kind: '3d', flags: 8, vertices: [vtx(0, 0, 0, { flags: 32 }), vtx(1, 2, 3, { flags: 32 }), vtx(4, 5, 6, { flags: 32 })] }),
    polyline({ kind: 'mesh', flags: 16, m: 2, n: 2, vertices: [vtx(0, 0, 0), vtx(1, 0, 0), vtx(0, 1, 1), vtx(1, 1, 1)] }),
    polyline({ kind: 'polyface', flags: 64, m: 4, n: 2, vertices: [vtx(0, 0, 0), vtx(1, 0, 0), vtx(1, 1, 0), vtx(0, 1, 0)], faces: [[1, 2, 3], [1, 3, -4]] }),
    {
      ...base(),
      type: 'SPLINE',
      degree: 2,
      flags: 12,
      closed: false,
      periodic: false,
      rational: true,
      knots: [0, 0, 0, 1, 1, 1],
      weights: [1, 0.7071067811865476, 1],
      controlPoints: [[0, 60, 0], [10, 70, 0], [20, 60, 0]],
      fitPoints: [],
    },
    { ...base(), type: 'SPLINE', degree: 3, flags: 8, closed: false, periodic: false, rational: false, knots: [], weights: [], controlPoints: [], fitPoints: [[0, 80, 0], [10, 85, 0], [20, 80, 0], [30, 90, 0]] },
    { ...base(), type: 'SOLID', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]] },
    { ...base(), type: 'TRACE', points: [[2, 0, 0], [3, 0, 0], [2, 1, 0], [3, 1, 0]] },
    { ...base(), type: '3DFACE', points: [[0, 0, 0], [1, 0, 1], [1, 1, 1], [0, 1, 0]], invisibleEdges: 2 },
    text({ text: '中文 text ½', insertion: [3, 4, 0], height: 2.5, rotation: 30, widthFactor: 0.8, oblique: 10, style: 'HZ' }),
    text({ text: 'centred', insertion: [60, 4, 0], alignPoint: [65, 4, 0], halign: 1, valign: 2, height: 1.5 }),
    {
      ...base(),
      type: 'MTEXT',
      text: '第一行\\P{\\H2;second} line',
      insertion: [60, 90, 0],
      height: 3,
      width: 40,
      attachment: 5,
      drawingDirection: 1,
      rotation: 45,
      style: 'Standard',
      lineSpacingFactor: 1.5,
      lineSpacingStyle: 1,
    },
    {
      ...base(),
      type: 'INSERT',
      name: 'DOOR',
      insertion: [40, 10, 0],
      scale: [2, 3, 1],
      rotation: 90,
      columnCount: 1,
      rowCount: 1,
      columnSpacing: 0,
      rowSpacing: 0,
      attributes: [text({ ...base({ layer: '0' }), type: 'ATTRIB', text: '前门', insertion: [40, 12, 0], height: 0.5, rotation: 90, tag: 'NAME', attributeFlags: 0 })],
    },
    { ...base(), type: 'INSERT', name: 'NEST', insertion: [70, 10, 0], scale: [1, 1, 1], rotation: 0, columnCount: 3, rowCount: 2, columnSpacing: 5, rowSpacing: 4, attributes: [] },
    {
      ...base(),
      type: 'DIMENSION',
      block: '*D1',
      dimType: 0,
      flags: 32,
      style: 'ISO',
      text: '',
      measurement: 40,
      defPoint: [140, 20, 0],
      textMidpoint: [120, 21, 0],
      defPoints: { p13: [100, 0, 0], p14: [140, 0, 0] },
      textRotation: 0,
      angle: 0,
      attachment: 5,
    },
    { ...base(), type: 'DIMENSION', block: '', dimType: 4, flags: 4, style: 'Standard', text: 'R<>', defPoint: [20, 20, 0], textMidpoint: [25, 25, 0], defPoints: { p15: [25.3, 25.3, 0] }, textRotation: 0, angle: 0, attachment: 5 },
    { ...base(), type: 'LEADER', vertices: [[0, 0, 0], [5, 5, 0], [10, 5, 0]], arrowhead: true, pathType: 0, style: 'Standard', annotationType: 3 },
    {
      ...base({ color: { aci: 4 } }),
      type: 'HATCH',
      pattern: 'SOLID',
      solid: true,
      associative: false,
      elevation: 0,
      paths: [
        {
          flags: 1,
          edges: [
            { kind: 'line', start: [70, 0], end: [90, 0] },
            { kind: 'arc', center: [90, 5], radius: 5, startAngle: -90, endAngle: 90, ccw: true },
            { kind: 'ellipse', center: [80, 10], majorAxis: [10, 0], ratio: 0.5, startAngle: 0, endAngle: 180, ccw: true },
            { kind: 'line', start: [70, 10], end: [70, 0] },
          ],
        },
        { flags: 2, polyline: { vertices: [{ x: 75, y: 2, bulge: 0 }, { x: 80, y: 2, bulge: 0.3 }, { x: 80, y: 6, bulge: 0 }, { x: 75, y: 6, bulge: 0 }], closed: true }, edges: [] },
      ],
      style: 0,
      patternType: 1,
      patternAngle: 0,
      patternScale: 1,
      patternDouble: false,
      patternLines: [],
    },
    {
      ...base(),
      type: 'HATCH',
      pattern: 'ANSI31',
      solid: false,
      associative: false,
      elevation: 0,
      paths: [{ flags: 3, polyline: { vertices: [{ x: 0, y: 100, bulge: 0 }, { x: 20, y: 100, bulge: 0 }, { x: 20, y: 120, bulge: 0 }], closed: true }, edges: [] }],
      style: 1,
      patternType: 1,
      patternAngle: 0,
      patternScale: 2,
      patternDouble: false,
      patternLines: [{ angle: 45, base: [0, 0], offset: [-2.2450640303, 2.2450640303], dashes: [] }],
    },
    {
      ...base(),
      type: 'HATCH',
      pattern: 'SOLID',
      solid: true,
      associative: false,
      elevation: 0,
      paths: [{ flags: 3, polyline: { vertices: [{ x: 30, y: 100, bulge: 0 }, { x: 50, y: 100, bulge: 0 }, { x: 50, y: 110, bulge: 0 }], closed: true }, edges: [] }],
      style: 0,
      patternType: 1,
      patternAngle: 0,
      patternScale: 1,
      patternDouble: false,
      patternLines: [],
      gradient: { name: 'LINEAR', colors: [{ aci: 5 }, { rgb: 0x00ff80 }], angle: 0.5, shift: 0.25, singleColor: false, tint: 0 },
    },
    { ...base(), type: 'MESH', vertices: [[0, 150, 0], [10, 150, 0], [10, 160, 5], [0, 160, 5]], faces: [[0, 1, 2, 3]], edges: [] },
    {
      ...base(),
      type: 'MULTILEADER',
      leaders: [{ lastPoint: [30, 150, 0], doglegVector: [1, 0, 0], doglegLength: 2.5, lines: [{ vertices: [[20, 140, 0]] }] }],
      text: '注释',
      textPosition: [33, 151, 0],
      textHeight: 2.5,
      contentType: 2,
      hasDogleg: true,
      leaderType: 1,
    },
    { ...base(), type: 'XLINE', base: [0, 0, 0], direction: [0.6, 0.8, 0] },
    { ...base(), type: 'RAY', base: [1, 1, 0], direction: [1, 0, 0] },
    {
      ...base(),
      type: 'IMAGE',
      insertion: [150, 0, 0],
      u: [0.1, 0, 0],
      v: [0, 0.1, 0],
      imageSize: [640, 480],
      fileName: 'photo.png',
      displayFlags: 7,
      clipping: false,
      clipType: 1,
      clipBoundary: [[-0.5, -0.5], [639.5, 479.5]],
    },
    { ...base(), type: 'WIPEOUT', insertion: [160, 60, 0], u: [10, 0, 0], v: [0, 5, 0], imageSize: [1, 1], displayFlags: 7, clipping: true, clipType: 2, clipBoundary: [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, -0.5]] },
    {
      ...base(),
      type: 'MLINE',
      style: 'Standard',
      scale: 1,
      justification: 0,
      closed: false,
      vertices: [
        { position: [0, 140, 0], direction: [1, 0, 0], miter: [0, 1, 0], params: [[0.5], [-0.5]] },
        { position: [10, 140, 0], direction: [1, 0, 0], miter: [0, 1, 0], params: [[0.5], [-0.5]] },
      ],
    },
    { ...base(), type: 'UNKNOWN', dxfType: 'TCH_WALL' },
  ];
  d.modelSpace = m;
  const vp: EntityOf<'VIEWPORT'> = {
    ...base({ layer: '0', paperSpace: true }),
    type: 'VIEWPORT',
    center: [148.5, 105, 0],
    width: 250,
    height: 180,
    id: 2,
    status: 1,
    on: true,
    viewCenter: [100, 60],
    viewTarget: [0, 0, 0],
    viewDirection: [0, 0, 1],
    viewHeight: 150,
    scale: 1.2,
    twist: 0,
    flags: 0,
    frozenLayers: [],
  };
  const paperText = text({ ...base({ layer: '0', paperSpace: true }), text: '标题栏', insertion: [10, 10, 0] });
  d.layouts = [
    { name: 'Model', tabOrder: 0, blockName: '*Model_Space', isModel: true, viewports: [] },
    { name: '布局1', tabOrder: 1, blockName: '*Paper_Space', isModel: false, entities: [vp, paperText], viewports: [vp], plot: { paperName: 'ISO_A3_(420.00_x_297.00_MM)', paperWidth: 420, paperHeight: 297 } },
    { name: 'Second', tabOrder: 2, blockName: '*Paper_Space0', isModel: false, entities: [{ ...base({ layer: '0', paperSpace: true }), type: 'CIRCLE', center: [50, 50, 0], radius: 10 }], viewports: [] },
  ];
  return d;
}


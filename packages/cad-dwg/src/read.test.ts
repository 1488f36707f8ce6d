/**
 * Entity mapping on a real DWG: ACadSharp's R2000 sample (MIT, packages/cad/test-fixtures). The
 * expected values are those AutoCAD wrote into the same drawing's DXF twin
 * (corpus dxf/acs_sample_AC1015_ascii.dxf, read by our DXF reader): DWG radians come out as DXF
 * degrees, ellipse parameters stay radians, handles are the DXF ones.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Drawing, Entity, EntityOf, EntityType } from '@xcad/cad/model';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDwgBytes } from './read';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.resolve(here, '../../cad/test-fixtures/acs_sample_AC1015.dwg');

let drawing: Drawing;
let warnings: string[];
const byHandle = new Map<string, Entity>();

beforeAll(async () => {
  ({ drawing, warnings } = await readDwgBytes(readFileSync(fixture)));
  const add = (e: Entity): void => {
    if (e.handle) byHandle.set(e.handle, e);
    if (e.type === 'INSERT') e.attributes.forEach(add);
  };
  drawing.modelSpace.forEach(add);
  for (const b of Object.values(drawing.blocks)) b.entities.forEach(add);
  for (const l of drawing.layouts) (l.entities ?? []).forEach(add);
}, 30_000);

function get<T extends EntityType>(handle: string, type: T): EntityOf<T> {
  const e = byHandle.get(handle);
  expect(e?.type, `entity ${handle}`).toBe(type);
  return e as EntityOf<T>;
}

/** Vec3/number arrays equal within 1e-9 (the DXF twin prints 16 significant digits). */
function close(actual: readonly number[] | undefined, expected: readonly number[]): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((v, i) => expect(actual?.[i]).toBeCloseTo(v, 9));
}

describe('DWG reader: entities of the ACadSharp R2000 sample', () => {
  it('reads the header, code page and the model/paper split', () => {
    expect(drawing.header.acadVersion).toBe('AC1015');
    expect(drawing.header.release).toBe('R2000');
    expect(drawing.header.codePage).toBe('ANSI_1252');
    expect(drawing.header.encoding).toBe('windows-1252');
    expect(drawing.modelSpace).toHaveLength(163);
    // Every entity of the sample is modelled now (TOLERANCE, SHAPE, solids, region, underlay).
    expect(drawing.stats.unknown).toEqual({});
    expect(warnings.join('\n')).not.toMatch(/kept as UNKNOWN/);
    // The PDF underlay with its definition's file and page.
    expect(drawing.modelSpace.find((e) => e.type === 'UNDERLAY')).toMatchObject({
      dxfType: 'PDFUNDERLAY',
      fileName: '..\\pdf-definition.pdf',
      page: '1',
    });
    // The solids and the region keep their SAT text (deciphered by LibreDWG).
    const solids = drawing.modelSpace.filter((e) => e.type === 'ACIS');
    expect(solids.map((e) => (e.type === 'ACIS' ? [e.dxfType, e.sat?.slice(0, 3)] : null))).toEqual([
      ['3DSOLID', '400'],
      ['REGION', '400'],
      ['3DSOLID', '400'],
    ]);
  });

  it('LINE, POINT, CIRCLE', () => {
    const line = get('2C7', 'LINE');
    close(line.start, [3.592533998909388, 1.477241896180196, 0]);
    close(line.end, [6.863547033979557, 1.477241896180196, 0]);
    expect(line).toMatchObject({ layer: '0', color: { aci: 256 }, linetype: 'BYLAYER', lineweight: -1, owner: '1F', paperSpace: false });
    close(get('28E', 'POINT').position, [1.494404150136851, 1.491325898678436, 0]);
    const c = get('31F', 'CIRCLE');
    close(c.center, [46.87247836145255, 6.672963963946202, 0]);
    expect(c.radius).toBeCloseTo(3.682480951587929, 9);
  });

  it('ARC angles in degrees, ELLIPSE parameters in radians', () => {
    const arc = get('320', 'ARC');
    close(arc.center, [56.35179242595231, 4.697601732518876, 0]);
    expect(arc.radius).toBeCloseTo(3.044494390598888, 9);
    expect(arc.startAngle).toBeCloseTo(341.0435453511963, 9);
    expect(arc.endAngle).toBeCloseTo(161.0435453511958, 9);
    const el = get('321', 'ELLIPSE');
    close(el.majorAxis, [-5.101255306291786, 0, 0]);
    expect(el.ratio).toBeCloseTo(0.6403727385155383, 12);
    expect(el.startParam).toBe(0);
    expect(el.endParam).toBeCloseTo(2 * Math.PI, 12);
  });

  it('LWPOLYLINE vertices, POLYLINE 3D and polyface', () => {
    const lw = get('2E2', 'LWPOLYLINE');
    expect(lw.vertices).toHaveLength(5);
    expect(lw.vertices[3]?.x).toBeCloseTo(15.3248860815288, 9);
    expect(lw.vertices[3]?.y).toBeCloseTo(3.258005193305635, 9);
    expect(lw.closed).toBe(false);
    const p3 = get('42B', 'POLYLINE');
    expect(p3.kind).toBe('3d');
    expect(p3.flags & 8).toBe(8);
    expect(p3.vertices).toHaveLength(5);
    close(p3.vertices[1]?.position, [233.4149897201259, 3.348587103918146, 5.478600204237469]);
    const pf = get('422', 'POLYLINE');
    expect(pf).toMatchObject({ kind: 'polyface', flags: 64, m: 5, n: 2 });
    expect(pf.vertices.map((v) => v.flags)).toEqual([192, 192, 192, 192, 192]);
    close(pf.vertices[3]?.position, [215.9445525612357, 12.0758781194371, 0]);
    expect(pf.faces).toEqual([
      [1, 2, 3, -4],
      [-1, 4, 5],
    ]);
  });

  it('SPLINE control points and knots; SOLID and 3DFACE corners', () => {
    const sp = get('433', 'SPLINE');
    expect(sp.degree).toBe(3);
    expect(sp.knots).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(sp.controlPoints).toHaveLength(4);
    close(sp.controlPoints[1], [254.7137711095261, 11.98610420237003, 0]);
    expect(sp.weights).toEqual([]);
    const so = get('432', 'SOLID');
    close(so.points[3], [246.0957267655701, 11.93745374404307, 0]);
    const f = get('322', '3DFACE');
    close(f.points[2], [82.19042709020432, 1.492335632750851, 0]);
    expect(f.invisibleEdges).toBe(0);
  });

  it('TEXT, MTEXT, ATTDEF and INSERT with its ATTRIB', () => {
    const t = get('3B9', 'TEXT');
    expect(t.text).toBe('Hello this is a single line text');
    expect(t.style).toBe('custom_text_style');
    close(t.insertion, [147.8194471194604, 2.854975299808756, 0]);
    expect(t.height).toBe(1);
    const m = get('3EC', 'MTEXT');
    expect(m.text).toBe('this is a Mtext\\Pwith multiple lines in it');
    expect(m).toMatchObject({ attachment: 1, drawingDirection: 5, rotation: 0, height: 1 });
    expect(m.width).toBeCloseTo(15.74141424498748, 9);
    const ins = get('704', 'INSERT');
    expect(ins.name).toBe('MyBlock');
    close(ins.scale, [0.3633736948472006, 0.3633736948472006, 0.3633736948472006]);
    expect(ins.attributes).toHaveLength(1);
    expect(ins.attributes[0]).toMatchObject({ type: 'ATTRIB', tag: 'ATTINFO', text: '17', owner: '704' });
    const def = get('6F8', 'ATTDEF');
    expect(def).toMatchObject({ tag: 'ATTINFO', prompt: 'Enter number:', text: '1', height: 5 });
    expect(drawing.blocks.MyBlock?.entities.some((e) => e.handle === '6F8')).toBe(true);
  });

  it('DIMENSION (its block, definition points, rotation in degrees) and LEADER', () => {
    const d = get('514', 'DIMENSION');
    expect(d).toMatchObject({ block: '*D3', dimType: 0, style: 'ISO-25', attachment: 5 });
    expect(d.angle).toBeCloseTo(30, 9);
    expect(d.measurement).toBeCloseTo(46.71561670814134, 9);
    close(d.defPoint, [360.3581002235253, 44.29130656278148, 0]);
    close(d.defPoints.p13 ?? [], [330.2890594765795, 2.941179455067986, 0]);
    close(d.defPoints.p14 ?? [], [364.4872644138525, 37.13938439234094, 0]);
    close(d.textMidpoint, [339.0659510877516, 34.45477396013389, 0]);
    expect(drawing.blocks['*D3']?.entities.length).toBeGreaterThan(0);
    const l = get('512', 'LEADER');
    expect(l).toMatchObject({ arrowhead: true, pathType: 0, style: 'ISO-25', annotation: '513', layer: 'Layer1' });
    close(l.vertices[0], [717.8687154323397, 2.941179455067986, 0]);
  });

  it('MULTILEADER: leader line, landing, text', () => {
    const m = get('7B8', 'MULTILEADER');
    expect(m.text).toBe('MLeader text, hello!');
    expect(m.textHeight).toBeCloseTo(0.18, 12);
    expect(m.styleHandle).toBe('D8');
    close(m.textPosition, [1083.771045165763, 23.34704741990185, 0]);
    expect(m.leaders).toHaveLength(1);
    close(m.leaders[0]?.lastPoint, [1083.321045165764, 23.23924387283501, 0]);
    close(m.leaders[0]?.lines[0]?.vertices[0], [1050.241562773277, 8.17554702864777, 0]);
  });

  it('HATCH boundary and pattern lines', () => {
    const h = get('35A', 'HATCH');
    expect(h).toMatchObject({ pattern: 'ANSI31', solid: false, associative: true, patternAngle: 0, patternScale: 1 });
    expect(h.paths).toHaveLength(1);
    expect(h.paths[0]?.edges).toHaveLength(4);
    const e0 = h.paths[0]?.edges[0];
    expect(e0?.kind).toBe('line');
    if (e0?.kind === 'line') close(e0.end, [123.1990874847903, 0.0853177934775715]);
    expect(h.patternLines[0]?.angle).toBeCloseTo(45, 9);
  });

  it('IMAGE (with its definition) and WIPEOUT', () => {
    const im = get('8C6', 'IMAGE');
    expect(im.imageSize).toEqual([994, 965]);
    expect(im.fileName).toBe('.\\image.JPG');
    expect(im.u[0]).toBeCloseTo(0.0104166666666667, 12);
    close(im.insertion, [0, 15, 0]);
    const wo = get('44D', 'WIPEOUT');
    expect(wo).toMatchObject({ clipping: true, clipType: 2, displayFlags: 7 });
    close(wo.clipBoundary[1], [0.3260511008800897, 0.492063502336059]);
  });

  it('MLINE with its style, MESH cage', () => {
    const ml = get('38B', 'MLINE');
    expect(ml).toMatchObject({ style: 'STANDARD', justification: 1, closed: false });
    expect(ml.scale).toBeCloseTo(1.5, 12);
    expect(ml.vertices).toHaveLength(8);
    expect(ml.vertices[0]?.params).toHaveLength(2);
    expect(drawing.mlineStyles?.STANDARD?.elements.map((e) => e.offset)).toEqual([0.5, -0.5]);
    const mesh = get('343', 'MESH');
    expect(mesh.vertices).toHaveLength(62);
    expect(mesh.edges).toHaveLength(132);
    expect(mesh.faces.length).toBeGreaterThan(0);
    expect(mesh.faces.every((f) => f.every((i) => i >= 0 && i < 62))).toBe(true);
  });

  it('ACAD_TABLE geometry, XLINE and RAY', () => {
    const t = get('528', 'ACAD_TABLE');
    expect(t).toMatchObject({ block: '*T9', rows: 7, columns: 3 });
    close(t.insertion, [774.8657236611278, 48.53878603809858, 0]);
    expect(t.rowHeights[0]).toBeCloseTo(7.491035367212169, 9);
    expect(t.columnWidths).toHaveLength(3);
    const x = get('389', 'XLINE');
    close(x.base, [-6.805688358374368, -5.110573038768279, 0]);
    close(x.direction, [0, 1, 0]);
    close(get('38A', 'RAY').base, [-15.4176098639582, -4.203542186472134, 0]);
  });

  it('XCLIP: the SPATIAL_FILTER of a block reference, in block coordinates as the DXF twin gives it', () => {
    // DXF twin: the rectangle (46.43, -35.99)-(49.21, -32.69) through the inverse insert matrix (scale 25.4).
    const clip = get('D2F', 'INSERT').clip;
    expect(clip?.inverted).toBe(false);
    close(
      clip?.boundary.flat(),
      [
        91.33667303435482, 28.46559553810482, 161.88236210731543, 28.46559553810482, 161.88236210731543, 112.30965829060813,
        91.33667303435482, 112.30965829060813,
      ],
    );
    // Only that one reference is clipped.
    expect([...byHandle.values()].filter((e) => e.type === 'INSERT' && e.clip)).toHaveLength(1);
  });

  it('paper-space layouts with their viewports and plot settings', () => {
    expect(drawing.layouts.map((l) => [l.name, l.blockName, l.isModel])).toEqual([
      ['Model', '*Model_Space', true],
      ['Layout1', '*Paper_Space0', false],
      ['Layout2', '*Paper_Space1', false],
      ['MyLayout', '*Paper_Space', false],
    ]);
    const vp = get('240', 'VIEWPORT');
    expect(vp).toMatchObject({ id: 1, on: true, paperSpace: true, owner: '58' });
    expect(vp.width).toBeCloseTo(24.42504922344277, 9);
    expect(vp.viewHeight).toBeCloseTo(8.99299974576695, 9);
    const model = drawing.layouts[0];
    expect(model?.plot).toMatchObject({ printer: 'none_device', paperName: 'ANSI_A_(8.50_x_11.00_Inches)', rotation: 1, plotType: 0 });
    expect(model?.plot?.paperWidth).toBeCloseTo(215.9, 4);
    expect(drawing.layouts[3]?.plot?.paperName).toBe('A4');
    expect(drawing.layouts[3]?.plot?.printer).toBe('MON-MUR-09-PRINT (HP LaserJet Pro M148fdw)');
    for (const l of drawing.layouts.slice(1)) expect(l.viewports.length).toBe(2);
  });

  it('TOLERANCE (dimension style, insertion, direction, text) and SHAPE (number, style, size)', () => {
    const t = get('822', 'TOLERANCE');
    expect(t.style).toBe('Standard');
    close(t.insertion, [214.1752393775127, -4.320437747060623, 0]);
    close(t.direction, [1, 0, 0]);
    // DWG keeps the rows' line feeds as such, DXF writes them ^J.
    expect(t.text.replace(/\r?\n/g, '^J')).toBe('{\\Fgdt;j}%%v{\\Fgdt;n}%%v%%v%%v%%v^J{\\Fgdt;d}%%v%%v%%v%%v%%v^J.5^J5');
    expect(get('823', 'TOLERANCE').text.replace(/\r?\n/g, '^J')).toBe('99^Ja');
    const shape = get('889', 'SHAPE');
    close(shape.insertion, [15.27702016657258, -20.35947110184861, 0]);
    expect(shape.size).toBeCloseTo(1, 12);
    // DWG names the shape by its number in the style's shape file (DXF by its name, MY-SHAPE).
    expect(shape.shapeNumber).toBe(1);
    expect(shape.styleHandle).toBe(Object.values(drawing.textStyles).find((st) => /test_shape\.shx$/.test(st.font))?.handle);
  });

  it('layers (on/off, frozen, locked, plot, colour, linetype, lineweight), linetypes, text styles', () => {
    const L = drawing.layers;
    expect(L.Layer_Off?.on).toBe(false);
    expect(L.Layer_Freeze?.frozen).toBe(true);
    expect(L.Layer_Lock?.locked).toBe(true);
    expect(L.Layer_NoPlot?.plot).toBe(false);
    expect(L.Defpoints?.plot).toBe(false);
    expect(L.Layer_color_80?.color).toEqual({ aci: 80 });
    expect(L.Layer_Lt_dash?.linetype).toBe('ACAD_ISO02W100');
    expect(L.Layer_lw_035?.lineweight).toBe(35);
    expect(L['0']).toMatchObject({ on: true, frozen: false, linetype: 'Continuous', lineweight: -3, color: { aci: 7 } });
    const gas = drawing.linetypes.GAS_LINE;
    expect(gas?.totalLength).toBeCloseTo(0.95, 12);
    expect(gas?.elements[1]).toMatchObject({ length: -0.2, text: 'GAS', styleHandle: '11' });
    expect(gas?.elements[1]?.scale).toBeCloseTo(0.1, 12);
    expect(drawing.textStyles.Standard).toMatchObject({ font: 'arial.ttf', fontFamily: 'Arial' });
    expect(drawing.textStyles.custom_text_style).toMatchObject({ font: 'consola.ttf', fontFamily: 'Consolas' });
  });
});

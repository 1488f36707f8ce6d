/** The counting rules the PDF -> DXF quality bar compares ours and pstoedit's DXF by. */
import { describe, expect, it } from 'vitest';
import type { Entity, EntityBase } from '../model';
import { countSegments, knotSpans, wordBoxes } from './segment-count';

const b: EntityBase = {
  layer: '0',
  color: { aci: 256 },
  linetype: 'BYLAYER',
  ltscale: 1,
  lineweight: -1,
  visible: true,
  extrusion: [0, 0, 1],
  paperSpace: false,
};
const line = (x0: number, y0: number, x1: number, y1: number): Entity => ({ ...b, type: 'LINE', start: [x0, y0, 0], end: [x1, y1, 0] });

describe('countSegments', () => {
  it('counts straight edges, Bezier spans and text items entity by entity', () => {
    const entities: Entity[] = [
      line(0, 0, 10, 0),
      {
        ...b,
        type: 'LWPOLYLINE',
        vertices: [
          { x: 0, y: 0, bulge: 0, startWidth: 0, endWidth: 0 },
          { x: 10, y: 0, bulge: 0.5, startWidth: 0, endWidth: 0 },
          { x: 10, y: 10, bulge: 0, startWidth: 0, endWidth: 0 },
        ],
        closed: true,
        plinegen: false,
        constantWidth: 0,
        elevation: 0,
      },
      // A triangle: the third corner twice.
      {
        ...b,
        type: 'SOLID',
        points: [
          [0, 0, 0],
          [5, 0, 0],
          [0, 5, 0],
          [0, 5, 0],
        ],
      },
      {
        ...b,
        type: 'SPLINE',
        degree: 3,
        flags: 8,
        closed: false,
        periodic: false,
        rational: false,
        knots: [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2],
        weights: [],
        controlPoints: [],
        fitPoints: [],
      },
      { ...b, type: 'ARC', center: [0, 0, 0], radius: 1, startAngle: 0, endAngle: 90 },
      {
        ...b,
        type: 'HATCH',
        pattern: 'SOLID',
        solid: true,
        associative: false,
        elevation: 0,
        paths: [
          {
            flags: 3,
            polyline: {
              vertices: [
                { x: 0, y: 0, bulge: 0 },
                { x: 1, y: 0, bulge: 0 },
                { x: 1, y: 1, bulge: 0 },
              ],
              closed: true,
            },
            edges: [],
          },
          {
            flags: 1,
            edges: [
              {
                kind: 'spline',
                degree: 3,
                rational: false,
                periodic: false,
                knots: [0, 0, 0, 0, 1, 1, 1, 1],
                controlPoints: [
                  [0, 0],
                  [1, 1],
                  [2, 1],
                  [3, 0],
                ],
                weights: [],
                fitPoints: [],
              },
              { kind: 'line', start: [3, 0], end: [0, 0] },
            ],
          },
        ],
        style: 0,
        patternType: 1,
        patternAngle: 0,
        patternScale: 1,
        patternDouble: false,
        patternLines: [],
      },
      {
        ...b,
        type: 'TEXT',
        text: 'A',
        insertion: [0, 0, 0],
        height: 1,
        rotation: 0,
        widthFactor: 1,
        oblique: 0,
        style: 'Standard',
        halign: 0,
        valign: 0,
        generation: 0,
      },
      {
        ...b,
        type: 'MTEXT',
        text: 'B',
        insertion: [0, 0, 0],
        height: 1,
        width: 0,
        attachment: 1,
        drawingDirection: 1,
        rotation: 0,
        style: 'Standard',
        lineSpacingFactor: 1,
        lineSpacingStyle: 1,
      },
    ];
    // Lines: LINE 1, polyline 2 (its bulged edge is a curve), SOLID 3, hatch 3 + 1.
    expect(countSegments(entities)).toEqual({
      lines: 1 + 2 + 3 + 4,
      curves: 1 + 2 + 1 + 1,
      texts: 2,
      glyphOutlines: 0,
      pageBorder: 0,
      zeroLength: 0,
    });
    expect(knotSpans([0, 0, 0, 0, 1, 1, 1, 1])).toBe(1);
  });

  it('leaves out glyph outlines inside a word box, the page border and zero-length segments, on any DXF alike', () => {
    const page = { x0: 0, y0: 0, x1: 100, y1: 50 };
    const entities = [
      line(0, 0, 100, 0),
      line(100, 0, 100, 50),
      line(20, 20, 21, 22),
      line(20, 20, 40, 20),
      line(5, 5, 5.0000001, 5),
      line(10, 10, 90, 40),
    ];
    const c = countSegments(entities, { page, words: [{ x0: 19, y0: 19, x1: 23, y1: 23 }] });
    expect(c).toEqual({ lines: 2, curves: 0, texts: 0, glyphOutlines: 1, pageBorder: 2, zeroLength: 1 });
  });
});

describe('wordBoxes', () => {
  it('reads pdftotext -bbox words as boxes in millimetres, y up, grown by half their height', () => {
    const xhtml =
      '<doc><page width="72.000000" height="144.000000"><word xMin="10.000000" yMin="20.000000" xMax="30.000000" yMax="30.000000">Hi</word></page></doc>';
    const r = wordBoxes(xhtml);
    const K = 25.4 / 72;
    expect(r?.page).toEqual({ x0: 0, y0: 0, x1: 72 * K, y1: 144 * K });
    const w = r?.words[0];
    // Height 10 pt: 5 pt more on every side; y flips (144 - 30 = 114 at the bottom).
    expect(w?.x0).toBeCloseTo(5 * K, 9);
    expect(w?.x1).toBeCloseTo(35 * K, 9);
    expect(w?.y0).toBeCloseTo(109 * K, 9);
    expect(w?.y1).toBeCloseTo(129 * K, 9);
    expect(wordBoxes(xhtml, 1)).toBeNull();
  });
});

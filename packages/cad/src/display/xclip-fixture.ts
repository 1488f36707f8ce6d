/**
 * A hand-made XCLIP drawing for the tests of the engine (render/xclip.test.ts) and of the
 * browser viewer: every number a test checks is known exactly. Not used by the engine itself.
 */
import { dxfText } from '../dxf/test-helpers';

type G = [number, string | number][];

export interface ClipOptions {
  /** No extension dictionary at all: the plain block reference. */
  noFilter?: boolean;
  /** The XCLIP was inverted: the block hidden inside the boundary. */
  inverted?: boolean;
  /** Group 71 (XCLIP ON/OFF); default on. */
  enabled?: boolean;
  /** $XCLIPFRAME. */
  frame?: number;
  /** INSERT rotation in degrees (the filter's inverse matrix follows it). */
  rotation?: number;
  /** Leave out the frame polyline around the block. */
  noFrame?: boolean;
  /** ACI colour of block B's own lines and fill (default ByLayer: layer 0's white/black). */
  color?: number;
}

/** 3×4 row-major inverse of "rotate by `deg`, then move to (tx, ty)" as twelve 40 groups. */
function inverseGroups(tx: number, ty: number, deg: number): G {
  const c = Math.cos((deg * Math.PI) / 180),
    s = Math.sin((deg * Math.PI) / 180);
  // R^T · (p - t)
  const m = [c, s, 0, -(c * tx + s * ty), -s, c, 0, s * tx - c * ty, 0, 0, 1, 0];
  return m.map((v): [number, string | number] => [40, v]);
}

/**
 * Block B (base point 0,0): a horizontal line y = 5 from x = 0 to 20, a vertical line x = 10 from
 * y = 0 to 20, a filled SOLID square 14..18 × 14..18, and a nested insert of block C (a diagonal
 * (0,0)–(20,20)). B is inserted at (100, 0); its XCLIP rectangle was picked at WCS (102, 2)–(112,
 * 12), i.e. block coordinates 2..12 × 2..12. A frame (90, -10)–(130, 30) outside the block fixes
 * the extents of the picture.
 */
export function xclipDxf(o: ClipOptions = {}): Uint8Array {
  const rot = o.rotation ?? 0;
  const g: G = [
    [0, 'SECTION'],
    [2, 'HEADER'],
    [9, '$ACADVER'],
    [1, 'AC1027'],
  ];
  if (o.frame !== undefined) g.push([9, '$XCLIPFRAME'], [280, o.frame]);
  g.push([0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'BLOCKS']);
  g.push([0, 'BLOCK'], [5, '20'], [8, '0'], [2, 'C'], [70, 0], [10, 0], [20, 0], [30, 0], [3, 'C']);
  g.push([0, 'LINE'], [5, '21'], [8, '0'], [10, 0], [20, 0], [30, 0], [11, 20], [21, 20], [31, 0]);
  g.push([0, 'ENDBLK'], [5, '22'], [8, '0']);
  g.push([0, 'BLOCK'], [5, '30'], [8, '0'], [2, 'B'], [70, 0], [10, 0], [20, 0], [30, 0], [3, 'B']);
  const color: G = o.color === undefined ? [] : [[62, o.color]];
  g.push([0, 'LINE'], [5, '31'], [8, '0'], ...color, [10, 0], [20, 5], [30, 0], [11, 20], [21, 5], [31, 0]);
  g.push([0, 'LINE'], [5, '32'], [8, '0'], ...color, [10, 10], [20, 0], [30, 0], [11, 10], [21, 20], [31, 0]);
  g.push(
    [0, 'SOLID'],
    [5, '33'],
    [8, '0'],
    ...color,
    [10, 14],
    [20, 14],
    [30, 0],
    [11, 18],
    [21, 14],
    [31, 0],
    [12, 14],
    [22, 18],
    [32, 0],
    [13, 18],
    [23, 18],
    [33, 0],
  );
  g.push([0, 'INSERT'], [5, '34'], [8, '0'], [2, 'C'], [10, 0], [20, 0], [30, 0]);
  g.push([0, 'ENDBLK'], [5, '35'], [8, '0']);
  g.push([0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'ENTITIES']);
  g.push([0, 'INSERT'], [5, '40']);
  if (!o.noFilter) g.push([102, '{ACAD_XDICTIONARY'], [360, '41'], [102, '}']);
  g.push([100, 'AcDbEntity'], [8, '0'], [100, 'AcDbBlockReference'], [2, 'B'], [10, 100], [20, 0], [30, 0], [50, rot]);
  if (!o.noFrame)
    g.push(
      [0, 'LWPOLYLINE'],
      [5, '50'],
      [8, '0'],
      [90, 4],
      [70, 1],
      [10, 90],
      [20, -10],
      [10, 130],
      [20, -10],
      [10, 130],
      [20, 30],
      [10, 90],
      [20, 30],
    );
  g.push([0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'OBJECTS']);
  g.push([0, 'DICTIONARY'], [5, '41'], [330, '40'], [100, 'AcDbDictionary'], [280, 1], [281, 1], [3, 'ACAD_FILTER'], [360, '42']);
  g.push([0, 'DICTIONARY'], [5, '42'], [330, '41'], [100, 'AcDbDictionary'], [280, 1], [281, 1], [3, 'SPATIAL'], [360, '43']);
  // The boundary is picked in WCS; for a rotated reference, a rectangle around the rotated block's
  // point (102, 2) in block coordinates is given by its WCS corners.
  const [c0, c1] = rot
    ? [
        [95, 2],
        [105, 12],
      ]
    : [
        [102, 2],
        [112, 12],
      ];
  g.push([0, 'SPATIAL_FILTER'], [5, '43']);
  if (o.inverted) g.push([102, '{ACAD_XDICTIONARY'], [360, '44'], [102, '}']);
  g.push([102, '{ACAD_REACTORS'], [330, '42'], [102, '}'], [330, '42'], [100, 'AcDbFilter'], [100, 'AcDbSpatialFilter']);
  if (o.inverted) {
    // The filter itself holds the "compare" path (an outer frame around the hole); the hole is in the XRECORD.
    g.push([70, 4], [10, 101], [20, 1], [10, 121], [20, 1], [10, 121], [20, 21], [10, 101], [20, 21]);
  } else g.push([70, 2], [10, c0![0]!], [20, c0![1]!], [10, c1![0]!], [20, c1![1]!]);
  g.push([210, 0], [220, 0], [230, 1], [11, 0], [21, 0], [31, 0], [71, o.enabled === false ? 0 : 1], [72, 0], [73, 0]);
  g.push(...inverseGroups(100, 0, rot), ...inverseGroups(0, 0, 0));
  if (o.inverted) {
    g.push([0, 'DICTIONARY'], [5, '44'], [330, '43'], [100, 'AcDbDictionary'], [280, 1], [281, 1], [3, 'ACAD_XREC_ROUNDTRIP'], [360, '45']);
    g.push([0, 'XRECORD'], [5, '45'], [102, '{ACAD_REACTORS'], [330, '44'], [102, '}'], [330, '44'], [100, 'AcDbXrecord'], [280, 1]);
    g.push([102, 'ACAD_INVERTEDCLIP_ROUNDTRIP'], [10, 102], [20, 2], [30, 0], [10, 112], [20, 12], [30, 0]);
    g.push(
      [102, 'ACAD_INVERTEDCLIP_ROUNDTRIP_COMPARE'],
      [10, 101],
      [20, 1],
      [30, 0],
      [10, 121],
      [20, 1],
      [30, 0],
      [10, 121],
      [20, 21],
      [30, 0],
    );
  }
  g.push([0, 'ENDSEC'], [0, 'EOF']);
  return new TextEncoder().encode(dxfText(g));
}

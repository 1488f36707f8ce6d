// Hand-made drawings for the viewer's tests (unit and browser): small DXF files written here, so
// every number a test checks is known exactly. Not used by the site itself.

function groups(pairs: readonly (readonly [number, string | number])[]): string {
  return pairs.map(([code, value]) => `${String(code).padStart(3, ' ')}\r\n${value}\r\n`).join('');
}

interface HandMadeLayer {
  name: string;
  /** ACI colour. */
  color: number;
}

/**
 * A metric (millimetre, $INSUNITS 4) drawing on a white/black background:
 * - layer WALLS (red): a LINE from (100, 100) to (400, 500), 500 mm long, and a closed square
 *   LWPOLYLINE 0..1000 with a 0.70 mm lineweight;
 * - layer FILL (blue): a solid HATCH over the square (200, 600)..(400, 800);
 * - layer NOTES (green): a TEXT 'XCAD 500' 40 mm high at (550, 150), and a LINE from (600, 300) to (900, 300).
 */
export function handMadeDxf(): string {
  const layers: HandMadeLayer[] = [
    { name: '0', color: 7 },
    { name: 'WALLS', color: 1 },
    { name: 'FILL', color: 5 },
    { name: 'NOTES', color: 3 },
  ];
  const header = groups([
    [0, 'SECTION'],
    [2, 'HEADER'],
    [9, '$ACADVER'],
    [1, 'AC1015'],
    [9, '$INSUNITS'],
    [70, 4],
    [9, '$EXTMIN'],
    [10, 0],
    [20, 0],
    [30, 0],
    [9, '$EXTMAX'],
    [10, 1000],
    [20, 1000],
    [30, 0],
    [0, 'ENDSEC'],
  ]);
  const tables = groups([
    [0, 'SECTION'],
    [2, 'TABLES'],
    [0, 'TABLE'],
    [2, 'LTYPE'],
    [70, 1],
    [0, 'LTYPE'],
    [2, 'CONTINUOUS'],
    [70, 0],
    [3, 'Solid line'],
    [72, 65],
    [73, 0],
    [40, 0],
    [0, 'ENDTAB'],
    [0, 'TABLE'],
    [2, 'LAYER'],
    [70, layers.length],
    ...layers.flatMap(
      (l) =>
        [
          [0, 'LAYER'],
          [2, l.name],
          [70, 0],
          [62, l.color],
          [6, 'CONTINUOUS'],
          [370, -3],
        ] as const,
    ),
    [0, 'ENDTAB'],
    [0, 'ENDSEC'],
  ]);
  const entities = groups([
    [0, 'SECTION'],
    [2, 'ENTITIES'],
    [0, 'LINE'],
    [8, 'WALLS'],
    [10, 100],
    [20, 100],
    [30, 0],
    [11, 400],
    [21, 500],
    [31, 0],
    [0, 'LWPOLYLINE'],
    [8, 'WALLS'],
    [370, 70],
    [90, 4],
    [70, 1],
    [10, 0],
    [20, 0],
    [10, 1000],
    [20, 0],
    [10, 1000],
    [20, 1000],
    [10, 0],
    [20, 1000],
    [0, 'HATCH'],
    [8, 'FILL'],
    [10, 0],
    [20, 0],
    [30, 0],
    [210, 0],
    [220, 0],
    [230, 1],
    [2, 'SOLID'],
    [70, 1],
    [71, 0],
    [91, 1],
    [92, 3],
    [72, 0],
    [73, 1],
    [93, 4],
    [10, 200],
    [20, 600],
    [10, 400],
    [20, 600],
    [10, 400],
    [20, 800],
    [10, 200],
    [20, 800],
    [97, 0],
    [75, 0],
    [76, 1],
    [98, 0],
    [0, 'TEXT'],
    [8, 'NOTES'],
    [10, 550],
    [20, 150],
    [30, 0],
    [40, 40],
    [1, 'XCAD 500'],
    [0, 'LINE'],
    [8, 'NOTES'],
    [10, 600],
    [20, 300],
    [30, 0],
    [11, 900],
    [21, 300],
    [31, 0],
    [0, 'ENDSEC'],
  ]);
  return header + tables + entities + groups([[0, 'EOF']]);
}

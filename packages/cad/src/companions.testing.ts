/**
 * A drawing sent with what it refers to (test fixture): `host` attaches the xref C:\图纸\site.dwg
 * at (0, 5) and shows the picture D:\logo.png (8 x 8 pixels, 8 x 8 units at (0, 10)); `site` is the
 * referenced drawing (a line on WALLS); `logo` the picture (solid red PNG).
 */
import { dxfText } from './dxf/test-helpers';
import { solidPng } from './codec/png';

type G = [number, string | number][];

const line = (x: number): G => [
  [0, 'LINE'],
  [8, 'WALLS'],
  [10, x],
  [20, 0],
  [30, 0],
  [11, x + 10],
  [21, 0],
  [31, 0],
];

export const COMPANION_XREF_PATH = 'C:\\图纸\\site.dwg';
export const COMPANION_PICTURE_PATH = 'D:\\logo.png';

export function companionFixture(): { host: Uint8Array; site: Uint8Array; logo: Uint8Array } {
  const enc = (g: G) => new TextEncoder().encode(dxfText(g));
  const section = (name: string, body: G): G => [[0, 'SECTION'], [2, name], ...body, [0, 'ENDSEC']];
  const xref: G = [
    [0, 'BLOCK'],
    [8, '0'],
    [2, 'SITE'],
    [70, 4],
    [10, 0],
    [20, 0],
    [30, 0],
    [3, 'SITE'],
    [1, COMPANION_XREF_PATH],
    [0, 'ENDBLK'],
    [8, '0'],
  ];
  const image: G = [
    [0, 'IMAGE'],
    [8, '0'],
    [10, 0],
    [20, 10],
    [30, 0],
    [11, 1],
    [21, 0],
    [31, 0],
    [12, 0],
    [22, 1],
    [32, 0],
    [13, 8],
    [23, 8],
    [340, 'A1'],
  ];
  const insert: G = [
    [0, 'INSERT'],
    [8, '0'],
    [2, 'SITE'],
    [10, 0],
    [20, 5],
    [30, 0],
  ];
  return {
    host: enc([
      ...section('BLOCKS', xref),
      ...section('ENTITIES', [...line(-20), ...insert, ...image]),
      ...section('OBJECTS', [
        [0, 'IMAGEDEF'],
        [5, 'A1'],
        [1, COMPANION_PICTURE_PATH],
      ]),
      [0, 'EOF'],
    ]),
    site: enc([...section('ENTITIES', line(0)), [0, 'EOF']]),
    logo: new Uint8Array(solidPng(8, [200, 30, 30])),
  };
}

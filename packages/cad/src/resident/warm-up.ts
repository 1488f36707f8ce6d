/**
 * What the resident engine does before it takes commands: one small drawing converted to PDF,
 * PNG and SVG, so that the reader, the display-list builder, the text layout and each back end
 * are loaded and compiled before the first real command rather than during it.
 */
import { convertDrawing } from '../convert';

const groups: [number, string | number][] = [
  [0, 'SECTION'], [2, 'ENTITIES'],
  [0, 'LINE'], [8, '0'], [10, 0], [20, 0], [30, 0], [11, 100], [21, 50], [31, 0],
  [0, 'CIRCLE'], [8, '0'], [62, 1], [10, 50], [20, 25], [30, 0], [40, 20],
  [0, 'ARC'], [8, '0'], [10, 20], [20, 40], [30, 0], [40, 10], [50, 0], [51, 135],
  [0, 'LWPOLYLINE'], [8, '0'], [90, 4], [70, 1], [10, 0], [20, 60], [42, 0.5], [10, 40], [20, 60], [10, 40], [20, 80], [10, 0], [20, 80],
  [0, 'TEXT'], [8, '0'], [10, 5], [20, 5], [30, 0], [40, 4], [1, 'Plan 1:100 平面图'],
  [0, 'MTEXT'], [8, '0'], [10, 60], [20, 90], [30, 0], [40, 3], [41, 40], [71, 1], [1, '{\\fArial|b1;Title}\\P2.5\\S1/2;'],
  [0, 'HATCH'], [8, '0'], [62, 3], [10, 0], [20, 0], [30, 0], [2, 'SOLID'], [70, 1], [71, 0], [91, 1],
  [92, 2], [72, 0], [73, 1], [93, 3], [10, 70], [20, 0], [10, 100], [20, 0], [10, 100], [20, 30], [97, 0],
  [75, 0], [76, 1], [98, 0],
  [0, 'ENDSEC'], [0, 'EOF'],
];

const WARM_DRAWING = new TextEncoder().encode(groups.map(([c, v]) => `${c}\n${v}\n`).join(''));

export async function warmUp(): Promise<void> {
  for (const format of ['pdf', 'png', 'svg'] as const) {
    try {
      await convertDrawing(WARM_DRAWING, { format, name: 'warm-up.dxf', ...(format === 'png' ? { width: 256 } : {}) });
    } catch {
      // A back end that cannot run here fails the same way for real commands, and says so there.
    }
  }
}

import { describe, expect, it } from 'vitest';
import { fitView, panBy, pinchView, toScene, toScreen, visibleBox, wheelFactor, windowZoom, zoomAt, resizeView, MAX_ZOOM_IN } from './view';

const close = (a: readonly number[], b: readonly number[]) => a.forEach((v, i) => expect(v).toBeCloseTo(b[i] as number, 6));

describe('view', () => {
  const box = { minX: 100, minY: 50, maxX: 300, maxY: 150 };

  it('fits a box centred with a margin, the limiting side filling the canvas', () => {
    const v = fitView(box, 1000, 1000, 0);
    expect(v.scale).toBe(5);
    close(toScreen(v, 100, 100), [0, 500]);
    close(toScreen(v, 300, 150), [1000, 250]);
    const vb = visibleBox(v);
    close([vb.minX, vb.maxX], [100, 300]);
  });

  it('keeps the point under the cursor in place when zooming', () => {
    const v = fitView(box, 800, 600);
    const before = toScene(v, 123, 456);
    const z = zoomAt(v, 3.7, 123, 456);
    close(toScene(z, 123, 456), before);
    expect(z.scale).toBeCloseTo(v.scale * 3.7, 9);
  });

  it('stops zooming at the limits relative to the fitted view', () => {
    const v = fitView(box, 800, 600);
    const far = zoomAt(v, 1e12, 400, 300, v.scale);
    expect(far.scale).toBeCloseTo(v.scale * MAX_ZOOM_IN, 3);
  });

  it('pans with the pointer', () => {
    const v = fitView(box, 800, 600);
    const p = panBy(v, 40, -20);
    close(toScreen(p, 200, 100), [toScreen(v, 200, 100)[0] + 40, toScreen(v, 200, 100)[1] - 20]);
  });

  it('turns wheel deltas into zoom factors: down zooms out, lines and pixels alike', () => {
    expect(wheelFactor(-100, 0)).toBeCloseTo(1.25, 9);
    expect(wheelFactor(100, 0)).toBeCloseTo(0.8, 9);
    expect(wheelFactor(-3, 1)).toBeCloseTo(wheelFactor(-99, 0), 9);
  });

  it('window zoom shows the dragged rectangle', () => {
    const v = fitView(box, 800, 600, 0);
    const w = windowZoom(v, 100, 100, 300, 200);
    const [ax, ay] = toScene(v, 100, 100);
    const [bx, by] = toScene(v, 300, 200);
    const vb = visibleBox(w);
    expect(vb.minX).toBeLessThanOrEqual(Math.min(ax, bx) + 1e-9);
    expect(vb.maxX).toBeGreaterThanOrEqual(Math.max(ax, bx) - 1e-9);
    expect(vb.minY).toBeLessThanOrEqual(Math.min(ay, by) + 1e-9);
    expect(vb.maxY).toBeGreaterThanOrEqual(Math.max(ay, by) - 1e-9);
    expect(w.scale).toBeCloseTo(v.scale * 4, 9);
  });

  it('pinch keeps the scene points under both fingers', () => {
    const v = fitView(box, 750, 1300);
    const from = { ax: 200, ay: 600, bx: 400, by: 700 };
    const to = { ax: 150, ay: 500, bx: 550, by: 700 };
    const p = pinchView(v, from, to);
    close(toScreen(p, ...toScene(v, from.ax, from.ay)), [to.ax, to.ay]);
    close(toScreen(p, ...toScene(v, from.bx, from.by)), [to.bx, to.by]);
  });

  it('keeps the centre and what fits when the canvas is resized', () => {
    const v = fitView(box, 800, 600);
    const r = resizeView(v, 400, 600);
    expect([r.cx, r.cy]).toEqual([v.cx, v.cy]);
    expect(r.scale).toBeCloseTo(v.scale / 2, 9);
  });
});

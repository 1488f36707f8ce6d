import { describe, expect, it } from 'vitest';
import { centredPopupFeatures, easeInOutCubic, scrollOffsetAt } from './scroll';

describe('back-to-top animation', () => {
  it('starts at the current offset and ends at the top after the duration', () => {
    expect(scrollOffsetAt(600, 0, 1000)).toBe(600);
    expect(scrollOffsetAt(600, 1000, 1000)).toBe(0);
    expect(scrollOffsetAt(600, 1500, 1000)).toBe(0);
  });

  it('is halfway at half time and moves slowly at both ends', () => {
    expect(scrollOffsetAt(600, 500, 1000)).toBe(300);
    expect(600 - scrollOffsetAt(600, 100, 1000)).toBeLessThan(10);
    expect(scrollOffsetAt(600, 900, 1000)).toBeLessThan(10);
  });

  it('never moves backwards', () => {
    let previous = Number.POSITIVE_INFINITY;
    for (let t = 0; t <= 1000; t += 50) {
      const offset = scrollOffsetAt(2000, t, 1000);
      expect(offset).toBeLessThanOrEqual(previous);
      previous = offset;
    }
    expect(easeInOutCubic(-1)).toBe(0);
    expect(easeInOutCubic(2)).toBe(1);
  });
});

describe('chat popup', () => {
  it('is 620x700 and centred over the opening window', () => {
    const features = centredPopupFeatures({
      width: 620,
      height: 700,
      screenX: 100,
      screenY: 50,
      outerWidth: 1440,
      outerHeight: 900,
    });
    expect(features).toContain('width=620');
    expect(features).toContain('height=700');
    expect(features).toContain('left=510');
    expect(features).toContain('top=150');
  });

  it('stays on screen when the window is smaller than the popup', () => {
    const features = centredPopupFeatures({ width: 620, height: 700, screenX: 0, screenY: 0, outerWidth: 400, outerHeight: 500 });
    expect(features).toContain('left=0');
    expect(features).toContain('top=0');
  });
});

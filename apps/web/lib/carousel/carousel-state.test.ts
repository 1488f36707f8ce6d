import { afterEach, describe, expect, it, vi } from 'vitest';
import { canGoNext, canGoPrev, carouselReducer, initCarouselState, resolveCarouselOptions, shouldAutoplay } from './carousel-state';
import type { CarouselAction, CarouselState } from './carousel-state';

function run(state: CarouselState, ...actions: CarouselAction[]): CarouselState {
  return actions.reduce(carouselReducer, state);
}

const tick: CarouselAction = { type: 'tick' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('carousel state', () => {
  it('starts at index 0 with the defaults of spec §9', () => {
    const state = initCarouselState(3);
    expect(state.index).toBe(0);
    expect(state.loop).toBe(true);
    expect(state.throttleMs).toBe(300);
    expect(shouldAutoplay(state, true)).toBe(true);
  });

  it('keeps a default when an option is passed as undefined', () => {
    expect(resolveCarouselOptions({ loop: undefined, intervalMs: 5000 })).toMatchObject({ loop: true, intervalMs: 5000, autoplay: true });
  });

  it('advances one slide per timer tick', () => {
    const state = run(initCarouselState(4), tick, tick);
    expect(state.index).toBe(2);
  });

  it('wraps from the last slide to the first when looping', () => {
    const state = run(initCarouselState(3), tick, tick, tick);
    expect(state.index).toBe(0);
  });

  it('stops at the last slide when not looping, and the timer stops too', () => {
    const state = run(initCarouselState(3, { loop: false }), tick, tick, tick, tick);
    expect(state.index).toBe(2);
    expect(shouldAutoplay(state, true)).toBe(false);
    expect(canGoNext(state)).toBe(false);
    expect(canGoPrev(state)).toBe(true);
  });

  it('does not advance while the pointer is over it, and resumes after', () => {
    const hovered = run(initCarouselState(3), { type: 'hover', isHovered: true }, tick, tick);
    expect(hovered.index).toBe(0);
    expect(shouldAutoplay(hovered, true)).toBe(false);
    const left = run(hovered, { type: 'hover', isHovered: false }, tick);
    expect(left.index).toBe(1);
  });

  it('never autoplays when autoplay is off or there is one slide', () => {
    expect(shouldAutoplay(initCarouselState(3), false)).toBe(false);
    expect(run(initCarouselState(1), tick).index).toBe(0);
  });

  it('starts at a valid integer initial index, clamped to the slides', () => {
    expect(initCarouselState(4, { initialIndex: 2 }).index).toBe(2);
    expect(initCarouselState(4, { initialIndex: 9 }).index).toBe(3);
  });

  it('warns and starts at 0 when the initial index is not an integer (spec §5)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const state = initCarouselState(4, { initialIndex: 1.5 });
    expect(state.index).toBe(0);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('integer');
  });

  it('warns and ignores a non-integer target index', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const state = run(initCarouselState(4), { type: 'goTo', index: Number.NaN, now: 1000 });
    expect(state.index).toBe(0);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('goes back and forth with the arrows, wrapping when looping', () => {
    const start = initCarouselState(3);
    expect(run(start, { type: 'prev', now: 1000 }).index).toBe(2);
    expect(run(start, { type: 'next', now: 1000 }).index).toBe(1);
    expect(run(initCarouselState(3, { loop: false }), { type: 'prev', now: 1000 }).index).toBe(0);
  });

  it('ignores arrow and indicator changes within 300 ms of the last one', () => {
    const state = run(
      initCarouselState(5),
      { type: 'next', now: 1000 },
      { type: 'next', now: 1299 },
      { type: 'goTo', index: 4, now: 1150 },
    );
    expect(state.index).toBe(1);
    const later = run(state, { type: 'next', now: 1300 }, { type: 'goTo', index: 4, now: 1600 });
    expect(later.index).toBe(4);
  });

  it('does not throttle the timer', () => {
    const state = run(initCarouselState(4), { type: 'next', now: 1000 }, tick);
    expect(state.index).toBe(2);
  });

  it('keeps the index within the slides when their number shrinks', () => {
    const state = run(initCarouselState(5, { initialIndex: 4 }), { type: 'resize', count: 2 });
    expect(state.index).toBe(1);
  });
});

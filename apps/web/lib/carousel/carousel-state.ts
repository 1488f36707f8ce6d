import { CAROUSEL_DEFAULTS } from '@xcad/protocol';
import type { CarouselOptions } from '@xcad/protocol';

// The carousel widget's state machine (spec §4 "Carousel widget", defaults of spec §9), pure so
// the timing rules are unit-tested; components/ui/carousel.tsx only wires timers and events to it.

export interface CarouselState {
  readonly index: number;
  readonly count: number;
  readonly loop: boolean;
  /** True while the pointer is over the carousel: the timer does not advance it (spec §4). */
  readonly isHovered: boolean;
  /** Minimum time between two changes made by arrows or indicators. */
  readonly throttleMs: number;
  /** When the last arrow or indicator change was accepted, in ms; null before the first. */
  readonly lastUserChangeAt: number | null;
}

export type CarouselAction =
  | { readonly type: 'tick' }
  | { readonly type: 'next'; readonly now: number }
  | { readonly type: 'prev'; readonly now: number }
  | { readonly type: 'goTo'; readonly index: number; readonly now: number }
  | { readonly type: 'hover'; readonly isHovered: boolean }
  | { readonly type: 'resize'; readonly count: number };

/** spec §5: a carousel index must be an integer; anything else is reported and not used. */
function isValidIndex(index: number, source: string): boolean {
  if (Number.isInteger(index)) return true;
  console.warn(`[carousel] ${source} must be an integer, got ${String(index)}`);
  return false;
}

function clampIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return Math.min(Math.max(index, 0), count - 1);
}

/** spec §9 defaults, overridden by every option that is given (an explicit `undefined` is not given). */
export function resolveCarouselOptions(options: Partial<CarouselOptions> = {}): CarouselOptions {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return { ...CAROUSEL_DEFAULTS, ...given };
}

export function initCarouselState(count: number, options: Partial<CarouselOptions> = {}): CarouselState {
  const resolved = resolveCarouselOptions(options);
  const initial = isValidIndex(resolved.initialIndex, 'initialIndex') ? resolved.initialIndex : CAROUSEL_DEFAULTS.initialIndex;
  return {
    index: clampIndex(initial, count),
    count,
    loop: resolved.loop,
    isHovered: false,
    throttleMs: resolved.throttleMs,
    lastUserChangeAt: null,
  };
}

/** The index one step away, wrapping when looping, staying at the edge otherwise. */
function stepped(state: CarouselState, step: 1 | -1): number {
  const target = state.index + step;
  if (target >= 0 && target < state.count) return target;
  if (!state.loop) return state.index;
  return (target + state.count) % state.count;
}

function isThrottled(state: CarouselState, now: number): boolean {
  return state.lastUserChangeAt !== null && now - state.lastUserChangeAt < state.throttleMs;
}

function userChange(state: CarouselState, index: number, now: number): CarouselState {
  if (isThrottled(state, now) || index === state.index) return state;
  return { ...state, index, lastUserChangeAt: now };
}

export function carouselReducer(state: CarouselState, action: CarouselAction): CarouselState {
  switch (action.type) {
    case 'tick': {
      if (state.isHovered || state.count < 2) return state;
      const index = stepped(state, 1);
      return index === state.index ? state : { ...state, index };
    }
    case 'next':
      return userChange(state, stepped(state, 1), action.now);
    case 'prev':
      return userChange(state, stepped(state, -1), action.now);
    case 'goTo':
      if (!isValidIndex(action.index, 'index')) return state;
      return userChange(state, clampIndex(action.index, state.count), action.now);
    case 'hover':
      return state.isHovered === action.isHovered ? state : { ...state, isHovered: action.isHovered };
    case 'resize':
      return { ...state, count: action.count, index: clampIndex(state.index, action.count) };
  }
}

/** Whether the autoplay timer should run: not while hovered, and not once a non-looping carousel reached its end. */
export function shouldAutoplay(state: CarouselState, autoplay: boolean): boolean {
  if (!autoplay || state.isHovered || state.count < 2) return false;
  return state.loop || state.index < state.count - 1;
}

export function canGoPrev(state: CarouselState): boolean {
  return state.loop ? state.count > 1 : state.index > 0;
}

export function canGoNext(state: CarouselState): boolean {
  return state.loop ? state.count > 1 : state.index < state.count - 1;
}

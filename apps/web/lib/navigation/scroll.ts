// Back-to-top animation of spec §2 "Side bar": scroll to 0 over 1000 ms, easing in and out so
// the page neither jumps at the start nor stops abruptly.

export function easeInOutCubic(progress: number): number {
  const p = Math.min(Math.max(progress, 0), 1);
  return p < 0.5 ? 4 * p * p * p : 1 - (-2 * p + 2) ** 3 / 2;
}

/** Scroll offset `elapsedMs` into an animation from `start` to 0 lasting `durationMs`. */
export function scrollOffsetAt(start: number, elapsedMs: number, durationMs: number): number {
  if (durationMs <= 0 || elapsedMs >= durationMs) return 0;
  return Math.round(start * (1 - easeInOutCubic(elapsedMs / durationMs)));
}

export interface PopupFeatures {
  readonly width: number;
  readonly height: number;
  /** The opening window's position and outer size on the screen. */
  readonly screenX: number;
  readonly screenY: number;
  readonly outerWidth: number;
  readonly outerHeight: number;
}

/** `window.open` features for a popup of the given size centred over the current window. */
export function centredPopupFeatures(popup: PopupFeatures): string {
  const left = Math.max(0, Math.round(popup.screenX + (popup.outerWidth - popup.width) / 2));
  const top = Math.max(0, Math.round(popup.screenY + (popup.outerHeight - popup.height) / 2));
  return `width=${popup.width},height=${popup.height},left=${left},top=${top},resizable=yes,scrollbars=yes`;
}

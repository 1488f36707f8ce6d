import { z } from 'zod';
import { DESKTOP_METHODS, type DesktopMethod } from './desktop';

// The shells' side of the `window.desktop` contract (desktop.ts): what a page asks is checked
// here before the window is touched, and the window-state event is checked by the preload.

// Larger than any screen arrangement; a pointer cannot move further in one event.
const MAX_OFFSET_PX = 100_000;
const ZOffset = z.number().min(-MAX_OFFSET_PX).max(MAX_OFFSET_PX);

/** Only web addresses leave the app: never file:, javascript: or a custom scheme handler. */
export const ZDesktopExternalUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an http or https address');

const ZDesktopCallArgs = {
  minimize: z.tuple([]),
  toggleMaximize: z.tuple([]),
  isMaximized: z.tuple([]),
  close: z.tuple([]),
  startDrag: z.tuple([]),
  moveBy: z.tuple([ZOffset, ZOffset]),
  endDrag: z.tuple([]),
  openExternal: z.tuple([ZDesktopExternalUrl]),
} satisfies Record<DesktopMethod, z.ZodTuple>;

/** A checked call: the method and its arguments. */
export type DesktopCall = {
  [M in DesktopMethod]: { readonly method: M; readonly args: z.output<(typeof ZDesktopCallArgs)[M]> };
}[DesktopMethod];

/** A call a shell refuses: unknown method, wrong arguments or a caller that is not the site. */
export class DesktopCallError extends Error {
  override readonly name = 'DesktopCallError';
}

function isDesktopMethod(value: unknown): value is DesktopMethod {
  return typeof value === 'string' && (DESKTOP_METHODS as readonly string[]).includes(value);
}

/** Checks what a page asked the shell to do; throws DesktopCallError with the reason. */
export function parseDesktopCall(method: unknown, args: unknown): DesktopCall {
  if (!isDesktopMethod(method)) throw new DesktopCallError(`unknown desktop method ${JSON.stringify(String(method)).slice(0, 80)}`);
  const parsed = ZDesktopCallArgs[method].safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (argument ${issue.path.join('.')})` : '';
    throw new DesktopCallError(`desktop.${method}: ${issue?.message ?? 'invalid arguments'}${where}`);
  }
  return { method, args: parsed.data } as DesktopCall;
}

/** The window-state event the shell sends the page. */
export const ZDesktopWindowState = z.strictObject({ isMaximized: z.boolean() });
export type DesktopWindowState = z.output<typeof ZDesktopWindowState>;

/** The event's payload when it is one, else null (a page never trusts what it did not check). */
export function parseDesktopWindowState(value: unknown): DesktopWindowState | null {
  const parsed = ZDesktopWindowState.safeParse(value);
  return parsed.success ? parsed.data : null;
}

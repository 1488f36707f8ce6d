import type { CDPSession } from 'playwright-core';

// The app window's operations through the DevTools protocol of the browser the shell started
// (over its pipe): Browser.getWindowForTarget finds the window, Browser.setWindowBounds and
// Browser.getWindowBounds change and read it. The window manager applies changes asynchronously,
// so a drag is computed from where the window was when it began, never from a read-back position.

export type WindowState = 'normal' | 'minimized' | 'maximized' | 'fullscreen';

export interface WindowBounds {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  readonly windowState: WindowState;
}

interface Drag {
  readonly left: number;
  readonly top: number;
  dx: number;
  dy: number;
}

export class WindowControl {
  private drag: Drag | null = null;
  // Operations run one after another, in the order the page asked for them.
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly cdp: CDPSession,
    readonly windowId: number,
  ) {}

  /** The control of the window that shows the CDP session's page. */
  static async of(cdp: CDPSession): Promise<WindowControl> {
    const { windowId } = await cdp.send('Browser.getWindowForTarget');
    return new WindowControl(cdp, windowId);
  }

  private serial<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async read(): Promise<WindowBounds> {
    const { bounds } = await this.cdp.send('Browser.getWindowBounds', { windowId: this.windowId });
    return {
      left: bounds.left ?? 0,
      top: bounds.top ?? 0,
      width: bounds.width ?? 0,
      height: bounds.height ?? 0,
      windowState: bounds.windowState ?? 'normal',
    };
  }

  private async setState(windowState: WindowState): Promise<void> {
    await this.cdp.send('Browser.setWindowBounds', { windowId: this.windowId, bounds: { windowState } });
  }

  private async place(left: number, top: number): Promise<void> {
    await this.cdp.send('Browser.setWindowBounds', { windowId: this.windowId, bounds: { left: Math.round(left), top: Math.round(top) } });
  }

  bounds(): Promise<WindowBounds> {
    return this.serial(() => this.read());
  }

  minimize(): Promise<void> {
    return this.serial(() => this.setState('minimized'));
  }

  isMaximized(): Promise<boolean> {
    return this.serial(async () => (await this.read()).windowState === 'maximized');
  }

  /** Maximises a normal window, restores a maximised (or minimised) one; the new maximised state. */
  toggleMaximize(): Promise<boolean> {
    return this.serial(async () => {
      const isMaximized = (await this.read()).windowState === 'maximized';
      await this.setState(isMaximized ? 'normal' : 'maximized');
      return !isMaximized;
    });
  }

  /** A minimised window comes back as it was before; then the caller raises it. */
  unminimize(): Promise<void> {
    return this.serial(async () => {
      if ((await this.read()).windowState === 'minimized') await this.setState('normal');
    });
  }

  startDrag(): Promise<void> {
    return this.serial(async () => {
      const bounds = await this.read();
      this.drag = bounds.windowState === 'normal' ? { left: bounds.left, top: bounds.top, dx: 0, dy: 0 } : null;
    });
  }

  moveBy(dx: number, dy: number): Promise<void> {
    return this.serial(async () => {
      const drag = this.drag;
      if (drag) {
        drag.dx += dx;
        drag.dy += dy;
        await this.place(drag.left + drag.dx, drag.top + drag.dy);
        return;
      }
      const bounds = await this.read();
      if (bounds.windowState === 'normal') await this.place(bounds.left + dx, bounds.top + dy);
    });
  }

  endDrag(): Promise<void> {
    return this.serial(async () => {
      this.drag = null;
    });
  }
}

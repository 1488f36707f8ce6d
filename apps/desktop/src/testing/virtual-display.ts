import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A screen for the desktop app's tests: Xvfb on a display number it picks itself, with the
// openbox window manager (maximise, minimise and moving windows need one). Debian packages
// xvfb and openbox (.ci/run installs them).

export interface VirtualDisplay {
  /** The DISPLAY value, e.g. `:5`. */
  readonly display: string;
  stop(): Promise<void>;
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function waitFor(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startVirtualDisplay(size = { width: 1440, height: 900 }): Promise<VirtualDisplay> {
  // -displayfd: Xvfb takes a free display number and writes it on fd 3 once it accepts clients.
  const xvfb = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', `${size.width}x${size.height}x24`, '-nolisten', 'tcp', '-nolisten', 'unix-abstract'],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  xvfb.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-2000);
  });
  const display = await new Promise<string>((resolve, reject) => {
    let number = '';
    const fd3 = xvfb.stdio[3];
    if (!fd3 || !('on' in fd3)) {
      reject(new Error('Xvfb gave no display pipe'));
      return;
    }
    fd3.on('data', (chunk: Buffer) => {
      number += chunk.toString();
      if (number.includes('\n')) resolve(`:${number.trim()}`);
    });
    xvfb.once('error', (error) => reject(new Error(`Xvfb did not start (${error.message}): install Debian's xvfb`)));
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with code ${code}: ${errors.trim()}`)));
  });

  // openbox runs its --startup command once it manages the screen.
  const marks = mkdtempSync(path.join(os.tmpdir(), 'xcad-openbox-'));
  const ready = path.join(marks, 'ready');
  const openbox = spawn('openbox', ['--startup', `touch ${ready}`], { env: { ...process.env, DISPLAY: display }, stdio: 'ignore' });
  const openboxFailed = new Promise<string>((resolve) => {
    openbox.once('error', (error) => resolve(`openbox did not start (${error.message}): install Debian's openbox`));
    openbox.once('exit', (code) => resolve(`openbox exited with code ${code}`));
  });
  let failure: string | null = null;
  void openboxFailed.then((message) => {
    failure = message;
  });
  try {
    await waitFor(() => existsSync(ready) || failure !== null, 'openbox did not start', 15_000);
    if (failure !== null) throw new Error(failure);
  } catch (error) {
    await Promise.all([stop(openbox), stop(xvfb)]);
    throw error;
  } finally {
    rmSync(marks, { recursive: true, force: true });
  }
  return {
    display,
    stop: async () => {
      await stop(openbox);
      await stop(xvfb);
    },
  };
}

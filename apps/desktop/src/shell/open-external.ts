import { spawn } from 'node:child_process';

// Addresses outside the site open in the user's browser (xdg-open on Linux desktops);
// XCAD_DESKTOP_OPENER names another program, e.g. for a kiosk or a test.

export function openerCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.XCAD_DESKTOP_OPENER?.trim() || 'xdg-open';
}

/** Starts the opener for a checked http(s) URL and resolves once it started; it runs on by itself. */
export function openInSystemBrowser(url: string, command: string = openerCommand()): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
    child.once('error', (error) => reject(new Error(`could not start ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

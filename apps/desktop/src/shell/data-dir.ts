import os from 'node:os';
import path from 'node:path';

/**
 * The app's per-user data folder (database, stored files, browser profile, instance lock):
 * XCAD_DESKTOP_DATA_DIR when set, else $XDG_DATA_HOME/xcad-desktop, else ~/.local/share/xcad-desktop.
 * The XDG base directory rules ignore a relative XDG_DATA_HOME.
 */
export function desktopDataDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const explicit = env.XCAD_DESKTOP_DATA_DIR?.trim();
  if (explicit) return path.resolve(explicit);
  const xdg = env.XDG_DATA_HOME?.trim();
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share');
  return path.join(base, 'xcad-desktop');
}

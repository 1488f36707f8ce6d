// The Electron entry point (bundled to dist/app/main.cjs by build.ts).
import path from 'node:path';
import { app } from 'electron';
import { runDesktopApp } from './app';

runDesktopApp(path.join(__dirname, 'preload.cjs')).catch((error: unknown) => {
  console.error(`[xcad-desktop] ${error instanceof Error ? error.message : String(error)}`);
  app.exit(1);
});

import type { KnipConfig } from 'knip';

// `npm run lint` runs knip: no unused file, export or dependency, and every imported package
// declared in the package.json of the workspace that imports it (decision 0035).
const config: KnipConfig = {
  // An export its own file uses is part of that file's shape, not dead code.
  ignoreExportsUsedInFile: true,
  // What the OS provides (README, "What the OS must provide"): the desktop bundle and its window
  // tests, the production recipe, the PDF checks and the course clips' tools.
  ignoreBinaries: ['dpkg-deb', 'Xvfb', 'openbox', 'ip', 'pdftotext', 'pdffonts', 'cc', 'ffmpeg', 'ffprobe'],
  // `npm run web` runs from apps/web, so its --import of the root's .env loader is a relative path.
  ignoreUnresolved: ['../../scripts/load-env.mjs'],
  workspaces: {
    '.': {
      entry: ['scripts/**/*.{mjs,ts}', 'bench/**/*.ts', 'deploy/**/*.ts'],
      project: ['scripts/**/*.{mjs,ts}', 'bench/**/*.ts', 'deploy/**/*.ts'],
      // Named in strings, not imports: the viewer bench bundles a page that imports dxf-viewer and
      // three (bench/viewer.bench.ts); the production recipe runs s3rver by its resolved path.
      ignoreDependencies: ['dxf-viewer', 'three', 's3rver'],
    },
    'packages/*': {
      entry: ['src/**/*.test.ts'],
      project: ['src/**/*.ts'],
    },
    'packages/cad': {
      // scripts/gen-font-metrics.mjs writes the metrics table of the engine's fallback fonts.
      entry: ['src/**/*.test.ts', 'scripts/*.mjs'],
      project: ['src/**/*.ts'],
      // The shipped fonts are files read by path (packages/cad/src/text/shipped.ts), not modules.
      ignoreDependencies: ['@expo-google-fonts/noto-sans-sc', '@expo-google-fonts/noto-serif-sc', 'dejavu-fonts-ttf'],
    },
    'packages/cad-cli': {
      // bin/cad.cjs bundles src/cli.ts with esbuild at first use (or runs it under tsx), and calls
      // the bundle's main and afterCommand.
      entry: ['bin/cad.cjs', 'src/cli.ts', 'src/**/*.test.ts'],
      project: ['src/**/*.ts', 'bin/*.cjs'],
    },
    'packages/db': {
      entry: ['src/**/*.test.ts'],
      project: ['src/**/*.ts'],
    },
    'apps/api': {
      entry: ['src/**/*.cli.ts', 'src/**/*.test.ts'],
      project: ['src/**/*.ts'],
    },
    'apps/web': {
      entry: ['**/*.test.ts'],
      project: ['**/*.{ts,tsx}'],
    },
    'apps/desktop': {
      // The Electron release shell's main and preload are bundled by src/electron/build.ts.
      entry: ['src/electron/main.ts', 'src/electron/preload.ts', 'src/**/*.cli.ts', 'src/**/*.test.ts'],
      project: ['src/**/*.ts'],
    },
    e2e: {
      entry: ['tests/**/*.spec.ts'],
      project: ['**/*.ts'],
    },
  },
  // A migration is a module of `up` and `down` that packages/db/src/migrations/index.ts passes to
  // Kysely's Migrator as a whole.
  ignoreIssues: { 'packages/db/src/migrations/*.ts': ['exports'] },
};

export default config;

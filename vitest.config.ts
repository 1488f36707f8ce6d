import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Test tiers (CONVENTIONS.md): unit tests need nothing; integration and API tests run twice,
// once per database engine; browser tests run against one production build (e2e/global-setup).
const dbTests = ['**/src/**/*.integration.test.ts', '**/src/**/*.api.test.ts'];
const ignore = ['**/node_modules/**', '**/.next/**', '**/dist/**'];

export default defineConfig({
  test: {
    projects: [
      {
        // The web app's `@/` import alias (apps/web/tsconfig.json), for its lib/ and server/ tests.
        resolve: { alias: { '@': fileURLToPath(new URL('./apps/web', import.meta.url)) } },
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'apps/web/lib/**/*.test.ts',
            'apps/web/server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: [...ignore, ...dbTests],
        },
      },
      {
        test: {
          name: 'sqlite',
          include: dbTests,
          exclude: ignore,
          env: { TEST_DB_ENGINE: 'sqlite' },
        },
      },
      {
        test: {
          name: 'postgres',
          include: dbTests,
          exclude: ignore,
          env: { TEST_DB_ENGINE: 'postgres' },
        },
      },
      {
        // The production recipe (deploy/, decision 0026): its own test hosts, nginx, PostgreSQL, Redis and
        // s3rver; root only. It serves the browser tests' build, which it may wait for or make.
        test: {
          name: 'deploy',
          include: ['deploy/**/*.test.ts'],
          exclude: ignore,
          testTimeout: 240_000,
          hookTimeout: 900_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/tests/**/*.spec.ts'],
          exclude: ignore,
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // A page polls its server (the WeChat QR state every second) and CI machines are busy:
          // waiting for what a person would see takes longer than Vitest's 1 s default.
          expect: { poll: { timeout: 10_000, interval: 100 } },
        },
      },
    ],
  },
});

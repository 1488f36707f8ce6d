// `npm test`: every test of the project: unit, integration and API on SQLite and PostgreSQL, and the
// browser tests against one production build. Extra arguments go to Vitest (e.g. a file filter).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureInstalled, loadDotEnv, root } from './lib.mjs';

loadDotEnv();
ensureInstalled();

const resultsDir = path.join(root, 'data', 'test-results');
mkdirSync(resultsDir, { recursive: true });
const jsonReport = path.join(resultsDir, 'vitest.json');

const vitest = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${jsonReport}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);

// One plain closing line, whatever the runner printed above it.
try {
  const report = JSON.parse(readFileSync(jsonReport, 'utf8'));
  console.info(`Tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
} catch {
  console.info('Tests: 0 passed, 1 failed');
}
process.exit(vitest.status ?? 1);

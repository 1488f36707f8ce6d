// `npm run deploy:recipe` (root, Debian's nginx): the production recipe on this machine, until
// Ctrl+C. Each tier on a test host of its own; this machine is the visitor and opens the site at
// the printed address. `RECIPE_DIR` keeps the run's settings, logs and data in a folder of your
// choice (emptied first) instead of a temporary one removed at the end.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startRecipe } from './recipe';

function say(line: string): void {
  console.info(`[recipe] ${line}`);
}

const workDir = process.env['RECIPE_DIR'] === undefined ? undefined : path.resolve(process.env['RECIPE_DIR']);
if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });

let recipe;
try {
  recipe = await startRecipe({ say, ...(workDir === undefined ? {} : { workDir }) });
} catch (error) {
  console.error(`[recipe] start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const running = recipe;
for (const entry of running.processes)
  say(
    `${entry.name.padEnd(9)} pid ${String(entry.child.pid).padEnd(8)} on ${running.network.hosts[entry.tier].namespace} (${running.network.hosts[entry.tier].address}), log ${entry.logFile}`,
  );
say(`open ${running.origin}/ (nginx); settings in ${running.workDir}/api.env and web.env, nginx's in ${running.workDir}/nginx/nginx.conf`);
say(`SMS codes: the API logs' "dev sms sent" lines (${running.workDir}/logs/api-*.log)`);
say(
  `sandbox payments: ip netns exec ${running.network.hosts.api.namespace} curl -X POST http://127.0.0.1:3001/api/dev/pay/confirm -H 'content-type: application/json' -d '{"orderno":"XC..."}'`,
);
say('Ctrl+C stops everything and removes the test hosts');

let isStopping = false;
async function stop(): Promise<void> {
  if (isStopping) return;
  isStopping = true;
  say('stopping...');
  await running.stop();
  say('stopped; the test hosts are removed');
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

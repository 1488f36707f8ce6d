// Deployment benchmark (decision 0026; `npm run bench:deploy`, root and Debian's nginx): the production recipe
// (deploy/recipe.ts: nginx, two web and two API processes, two conversion workers, PostgreSQL,
// Redis, s3rver, each tier on a test host of its own) under 20 connections through nginx for
// BENCH_DEPLOY_SECONDS (default 30) with pages, API reads and analytics writes, and a conversion
// started every 1.5 s; after a 5 s warm-up, first undisturbed (the baseline), then with one process of each tier killed
// in the middle (an API, a web process, a worker while it converts, an nginx worker). Prints
// requests, failures and p99 side by side. Targets: no failed request but those in flight on a
// killed process, every acknowledged write stored, every conversion of the run finished.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { acceptedEvents, BATCH_EVENTS, converterMember, loadRun, storedEvents, unfinished, type LoadRun } from '../deploy/faults';
import { failuresBeyondKills, isFailure, summarize } from '../deploy/load';
import { startRecipe } from '../deploy/recipe';
import { e2eDistDir } from '../scripts/lib.mjs';

const SECONDS = Number(process.env.BENCH_DEPLOY_SECONDS ?? 30);
const CONNECTIONS = 20;
const WARM_UP_SECONDS = 5;

interface RunFigures {
  name: string;
  run: LoadRun;
  stored: number;
  accepted: number;
  unfinished: string[];
}

function row(figures: RunFigures): string {
  const summary = summarize(figures.run.records, SECONDS * 1000);
  const beyond =
    failuresBeyondKills(figures.run.records, figures.run.kills).length +
    failuresBeyondKills(
      figures.run.failedStarts.map((start) => ({ ...start, target: 'conversion start', status: 0 })),
      figures.run.kills,
    ).length;
  const finished = figures.run.tasktags.length - figures.unfinished.length;
  return `| ${figures.name} | ${summary.requests} | ${summary.perSecond.toFixed(1)} | ${summary.failed} | ${beyond} | ${summary.p50Ms} | ${summary.p99Ms} | ${figures.accepted} / ${figures.stored} | ${finished} / ${figures.run.tasktags.length} |`;
}

function isMet(figures: RunFigures): boolean {
  const batches = figures.run.records.filter((record) => record.target === 'analytics batch');
  return (
    failuresBeyondKills(figures.run.records, figures.run.kills).length === 0 &&
    figures.unfinished.length === 0 &&
    figures.stored >= figures.accepted &&
    figures.stored - figures.accepted <= BATCH_EVENTS * batches.filter(isFailure).length
  );
}

export async function runDeployBench(): Promise<boolean> {
  const started = Date.now();
  const recipe = await startRecipe({
    webBuild: e2eDistDir(),
    settings: { ANALYTICS_RATE_PER_MINUTE: '10000000' },
    say: (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${line}`),
  });
  try {
    const member = await converterMember(recipe, '13912340031');
    // Warm every process up first (compiled code, caches, pools), so the baseline is not a cold start.
    await loadRun(recipe, member, {
      durationMs: WARM_UP_SECONDS * 1000,
      connections: CONNECTIONS,
      devicePrefix: 'bench-warm-up',
      withKills: false,
    });
    const figures: RunFigures[] = [];
    for (const [name, withKills] of [
      ['undisturbed', false],
      ['one of each tier killed', true],
    ] as const) {
      const devicePrefix = withKills ? 'bench-kills' : 'bench-calm';
      console.log(`\n${name}: ${CONNECTIONS} connections through nginx for ${SECONDS} s...`);
      const run = await loadRun(recipe, member, { durationMs: SECONDS * 1000, connections: CONNECTIONS, devicePrefix, withKills });
      const t0 = run.records[0]?.startedAt ?? 0;
      for (const kill of run.kills) {
        const inFlight = run.records.filter(
          (record) => isFailure(record) && record.startedAt <= kill.goneAt && kill.at <= record.endedAt,
        ).length;
        console.log(
          `  killed ${kill.name} (pid ${kill.pid}) at ${((kill.at - t0) / 1000).toFixed(1)} s, gone ${kill.goneAt - kill.at} ms later; ${inFlight} failed request(s) in flight on it`,
        );
      }
      const left = await unfinished(member, run.tasktags, 120_000);
      const accepted = acceptedEvents(
        run.records.filter((record) => record.target === 'analytics batch' && !isFailure(record)).map((record) => record.answer),
      );
      figures.push({ name, run, accepted, stored: await storedEvents(recipe, devicePrefix), unfinished: left });
    }
    console.log(
      '\n| run | requests | req/s | failed | failed beyond in-flight | p50 ms | p99 ms | events acknowledged / stored | conversions finished / started |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const entry of figures) console.log(row(entry));
    const [calm, killed] = figures.map((entry) => summarize(entry.run.records, SECONDS * 1000));
    if (calm !== undefined && killed !== undefined) {
      console.log(
        `with kills: ${((killed.perSecond / calm.perSecond) * 100).toFixed(0)}% of the undisturbed throughput, p99 ${(killed.p99Ms / Math.max(calm.p99Ms, 1)).toFixed(2)}x`,
      );
    }
    const met = figures.every(isMet);
    console.log(
      `no failure but requests in flight on a killed process, every acknowledged write stored, every conversion finished: ${met ? 'MET' : 'NOT MET'}`,
    );
    return met;
  } finally {
    await recipe.stop();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const met = await runDeployBench();
  console.log(`\nTargets ${met ? 'met' : 'NOT met'}.`);
}

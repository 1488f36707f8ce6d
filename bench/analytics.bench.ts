// Analytics benchmark (`npm run bench:analytics`, decision 0022): the analytics collector's ingest throughput and
// what it costs the site. The whole site runs as `npm start` runs it (production build, SQLite,
// access logging on), started by site-servers.ts on free ports, loaded over loopback:
// 1. ingest alone: POST /api/analytics/events straight to the API (as nginx routes /api/ at
//    scale), batches of 20 events, every answer checked to be {"accepted":20,"rejected":0};
// 2. the home page's SSR throughput alone;
// 3. both at once, ingest flat out (the worst case: the two processes share the machine's cores);
// 4. both at once, ingest paced at BENCH_ANALYTICS_RATE requests a second (default 100, i.e.
//    2,000 events a second, far more than the site's visitors send).
// The home page alone is measured before and after 3 and 4, and their mean is the baseline (the
// machine's load drifts). Prints the figures and home-with-ingest / home-alone for 3 and 4;
// target for 4: >= 80%, with the paced ingest keeping at least 95% of its pace.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { measure, printTable, type LoadResult } from './http';
import { startSite } from './site-servers';

const BATCH = 20;
const PACED_RATE = Number(process.env.BENCH_ANALYTICS_RATE ?? 100);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PACED_TARGET = 0.8;

/** A tracker's batch: twenty events of the kinds a visit sends, valid for the bench's lifetime. */
function batchBody(): string {
  const now = Date.now();
  const common = {
    software_name: 'web',
    software_version: 'online',
    channel: 'bench',
    platform: 'WEB',
    uid: 'u-bench',
    device_id: 'd-bench',
    time: now,
  };
  const kinds = [
    { event: 'view', page: '/', title: '迅捷CAD' },
    { event: 'click', page: '/', module: 'header', name: '在线转换', tab_name: '工具' },
    { event: 'view', page: '/tools/cad2pdf', title: 'CAD转PDF' },
    { event: 'task', page: '/tools/cad2pdf', name: 'cad2pdf', extension: 'dwg', result: 'success', elapsed_ms: 4200, size: 1_048_576 },
    { event: 'login', page: '/', method: 'sms', result: 'success' },
  ];
  return JSON.stringify({ events: Array.from({ length: BATCH }, (_, index) => ({ ...common, ...kinds[index % kinds.length] })) });
}

interface IngestResult extends LoadResult {
  eventsPerSecond: number;
}

/** Loads the collector; an answer that does not accept the whole batch counts as refused. */
async function ingest(
  name: string,
  url: string,
  body: string,
  options: { durationSeconds: number; overallRate?: number },
): Promise<IngestResult> {
  const expected = `{"accepted":${BATCH},"rejected":0}`;
  let refused = 0;
  let refusalSample: string | undefined;
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: CONNECTIONS,
    duration: options.durationSeconds,
    ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
    requests: [
      {
        onResponse: (_status: number, answer: string) => {
          if (answer === expected) return;
          refused += 1;
          refusalSample ??= answer.slice(0, 200);
        },
      },
    ],
  });
  return {
    name,
    requestsPerSecond: result.requests.average,
    eventsPerSecond: result.requests.average * BATCH,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    refused,
    ...(refusalSample === undefined ? {} : { refusalSample }),
  };
}

function printIngest(rows: IngestResult[]): void {
  console.log(`\nAnalytics ingest (POST /api/analytics/events, ${BATCH} events a request, API on SQLite)`);
  console.log('| target | req/s | events/s | p50 ms | p99 ms | non-2xx | errors | not accepted |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.requestsPerSecond.toFixed(0)} | ${row.eventsPerSecond.toFixed(0)} | ${row.p50Ms.toFixed(1)} | ${row.p99Ms.toFixed(1)} | ${row.non2xx} | ${row.errors} | ${row.refused} |`,
    );
    if (row.refusalSample !== undefined) console.log(`  (${row.name}: e.g. ${row.refusalSample})`);
  }
}

function isClean(row: LoadResult): boolean {
  return row.non2xx === 0 && row.errors === 0 && row.refused === 0;
}

/** The home page loaded for `DURATION` seconds while `other` runs for as long. */
async function homeDuring(name: string, web: string, other: () => Promise<IngestResult>): Promise<[LoadResult, IngestResult]> {
  return Promise.all([measure({ name, url: `${web}/`, workers: 2, durationSeconds: DURATION }), other()]);
}

export async function runAnalyticsBench(): Promise<boolean> {
  // The collector's limits are for real clients; the bench is one address and one device.
  process.env.ANALYTICS_RATE_PER_MINUTE = '10000000';
  process.env.ANALYTICS_DEVICE_RATE_PER_MINUTE = '10000000';
  const site = await startSite();
  try {
    const url = `${site.api}/api/analytics/events`;
    const body = batchBody();
    // measure() warms its target up for a quarter of the run first; the concurrent ingest runs
    // that long too, so that it covers the whole measured window of the home page.
    const concurrentSeconds = DURATION + Math.max(2, Math.round(DURATION / 4));

    await ingest('warm-up', url, body, { durationSeconds: Math.max(2, Math.round(DURATION / 4)) });
    const alone = await ingest('ingest alone', url, body, { durationSeconds: DURATION });
    const homeBefore = await measure({ name: 'home page / alone, before', url: `${site.web}/`, workers: 2 });
    const [homeFlat, flat] = await homeDuring('home page / while ingest runs flat out', site.web, () =>
      ingest('ingest flat out, home page loaded too', url, body, { durationSeconds: concurrentSeconds }),
    );
    const [homePaced, paced] = await homeDuring(`home page / while ingest runs at ${PACED_RATE * BATCH} events/s`, site.web, () =>
      ingest(`ingest paced at ${PACED_RATE} req/s, home page loaded too`, url, body, {
        durationSeconds: concurrentSeconds,
        overallRate: PACED_RATE,
      }),
    );

    const homeAfter = await measure({ name: 'home page / alone, after', url: `${site.web}/`, workers: 2 });

    printIngest([alone, flat, paced]);
    printTable('Home page SSR with and without ingest', [homeBefore, homeFlat, homePaced, homeAfter]);
    const baseline = (homeBefore.requestsPerSecond + homeAfter.requestsPerSecond) / 2;
    const flatRatio = homeFlat.requestsPerSecond / baseline;
    const pacedRatio = homePaced.requestsPerSecond / baseline;
    console.log(`home alone: ${baseline.toFixed(0)} req/s (mean of before and after)`);
    console.log(
      `home SSR while ingest runs flat out: ${(flatRatio * 100).toFixed(1)}% of home alone (both compete for the same cores; for information)`,
    );
    const keptPace = paced.requestsPerSecond / PACED_RATE;
    const isMet =
      pacedRatio >= PACED_TARGET && keptPace >= 0.95 && [alone, flat, paced, homeBefore, homeFlat, homePaced, homeAfter].every(isClean);
    console.log(
      `home SSR while ingest takes ${PACED_RATE * BATCH} events/s: ${(pacedRatio * 100).toFixed(1)}% of home alone (target >= ${PACED_TARGET * 100}%), ingest kept ${(keptPace * 100).toFixed(0)}% of its pace (target >= 95%) ${isMet ? 'MET' : 'NOT MET'}`,
    );
    return isMet;
  } finally {
    await site.stop();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const isMet = await runAnalyticsBench();
  console.log(`\nTargets ${isMet ? 'met' : 'NOT met'}.`);
}

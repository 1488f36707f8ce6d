import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  name: string;
  url: string;
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** A fresh body per request (signed calls refuse a replayed `datasign`). */
  makeBody?: () => string;
}

const defaultDuration = Number(process.env.BENCH_DURATION ?? 10);
const defaultConnections = Number(process.env.BENCH_CONNECTIONS ?? 32);

/** Loads `url` over loopback (after a short warm-up) and returns throughput and latency. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  const { makeBody } = options;
  const common = {
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? defaultConnections,
    ...(makeBody === undefined ? {} : { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: makeBody() }) }] }),
  };
  await autocannon({ ...common, duration: Math.max(2, Math.round(defaultDuration / 4)) });
  const result = await autocannon({ ...common, duration: options.durationSeconds ?? defaultDuration });
  return {
    name: options.name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export function printTable(title: string, rows: LoadResult[]): void {
  console.log(`\n${title}`);
  console.log('| target | req/s | p50 ms | p99 ms | non-2xx | errors |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.requestsPerSecond.toFixed(0)} | ${row.p50Ms.toFixed(1)} | ${row.p99Ms.toFixed(1)} | ${row.non2xx} | ${row.errors} |`,
    );
  }
}

/** Prints `measured / baseline` against the target and returns whether it is met. */
export function printRatio(label: string, measured: LoadResult, baseline: LoadResult, target: number): boolean {
  const ratio = measured.requestsPerSecond / baseline.requestsPerSecond;
  const isMet = ratio >= target && measured.non2xx === 0 && measured.errors === 0;
  console.log(`${label}: ${(ratio * 100).toFixed(1)}% of baseline (target >= ${(target * 100).toFixed(0)}%) ${isMet ? 'MET' : 'NOT MET'}`);
  return isMet;
}

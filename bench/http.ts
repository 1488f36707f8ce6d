import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Answers with HTTP 2xx whose body is not the expected envelope code (business refusals). */
  refused: number;
  /** The first refused body, to say why. */
  refusalSample?: string;
}

export interface LoadOptions {
  name: string;
  url: string;
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** A fresh body (and extra headers) per request: signed calls refuse a replayed `datasign`. */
  makeRequest?: () => { body: string; headers?: Record<string, string> };
  /** Counts every answer whose body lacks `"code":<this>` as refused (the API refuses with HTTP 200). */
  expectCode?: number;
  /**
   * Load-generator threads. One autocannon thread tops out at a few thousand large pages a second,
   * below what the server answers; two keep the client from being what is measured. Not with
   * makeRequest or expectCode (their functions cannot cross into worker threads).
   */
  workers?: number;
}

const defaultDuration = Number(process.env.BENCH_DURATION ?? 10);
const defaultConnections = Number(process.env.BENCH_CONNECTIONS ?? 32);

/** Loads `url` over loopback (after a short warm-up) and returns throughput and latency. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  const { makeRequest, expectCode } = options;
  if (options.workers !== undefined && (makeRequest !== undefined || expectCode !== undefined)) {
    throw new Error(`${options.name}: workers cannot run makeRequest or expectCode`);
  }
  let refused = 0;
  let refusalSample: string | undefined;
  const request: autocannon.Request = {};
  if (makeRequest !== undefined) {
    request.setupRequest = (req: autocannon.Request) => {
      const made = makeRequest();
      return { ...req, body: made.body, headers: { ...req.headers, ...made.headers } };
    };
  }
  if (expectCode !== undefined) {
    request.onResponse = (_status: number, body: string) => {
      if (body.includes(`"code":${expectCode}`)) return;
      refused += 1;
      refusalSample ??= body.slice(0, 200);
    };
  }
  const common = {
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? defaultConnections,
    requests: [request],
    ...(options.workers === undefined ? {} : { workers: options.workers }),
  };
  await autocannon({ ...common, duration: Math.max(2, Math.round(defaultDuration / 4)) });
  refused = 0;
  const result = await autocannon({ ...common, duration: options.durationSeconds ?? defaultDuration });
  return {
    name: options.name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    refused,
    ...(refusalSample === undefined ? {} : { refusalSample }),
  };
}

export function printTable(title: string, rows: LoadResult[]): void {
  console.log(`\n${title}`);
  console.log('| target | req/s | p50 ms | p99 ms | non-2xx | errors | refused |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.requestsPerSecond.toFixed(0)} | ${row.p50Ms.toFixed(1)} | ${row.p99Ms.toFixed(1)} | ${row.non2xx} | ${row.errors} | ${row.refused} |`,
    );
    if (row.refusalSample !== undefined) console.log(`  (${row.name}: refused, e.g. ${row.refusalSample})`);
  }
}

/** Prints `measured / baseline` against the target and returns whether it is met. */
export function printRatio(label: string, measured: LoadResult, baseline: LoadResult, target: number): boolean {
  const ratio = measured.requestsPerSecond / baseline.requestsPerSecond;
  const isMet = ratio >= target && measured.non2xx === 0 && measured.errors === 0 && measured.refused === 0;
  console.log(`${label}: ${(ratio * 100).toFixed(1)}% of baseline (target >= ${(target * 100).toFixed(0)}%) ${isMet ? 'MET' : 'NOT MET'}`);
  return isMet;
}

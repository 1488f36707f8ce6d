import http from 'node:http';

// Load through the recipe's public origin for its fault test and bench:deploy: a fixed number of
// keep-alive connections, each sending the next request of a mix as soon as its previous one is
// answered, every request recorded with its start, end and outcome, so that a failure can be held
// against the moments processes were killed.

export interface LoadTarget {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** A JSON body, made afresh for each request. */
  body?: () => string;
}

export interface RequestRecord {
  target: string;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt: number;
  /** The HTTP status, or 0 when no answer came (reset, refused, timed out). */
  status: number;
  /** The answer's body when the target sent one (its write is checked afterwards). */
  answer?: string;
  error?: string;
}

export interface LoadOptions {
  origin: string;
  connections: number;
  durationMs: number;
  targets: readonly LoadTarget[];
  /** How long one request may take before it counts as failed. */
  timeoutMs?: number;
}

function send(agent: http.Agent, origin: URL, target: LoadTarget, timeoutMs: number): Promise<RequestRecord> {
  const body = target.body?.();
  const startedAt = Date.now();
  return new Promise((resolve) => {
    let isDone = false;
    const finish = (status: number, extra: Partial<RequestRecord>) => {
      if (isDone) return;
      isDone = true;
      resolve({ target: target.name, startedAt, endedAt: Date.now(), status, ...extra });
    };
    const request = http.request(
      {
        agent,
        host: origin.hostname,
        port: origin.port || 80,
        method: target.method,
        path: target.path,
        headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          finish(response.statusCode ?? 0, body === undefined ? {} : { answer: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', (error) => finish(0, { error: error.message }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error: NodeJS.ErrnoException) => finish(0, { error: error.code ?? error.message }));
    request.end(body);
  });
}

/** Loads `origin` for `durationMs`; resolves every request's record. */
export async function runLoad({ origin, connections, durationMs, targets, timeoutMs = 30_000 }: LoadOptions): Promise<RequestRecord[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(origin);
  const records: RequestRecord[] = [];
  const endAt = Date.now() + durationMs;
  try {
    await Promise.all(
      Array.from({ length: connections }, async (_, loop) => {
        for (let index = loop; Date.now() < endAt; index += connections) {
          const target = targets[index % targets.length];
          if (target !== undefined) records.push(await send(agent, url, target, timeoutMs));
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return records;
}

export const isFailure = (record: RequestRecord): boolean => record.status < 200 || record.status >= 400;

export interface LoadSummary {
  requests: number;
  failed: number;
  /** Requests answered per second. */
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

export function summarize(records: readonly RequestRecord[], durationMs: number): LoadSummary {
  const latencies = records.map((record) => record.endedAt - record.startedAt).sort((a, b) => a - b);
  return {
    requests: records.length,
    failed: records.filter(isFailure).length,
    perSecond: records.length / (durationMs / 1000),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

/** The failed requests that were not in flight while a killed process was dying (from its kill to its end). */
export function failuresBeyondKills(
  records: readonly RequestRecord[],
  kills: ReadonlyArray<{ at: number; goneAt: number }>,
): RequestRecord[] {
  return records.filter(
    (record) => isFailure(record) && !kills.some((kill) => record.startedAt <= kill.goneAt && kill.at <= record.endedAt),
  );
}

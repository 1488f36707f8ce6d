// The worker side of bench/hostile.bench.ts: a process that converts as the conversion workers
// do (the API's and `npm run worker`'s pool, with the service's default limits), one request per
// line of stdin ({"file", "options", "cad"?}), one JSON answer per line of stdout.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ConversionWorkerPool } from '@xcad/api/conversion-pool';
import type { CadTarget, WorkerConvertOptions } from '@xcad/api/conversion-worker';

interface Request {
  file: string;
  options: WorkerConvertOptions;
  cad?: CadTarget;
}

const pool = new ConversionWorkerPool({
  memoryMb: Number(process.env['CONVERSION_MEMORY_MB'] ?? 1536),
  timeoutMs: Number(process.env['CONVERSION_TIMEOUT_SECONDS'] ?? 180) * 1000,
  idleProcesses: 1,
});

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line) as Request;
  const started = performance.now();
  const outcome = await pool.convert({
    input: new Uint8Array(readFileSync(request.file)),
    options: request.options,
    ...(request.cad ? { cad: request.cad } : {}),
  });
  const ms = Math.round(performance.now() - started);
  const answer = outcome.ok
    ? { ok: true, ms, outputBytes: outcome.outputs.reduce((sum, output) => sum + output.data.length, 0) }
    : { ok: false, ms, failure: outcome.failure, detail: outcome.detail.slice(0, 200) };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
await pool.close();

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '@xcad/db';
import { signInBySms, buyWithSandbox, CONVERTER_MONTH, startConversion, taskOutcome, type Member } from './site-client';
import type { Recipe } from './recipe';
import { runLoad, type LoadTarget, type RequestRecord } from './load';

// The recipe's fault run, shared by its test and bench:deploy: the load's request mix, the
// conversions started while it runs, and the kill of one process of each tier. "One process of
// the nginx tier" is one of nginx's two worker processes: nginx is the single front (its master
// respawns the worker); one web process, one API process, and one conversion worker while it
// holds a running conversion, all with SIGKILL.

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/cad/test-fixtures');
/** Drawings that take a worker a while (a DWG through LibreDWG, a large DXF), so a kill lands mid-job. */
export const CONVERSION_FIXTURES = ['acs_sample_AC1015.dwg', 'mlcad_block-color.dxf', 'ezdxf_hatches_1.dxf'] as const;

export function fixture(name: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(path.join(FIXTURES, name)));
}

/** Events in each of the load's analytics batches. */
export const BATCH_EVENTS = 5;

/** A tracker's batch of BATCH_EVENTS events from a device of its own, so the stored ones can be counted. */
function analyticsBatch(devicePrefix: string): () => string {
  let batches = 0;
  return () => {
    batches += 1;
    const common = {
      software_name: 'web',
      software_version: 'online',
      channel: 'recipe',
      platform: 'WEB',
      uid: 'u-recipe',
      device_id: `${devicePrefix}-${batches}`,
      time: Date.now(),
    };
    const events = [
      { event: 'view', page: '/', title: '迅捷CAD' },
      { event: 'click', page: '/', module: 'header', name: '在线转换', tab_name: '工具' },
      { event: 'view', page: '/help.html', title: '帮助中心' },
      { event: 'login', page: '/', method: 'sms', result: 'success' },
      { event: 'view', page: '/tools/cad2pdf', title: 'CAD转PDF' },
    ];
    return JSON.stringify({ events: events.map((event) => ({ ...common, ...event })) });
  };
}

/** Pages of the web tier, reads of the API tier, and writes (analytics batches) whose storage is checked. */
export function loadTargets(devicePrefix: string): LoadTarget[] {
  return [
    { name: 'home page', method: 'GET', path: '/' },
    { name: 'help page', method: 'GET', path: '/help.html' },
    { name: 'health', method: 'GET', path: '/health' },
    { name: 'posts', method: 'GET', path: '/wp-json/wp/v2/posts?per_page=3' },
    { name: 'analytics batch', method: 'POST', path: '/api/analytics/events', body: analyticsBatch(devicePrefix) },
  ];
}

/** How many analytics events the collector said it stored, from the answers of the load. */
export function acceptedEvents(answers: ReadonlyArray<string | undefined>): number {
  return answers.reduce(
    (sum, answer) => sum + ((answer === undefined ? undefined : (JSON.parse(answer) as { accepted?: number }).accepted) ?? 0),
    0,
  );
}

/** How many events of devices `devicePrefix-*` the database holds. */
export async function storedEvents(recipe: Recipe, devicePrefix: string): Promise<number> {
  const { db, destroy } = createDatabase({ databaseUrl: recipe.databaseUrl, poolMax: 1 });
  try {
    const row = await db
      .selectFrom('analytics_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('device_id', 'like', `${devicePrefix}-%`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await destroy();
  }
}

export interface Kill {
  name: string;
  pid: number;
  /** Epoch milliseconds: when SIGKILL was sent. */
  at: number;
  /**
   * When the process was gone: only then are its sockets closed. Until then the kernel still
   * accepts connections and bytes for it (tearing down its threads and heap takes a while), so a
   * request sent in between is one in flight on the killed process too.
   */
  goneAt: number;
}

/** Reaped by its parent: for a process of many threads (Node), only then are all of them gone and its sockets closed. */
const isGone = (pid: number): boolean => !existsSync(`/proc/${pid}`);

async function killNow(name: string, pid: number): Promise<Kill> {
  const at = Date.now();
  process.kill(pid, 'SIGKILL');
  while (!isGone(pid)) await new Promise((resolve) => setTimeout(resolve, 2));
  return { name, pid, at, goneAt: Date.now() };
}

export const killNginxWorker = (recipe: Recipe): Promise<Kill> => {
  const [worker] = recipe.nginxWorkers();
  if (worker === undefined) throw new Error('nginx has no worker process');
  return killNow('an nginx worker', worker);
};

export const killProcess = (recipe: Recipe, name: string): Promise<Kill> => killNow(name, recipe.process(name).child.pid ?? 0);

/** Kills the conversion worker that holds a running conversion (its runner id carries its process id). */
export async function killWorkerMidJob(recipe: Recipe, timeoutMs = 20_000): Promise<Kill> {
  const workers = recipe.processes.filter(
    (entry) => entry.tier === 'worker' && entry.child.exitCode === null && entry.child.signalCode === null,
  );
  const { db, destroy } = createDatabase({ databaseUrl: recipe.databaseUrl, poolMax: 1 });
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const running = await db.selectFrom('conversion_job').select('locked_by').where('status', '=', 'running').execute();
      for (const { locked_by: runner } of running) {
        const holder = workers.find((worker) => runner?.split(':')[1] === String(worker.child.pid));
        if (holder !== undefined) return killNow(`${holder.name} mid-conversion`, holder.child.pid ?? 0);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no conversion worker was converting within ${timeoutMs} ms`);
  } finally {
    await destroy();
  }
}

export interface ConversionDriver {
  /** Stops starting conversions; resolves the tasktags of those started (fully uploaded and queued). */
  stop(): Promise<string[]>;
  /** Start attempts that failed, with when they ran (a request in flight on a killed process). */
  failedStarts: Array<{ startedAt: number; endedAt: number; error: string }>;
}

/** Starts a conversion every `everyMs` as `member` (each upload on its own, as many users do), a fixture after another, until stopped. */
export function driveConversions(recipe: Recipe, member: Member, everyMs: number): ConversionDriver {
  const started: string[] = [];
  const failedStarts: ConversionDriver['failedStarts'] = [];
  const uploads: Array<Promise<void>> = [];
  let index = 0;
  const startOne = (): void => {
    const name = CONVERSION_FIXTURES[index % CONVERSION_FIXTURES.length] ?? CONVERSION_FIXTURES[0];
    index += 1;
    const startedAt = Date.now();
    uploads.push(
      startConversion(recipe, member, name, fixture(name)).then(
        (tasktag) => void started.push(tasktag),
        (error: unknown) =>
          void failedStarts.push({ startedAt, endedAt: Date.now(), error: error instanceof Error ? error.message : String(error) }),
      ),
    );
  };
  startOne();
  const timer = setInterval(startOne, everyMs);
  return {
    failedStarts,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(uploads);
      return started;
    },
  };
}

/** A converter member of the recipe's site, signed in and paid through nginx. */
export async function converterMember(recipe: Recipe, phone: string): Promise<Member> {
  const member = await signInBySms(recipe, phone);
  await buyWithSandbox(recipe, member, CONVERTER_MONTH.productid, CONVERTER_MONTH.packageid);
  return member;
}

/** Waits for every task; resolves those that did not end done. */
export async function unfinished(member: Member, tasktags: readonly string[], timeoutMs: number): Promise<string[]> {
  const outcomes = await Promise.all(
    tasktags.map(async (tasktag) => ({ tasktag, outcome: await taskOutcome(member, tasktag, timeoutMs).catch(() => 'timeout') })),
  );
  return outcomes.filter((entry) => entry.outcome !== 'done').map((entry) => entry.tasktag);
}

export interface LoadRun {
  records: RequestRecord[];
  kills: Kill[];
  /** Conversions started during the run (queued). */
  tasktags: string[];
  failedStarts: ConversionDriver['failedStarts'];
}

/**
 * `connections` connections through nginx for `durationMs`, conversions started by `member` all
 * along; with `withKills`, one process of each tier is killed around the middle of the run (an API,
 * a web process, a worker while it converts, an nginx worker), a little apart.
 */
export async function loadRun(
  recipe: Recipe,
  member: Member,
  options: { durationMs: number; connections: number; devicePrefix: string; withKills: boolean },
): Promise<LoadRun> {
  const conversions = driveConversions(recipe, member, 1_500);
  const load = runLoad({
    origin: recipe.origin,
    connections: options.connections,
    durationMs: options.durationMs,
    targets: loadTargets(options.devicePrefix),
  });
  const kills: Kill[] = [];
  if (options.withKills) {
    const at = (fraction: number) => new Promise((resolve) => setTimeout(resolve, options.durationMs * fraction));
    const api = recipe.processes.find((entry) => entry.tier === 'api')?.name ?? '';
    const web = recipe.processes.find((entry) => entry.tier === 'web')?.name ?? '';
    await at(0.4);
    kills.push(await killProcess(recipe, api));
    await at(0.05);
    kills.push(await killProcess(recipe, web));
    await at(0.05);
    kills.push(await killWorkerMidJob(recipe));
    await at(0.05);
    kills.push(await killNginxWorker(recipe));
  }
  const records = await load;
  const tasktags = await conversions.stop();
  return { records, kills, tasktags, failedStarts: conversions.failedStarts };
}

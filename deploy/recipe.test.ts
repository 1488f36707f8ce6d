import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createDatabase } from '@xcad/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eDistDir } from '../scripts/lib.mjs';
import { acceptedEvents, BATCH_EVENTS, CONVERSION_FIXTURES, converterMember, fixture, loadRun, storedEvents, unfinished } from './faults';
import { failuresBeyondKills, isFailure } from './load';
import { startRecipe, TIERS, type Recipe } from './recipe';
import { CONVERTER_MONTH, membershipOf, resultOf, startConversion, taskOutcome, type Member } from './site-client';

// The production recipe (decision 0026), run here. nginx in front of two web and two API processes and
// two conversion workers, on PostgreSQL, Redis and s3rver, each tier on a test host of its own
// (network namespace): a visitor at the public origin signs in, buys with the sandbox, converts
// and views; then one process of each tier is killed while 20 connections load the site.

let recipe: Recipe;
let member: Member;

beforeAll(async () => {
  recipe = await startRecipe({
    // The browser tests' build of these sources (built once for both).
    webBuild: e2eDistDir(),
    settings: {
      // The load comes from one address and is far more than one visitor sends.
      ANALYTICS_RATE_PER_MINUTE: '10000000',
      // A worker killed mid-job has its job taken over within this (at most 1.5 times it).
      CONVERSION_TIMEOUT_SECONDS: '20',
    },
  });
});

afterAll(async () => {
  await recipe?.stop();
});

function namespaceOf(pid: number): string {
  return execFileSync('ip', ['netns', 'identify', String(pid)], { encoding: 'utf8' }).trim();
}

describe('the production recipe: smoke test through nginx', () => {
  it('runs each tier on a test host of its own', () => {
    for (const entry of recipe.processes)
      expect(namespaceOf(entry.child.pid ?? 0), entry.name).toBe(recipe.network.hosts[entry.tier].namespace);
    for (const worker of recipe.nginxWorkers()) expect(namespaceOf(worker)).toBe(recipe.network.hosts.front.namespace);
    expect(new Set(recipe.processes.map((entry) => entry.tier))).toEqual(new Set(TIERS));
    expect(recipe.processes.filter((entry) => entry.tier === 'api')).toHaveLength(2);
    expect(recipe.processes.filter((entry) => entry.tier === 'web')).toHaveLength(2);
    expect(recipe.processes.filter((entry) => entry.tier === 'worker')).toHaveLength(2);
  });

  it('keeps the development routes shut at the public origin', async () => {
    for (const url of ['/api/dev/sms-outbox?account=13800138000', '/api/dev/captcha-outbox?deviceid=x']) {
      expect((await fetch(`${recipe.origin}${url}`)).status, url).toBe(404);
    }
    const confirm = await fetch(`${recipe.origin}/api/dev/pay/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"orderno":"XC2026120112000012345678"}',
    });
    expect(confirm.status).toBe(404);
  });

  it('signs in, buys with the sandbox, converts and views the result and the pages', async () => {
    member = await converterMember(recipe, '13912340021');
    expect(await membershipOf(member, CONVERTER_MONTH.productid)).toBeGreaterThan(Date.now() / 1000 + 20 * 86_400);

    const name = CONVERSION_FIXTURES[0];
    const tasktag = await startConversion(recipe, member, name, fixture(name));
    expect(await taskOutcome(member, tasktag, 60_000)).toBe('done');
    const pdf = await resultOf(recipe, member, tasktag);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Converted by a worker process, stored in the S3 store, not on a disk of the API hosts.
    const { db, destroy } = createDatabase({ databaseUrl: recipe.databaseUrl, poolMax: 1 });
    const job = await db
      .selectFrom('conversion_job')
      .select('locked_by')
      .where('tasktag', '=', tasktag)
      .executeTakeFirstOrThrow()
      .finally(destroy);
    const workerPids = recipe.processes.filter((entry) => entry.tier === 'worker').map((entry) => String(entry.child.pid));
    expect(workerPids).toContain(job.locked_by?.split(':')[1]);
    expect(
      readdirSync(recipe.s3Dir, { recursive: true })
        .map(String)
        .some((file) => file.includes(tasktag)),
    ).toBe(true);

    const home = await fetch(`${recipe.origin}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('迅捷CAD');
    const [post] = (await (await fetch(`${recipe.origin}/wp-json/wp/v2/posts?per_page=1`)).json()) as Array<{
      id: number;
      title: { rendered: string };
    }>;
    const article = await fetch(`${recipe.origin}/${post?.id ?? 0}.html`);
    expect(article.status).toBe(200);
    expect(await article.text()).toContain(post?.title.rendered ?? '?');
  });
});

describe('the production recipe: one process of each tier killed mid-load', () => {
  it('fails only requests in flight on a killed process, stores every accepted write and finishes every conversion', async () => {
    const before = recipe.nginxWorkers();
    const run = await loadRun(recipe, member, { durationMs: 20_000, connections: 20, devicePrefix: 'fault', withKills: true });

    expect(run.kills.map((kill) => kill.name)).toEqual([
      'api-1',
      'web-1',
      expect.stringMatching(/^worker-\d mid-conversion$/),
      'an nginx worker',
    ]);
    expect(failuresBeyondKills(run.records, run.kills)).toEqual([]);
    expect(
      failuresBeyondKills(
        run.failedStarts.map((start) => ({ ...start, target: 'conversion start', status: 0 })),
        run.kills,
      ),
    ).toEqual([]);
    // The survivors served the rest: after the last kill every kind of request succeeded again.
    const last = Math.max(...run.kills.map((kill) => kill.goneAt));
    const after = run.records.filter((record) => record.startedAt > last);
    expect(new Set(after.filter((record) => !isFailure(record)).map((record) => record.target)).size).toBe(5);
    expect(run.records.length).toBeGreaterThan(100);

    // Every batch the collector acknowledged is stored; one whose answer a kill cut off may be too.
    const batches = run.records.filter((record) => record.target === 'analytics batch');
    const accepted = acceptedEvents(batches.filter((record) => !isFailure(record)).map((record) => record.answer));
    expect(accepted).toBeGreaterThan(0);
    const stored = await storedEvents(recipe, 'fault');
    expect(stored).toBeGreaterThanOrEqual(accepted);
    expect(stored - accepted).toBeLessThanOrEqual(BATCH_EVENTS * batches.filter(isFailure).length);

    expect(run.tasktags.length).toBeGreaterThan(5);
    expect(await unfinished(member, run.tasktags, 90_000)).toEqual([]);
    // nginx's master replaced its worker.
    const workers = recipe.nginxWorkers();
    expect(workers).toHaveLength(before.length);
    expect(workers).not.toContain(run.kills[3]?.pid);
  }, 240_000);
});

// Decision 0015's budget: Lighthouse (npm `lighthouse` driving Debian's Chromium) scores the home page
// and an article at least 90 for performance and 95 for accessibility, best practices and SEO.
// Both of Lighthouse's presets run: mobile (its default: a mid-range phone on a throttled 4G link,
// simulated) and desktop. The baseline is a hand-written static page with the same head served
// from this process, scored in the same run: what a page with no application at all gets here.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import type { Config, Flags } from 'lighthouse';
import { startSite } from './site-servers';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGETS: Record<Category, number> = { performance: 90, accessibility: 95, 'best-practices': 95, seo: 95 };
const PAGES = [
  { name: 'home /', path: '/' },
  // content/help/1001-install-cad-editor.md
  { name: 'article /1001.html', path: '/1001.html' },
];

const BASELINE_HTML = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>迅捷CAD基准页</title>
<meta name="description" content="用于对比的静态页面：与网站相同的标题与描述结构，没有脚本、样式表与图片。">
<link rel="canonical" href="http://127.0.0.1/"></head><body><main><h1>迅捷CAD</h1>
<p>迅捷CAD编辑器、CAD转换器与在线CAD工具。</p><a href="/help.html">软件帮助</a></main></body></html>`;

type Scores = Record<Category, number>;

async function audit(url: string, port: number, preset: 'mobile' | 'desktop'): Promise<Scores> {
  // The site's visitors read Chinese: the browser asks for zh-CN as theirs would.
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    extraHeaders: { 'Accept-Language': 'zh-CN,zh;q=0.9' },
  };
  const config: Config | undefined = preset === 'desktop' ? desktopConfig : undefined;
  const result = await lighthouse(url, flags, config);
  if (result === undefined) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
  ) as Scores;
  // What held a score under its target: the failing audits, so a regression is readable here.
  for (const category of CATEGORIES) {
    if (scores[category] >= TARGETS[category]) continue;
    const refs = lhr.categories[category]?.auditRefs ?? [];
    const failing = refs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => `${ref.id} (${lhr.audits[ref.id]?.displayValue ?? lhr.audits[ref.id]?.score})`);
    console.log(`    ${preset} ${url} ${category} ${scores[category]}: ${failing.join(', ')}`);
  }
  return scores;
}

function serveBaseline(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.url === '/robots.txt') {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('User-agent: *\nAllow: /\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=600' });
    response.end(BASELINE_HTML);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

function row(name: string, scores: Scores): string {
  return `  ${name.padEnd(34)}${CATEGORIES.map((category) => String(scores[category]).padStart(16)).join('')}`;
}

export async function runLighthouseBench(): Promise<boolean> {
  const site = await startSite();
  const baseline = await serveBaseline();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'xcad-lighthouse-'));
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    userDataDir: profile,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--lang=zh-CN',
    ],
  });
  let isMet = true;
  try {
    // One warm-up load so the first measured page does not pay for ISR revalidation or cold caches.
    for (const page of PAGES) await fetch(`${site.web}${page.path}`);
    for (const preset of ['mobile', 'desktop'] as const) {
      console.log(`\nLighthouse ${preset} (targets: performance ${TARGETS.performance}, others ${TARGETS.seo})`);
      console.log(`  ${'page'.padEnd(34)}${CATEGORIES.map((category) => category.padStart(16)).join('')}`);
      const base = await audit(baseline.url, chrome.port, preset);
      console.log(row('baseline (static page)', base));
      for (const page of PAGES) {
        const scores = await audit(`${site.web}${page.path}`, chrome.port, preset);
        console.log(row(page.name, scores));
        const ratio = scores.performance / Math.max(1, base.performance);
        const met = CATEGORIES.every((category) => scores[category] >= TARGETS[category]);
        console.log(`  ${''.padEnd(34)}performance / baseline = ${ratio.toFixed(2)}; ${met ? 'targets MET' : 'targets NOT met'}`);
        isMet = isMet && met;
      }
    }
  } finally {
    chrome.kill();
    rmSync(profile, { recursive: true, force: true });
    await baseline.close();
    await site.stop();
  }
  return isMet;
}

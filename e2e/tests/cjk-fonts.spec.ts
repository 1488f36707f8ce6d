import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Download, Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { handMadeDxf } from '../../apps/web/lib/viewer/test-drawings';
import { asVisitor } from '../support/auth';
import { DESKTOP, useBrowser } from '../support/browser';

// Decision 0025: Chinese right with no CJK font on the server (the servers run with
// CAD_SYSTEM_FONTS=0, global-setup.ts): /tools/cad2pdf and the viewer's 打印/导出 both give a PDF
// whose Chinese pdftotext reads back, and /kantu draws CJK text from the same shipped font,
// fetched in a subset of the drawing's characters only.

const browser = useBrowser();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/cad/test-fixtures');
const GBK = path.join(FIXTURES, 'gen_zh_r2000_gbk.dxf');
const CHINESE = ['卧室（主）', '客厅', '设计说明：', '混凝土强度等级', '红色文字'];

async function textOf(download: Download): Promise<{ text: string; fonts: string }> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'xcad-e2e-cjk-')), 'out.pdf');
  await download.saveAs(file);
  expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return {
    text: execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }),
    fonts: execFileSync('pdffonts', [file], { encoding: 'utf8' }),
  };
}

/** The font subsets a page fetches, with their sizes. */
function watchFonts(page: Page): { url: string; status: number; bytes: Promise<number> }[] {
  const seen: { url: string; status: number; bytes: Promise<number> }[] = [];
  page.on('response', (response: Response) => {
    if (!response.url().includes('/api/site/cad-fonts/')) return;
    seen.push({
      url: response.url(),
      status: response.status(),
      bytes: response.body().then(
        (b) => b.length,
        () => -1,
      ),
    });
  });
  return seen;
}

/** Opens a drawing and waits for its first frame (the status names it with its opening time). */
async function openInViewer(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.getByTestId('viewer-file-input').setInputFiles(file);
  const opened = new RegExp(`${file.name.replace(/\./g, '\\.')}.*\\d+\\.\\d\\d`);
  await expect.poll(async () => opened.test((await page.getByTestId('viewer-status').textContent()) ?? ''), { timeout: 45_000 }).toBe(true);
}

const dxf = (name: string, buffer: Buffer) => ({ name, mimeType: 'application/dxf', buffer });

describe('Chinese without CJK fonts on the server', () => {
  it('/tools/cad2pdf: the PDF of the GBK drawing holds its Chinese as text, in the embedded shipped font', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/tools/cad2pdf');
    await page.getByTestId('tool-file-input').setInputFiles(GBK);
    await expect.poll(() => page.getByTestId('tool-file-row').count()).toBe(1);
    await page.getByTestId('tool-start').click();
    await expect.poll(() => page.getByTestId('tool-file-row').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('tool-download').click()]);
    const { text, fonts } = await textOf(download);
    for (const s of CHINESE) expect(text).toContain(s);
    expect(text).not.toContain('?');
    expect(fonts).toMatch(/\+NotoSansSC-Regular\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  it('/kantu draws the Chinese from the shipped font, fetched for its characters only, and its 打印/导出 PDF reads the same', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    const fonts = watchFonts(page);
    await page.goto('/kantu');
    // A drawing without Chinese fetches no font.
    await openInViewer(page, dxf('hand-made.dxf', Buffer.from(handMadeDxf(), 'latin1')));
    expect(fonts).toHaveLength(0);

    await openInViewer(page, dxf('gbk.dxf', readFileSync(GBK)));
    expect(fonts.length).toBeGreaterThan(0);
    for (const f of fonts) expect(f.status).toBe(200);
    const bytes = (await Promise.all(fonts.map((f) => f.bytes))).reduce((a, b) => a + b, 0);
    // A few dozen characters: a few KB per face, where a whole face is 10-15 MB.
    expect(bytes).toBeLessThan(60_000);
    // The faces are loaded for exactly the drawing's characters.
    const loaded = await page.evaluate(() => {
      const out: { family: string; range: string }[] = [];
      document.fonts.forEach((f) => {
        const family = f.family.replace(/"/g, '');
        if (family.startsWith('Xcad Noto') && f.status === 'loaded') out.push({ family, range: f.unicodeRange });
      });
      return out;
    });
    expect(loaded.map((f) => f.family).sort()).toEqual(['Xcad Noto Sans SC', 'Xcad Noto Serif SC']);
    const covered = loaded.map((f) => f.range).join(', ');
    for (const ch of '卧室客厅设计说明') expect(covered).toContain(`U+${(ch.codePointAt(0) as number).toString(16).toUpperCase()}`);
    expect(await page.evaluate(() => document.fonts.check('40px "Xcad Noto Sans SC"', '卧室客厅'))).toBe(true);

    // Opening it again asks for nothing more.
    const before = fonts.length;
    await openInViewer(page, dxf('gbk-again.dxf', readFileSync(GBK)));
    expect(fonts).toHaveLength(before);

    await page.getByTestId('viewer-export').click();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByTestId('viewer-export-start').click(),
    ]);
    const { text, fonts: pdfFonts } = await textOf(download);
    for (const s of CHINESE) expect(text).toContain(s);
    expect(pdfFonts).toMatch(/\+NotoSansSC-Regular/);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { asVisitor } from '../support/auth';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';

// Online conversion (decision 0019): a visitor converts a corpus DWG to PDF on /tools/cad2pdf, watches it upload and
// convert, downloads a PDF of the drawing (its text read back with pdftotext), and cancels a
// conversion while it uploads. Decision 0036: a batch with a file that is not a drawing converts the
// others, names the bad file and why, and does not offer to convert it again.

const browser = useBrowser();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/cad/test-fixtures');

describe('online conversion', () => {
  it('converts a DWG to a PDF of the drawing and downloads it', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/tools/cad2pdf');
    await page.getByTestId('tool-file-input').setInputFiles(path.join(FIXTURES, 'acs_sample_AC1015.dwg'));
    await expect.poll(() => page.getByTestId('tool-file-row').count()).toBe(1);
    await page.getByTestId('tool-start').click();
    // Progress is shown while it runs; the row ends done.
    await page.getByTestId('tool-file-progress').first().waitFor();
    await expect.poll(() => page.getByTestId('tool-file-row').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');

    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('tool-download').click()]);
    expect(download.suggestedFilename()).toBe('acs_sample_AC1015.pdf');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'xcad-e2e-pdf-'));
    const pdf = path.join(dir, 'out.pdf');
    await download.saveAs(pdf);
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The drawing's own text is in the PDF as real text.
    const text = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' });
    expect(text.replace(/\s+/g, ' ').length).toBeGreaterThan(20);
    // The phone QR of the result.
    const qr = page.getByTestId('tool-qr');
    await qr.waitFor();
    await expect.poll(() => qr.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(50);
  });

  it('converts the good files of a batch and names the one that is not a drawing, without offering it again', async () => {
    const page = await browser.page(asVisitor({ ...DESKTOP, viewport: { width: 1280, height: 800 } }));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'xcad-e2e-batch-'));
    const door = path.join(dir, '门.dxf');
    const notes = path.join(dir, '施工说明.dxf');
    const text = path.join(dir, '文字.dxf');
    writeFileSync(door, readFileSync(path.join(FIXTURES, 'ezdxf_wipeout_door.dxf')));
    // Named like a drawing, but only text inside: the server judges it by its bytes.
    writeFileSync(notes, '施工说明：本图尺寸以毫米计，标高以米计。\n'.repeat(40));
    writeFileSync(text, readFileSync(path.join(FIXTURES, 'ezdxf_text.dxf')));
    await page.goto('/tools/cad2pdf');
    await page.getByTestId('tool-file-input').setInputFiles([door, notes, text]);
    await expect.poll(() => page.getByTestId('tool-file-row').count()).toBe(3);
    await page.getByTestId('tool-start').click();
    const workbench = page.getByTestId('tool-workbench');
    await expect.poll(() => workbench.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');

    const rows = page.getByTestId('tool-file-row');
    const states = await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-state')));
    expect(states).toEqual(['done', 'failed', 'done']);
    // The bad file says which it is and why; the good ones what they became.
    const bad = rows.nth(1);
    await expect(bad.getByTestId('tool-file-name').textContent()).resolves.toBe('施工说明.dxf');
    await expect(bad.getByTestId('tool-file-reason').textContent()).resolves.toBe('文件类型不正确，请上传DWG或DXF文件');
    await expect(rows.nth(0).getByTestId('tool-file-output').textContent()).resolves.toBe('输出：门.pdf');
    await expect(rows.nth(2).getByTestId('tool-file-output').textContent()).resolves.toBe('输出：文字.pdf');
    await expect(rows.nth(0).getByTestId('tool-file-report').textContent()).resolves.toMatch(/^已转换：模型空间，共\d+个对象/);
    await expect(page.getByTestId('tool-result-counts').textContent()).resolves.toBe('2个文件转换成功，1个失败');
    // A file of the wrong type would fail again: nothing offers to convert it again.
    await expect(page.getByTestId('tool-retry').count()).resolves.toBe(0);
    await expect(bad.getByTestId('tool-file-download').count()).resolves.toBe(0);
    await expect(page.getByText('重新转换').count()).resolves.toBe(0);

    if ((await page.getByTestId('consent-accept').count()) > 0) await page.getByTestId('consent-accept').click();
    await workbench.screenshot({ path: path.join(dir, 'batch-1280.png') });
    process.stdout.write(`batch result screenshots: ${dir}\n`);

    // Each good file downloads alone, and both together as one zip named for them.
    const [one] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      rows.nth(2).getByTestId('tool-file-download').click(),
    ]);
    expect(one.suggestedFilename()).toBe('文字.pdf');
    const single = path.join(dir, 'one.pdf');
    await one.saveAs(single);
    expect(readFileSync(single).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const [all] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('tool-download').click()]);
    expect(all.suggestedFilename()).toBe('转换结果_2个文件.zip');
    const zip = path.join(dir, 'all.zip');
    await all.saveAs(zip);
    const listing = execFileSync(
      'python3',
      ['-c', 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', zip],
      {
        encoding: 'utf8',
      },
    );
    expect(listing.trim().split('\n')).toEqual(['门.pdf', '文字.pdf']);

    // The same page on a phone.
    await expect.poll(() => page.getByTestId('tool-download').isDisabled(), { timeout: 10_000 }).toBe(false);
    await page.setViewportSize({ width: 390, height: 844 });
    await workbench.screenshot({ path: path.join(dir, 'batch-390.png') });
  });

  it('names a saved-as drawing for its version and says in Chinese what the version changed', async () => {
    const page = await browser.page(asVisitor({ ...DESKTOP, viewport: { width: 1280, height: 800 } }));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'xcad-e2e-saveas-'));
    const splines = path.join(dir, '样条.dxf');
    writeFileSync(splines, readFileSync(path.join(FIXTURES, 'skydxf_splines.dxf')));
    await page.goto('/tools/cad2ver');
    await page.getByTestId('tool-option-format-dxf').check({ force: true });
    await page.getByTestId('tool-option-version').selectOption('R12');
    await page.getByTestId('tool-file-input').setInputFiles(splines);
    await page.getByTestId('tool-start').click();
    const workbench = page.getByTestId('tool-workbench');
    await expect.poll(() => workbench.getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    const row = page.getByTestId('tool-file-row');
    await expect(row.getByTestId('tool-file-output').textContent()).resolves.toBe('输出：样条_R12.dxf');
    // One file: the result's button downloads it, under its new name.
    await expect(row.getByTestId('tool-file-download').count()).resolves.toBe(0);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('tool-download').click()]);
    expect(download.suggestedFilename()).toBe('样条_R12.dxf');
    // The splines become polylines, and the layer's lineweight (R12 has none) is a detail left out.
    const changes = await row.getByTestId('tool-file-change').allTextContents();
    expect(changes).toHaveLength(2);
    expect(changes).toContain('样条曲线 ×2：已转换为多段线，外观不变');
    expect(changes).toContain('图层 ×1：目标版本无法保留部分细节，细节已略去，对象保留');
    if ((await page.getByTestId('consent-accept').count()) > 0) await page.getByTestId('consent-accept').click();
    await expect.poll(() => page.getByTestId('tool-download').isDisabled(), { timeout: 10_000 }).toBe(false);
    await workbench.screenshot({ path: path.join(dir, 'saveas-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await workbench.screenshot({ path: path.join(dir, 'saveas-390.png') });
    process.stdout.write(`save-as result screenshots: ${dir}\n`);
  });

  it('cancels a conversion while it uploads', async () => {
    const page = await browser.page(asVisitor(MOBILE));
    // A slow network: each chunk takes two seconds to leave.
    await page.route('**/api/v4/uploadfile**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await route.continue();
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'xcad-e2e-dxf-'));
    const file = path.join(dir, '总平面图.dxf');
    writeFileSync(file, readFileSync(path.join(FIXTURES, 'ezdxf_hatches_1.dxf')));
    await page.goto('/tools/cad2pdf');
    await page.getByTestId('tool-file-input').setInputFiles(file);
    await page.getByTestId('tool-start').click();
    await page.getByTestId('tool-cancel').click();
    await expect.poll(() => page.getByTestId('tool-workbench').getAttribute('data-phase'), { timeout: 15_000 }).toBe('cancelled');
    await expect(page.getByTestId('tool-download').count()).resolves.toBe(0);
  });
});

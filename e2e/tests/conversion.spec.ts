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
// conversion while it uploads.

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

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { xclipDxf } from '@xcad/cad/testing';
import { handMadeDxf } from '../../apps/web/lib/viewer/test-drawings';
import { fitView, toScreen } from '../../apps/web/lib/viewer/view';
import { asVisitor } from '../support/auth';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';

// The online viewer /kantu (decision 0021) in Chromium (WebGL through SwiftShader): a DXF and a DWG open,
// a layer switched off leaves the picture, a layout tab shows its sheet, the measure tool reads
// the hand-made drawing's 500 mm line exactly, one finger pans and two pinch on a 375 px phone,
// and damaged files get a clear message.

const browser = useBrowser();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/cad/test-fixtures');
/** The hand-made drawing's extents (test-drawings.ts): the 1000 mm square. */
const HAND_BOUNDS = { minX: 0, minY: 0, maxX: 1000, maxY: 1000 };

function handMade(name = 'hand-made.dxf') {
  return { name, mimeType: 'application/dxf', buffer: Buffer.from(handMadeDxf(), 'latin1') };
}

async function open(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  await page.getByTestId('viewer-file-input').setInputFiles(file);
  await expect.poll(() => page.getByTestId('viewer').getAttribute('data-state'), { timeout: 45_000 }).toBe('ready');
  await expect
    .poll(async () => Number((await page.getByTestId('viewer-stage').getAttribute('data-frames')) ?? 0), { timeout: 15_000 })
    .toBeGreaterThan(0);
}

/** Waits until the canvas has drawn another frame after `action`. */
async function nextFrame(page: Page, action: () => Promise<unknown>): Promise<void> {
  const stage = page.getByTestId('viewer-stage');
  const before = Number((await stage.getAttribute('data-frames')) ?? 0);
  await action();
  await expect.poll(async () => Number((await stage.getAttribute('data-frames')) ?? 0)).toBeGreaterThan(before);
}

interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

async function pixelsOf(target: Locator): Promise<Pixels> {
  const image = await loadImage(await target.screenshot());
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data, width, height } = ctx.getImageData(0, 0, image.width, image.height);
  return { data, width, height };
}

function count(p: Pixels, test: (r: number, g: number, b: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < p.data.length; i += 4) if (test(p.data[i] as number, p.data[i + 1] as number, p.data[i + 2] as number)) n++;
  return n;
}

const isRed = (r: number, g: number, b: number) => r > 160 && g < 90 && b < 90;

/** Box of the red pixels (the hand-made drawing's WALLS layer). */
function redBox(p: Pixels): { minX: number; maxX: number; minY: number; maxY: number } {
  return boxOf(p, isRed);
}

/** Box of the pixels that pass `test`. */
function boxOf(p: Pixels, test: (r: number, g: number, b: number) => boolean): { minX: number; maxX: number; minY: number; maxY: number } {
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (let y = 0; y < p.height; y++)
    for (let x = 0; x < p.width; x++) {
      const i = 4 * (y * p.width + x);
      if (!test(p.data[i] as number, p.data[i + 1] as number, p.data[i + 2] as number)) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  return { minX, maxX, minY, maxY };
}

/**
 * Box of the pixels unlike the canvas's corner (the background): everything drawn. The outermost
 * pixels are left out: the screenshot's last row can catch the page behind a fractional canvas.
 */
function inkBox(p: Pixels): { minX: number; maxX: number; minY: number; maxY: number } {
  const [r0, g0, b0] = [p.data[0] as number, p.data[1] as number, p.data[2] as number];
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (let y = 2; y < p.height - 2; y++)
    for (let x = 2; x < p.width - 2; x++) {
      const i = 4 * (y * p.width + x);
      if (
        Math.max(Math.abs((p.data[i] as number) - r0), Math.abs((p.data[i + 1] as number) - g0), Math.abs((p.data[i + 2] as number) - b0)) <
        60
      )
        continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  return { minX, maxX, minY, maxY };
}

describe('online viewer /kantu', () => {
  it('opens a DXF on the device, says it is not uploaded, and measures the known distance', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v4/upload')) uploads.push(request.url());
    });
    await page.goto('/kantu');
    await expect(page.getByTestId('viewer-privacy').textContent()).resolves.toContain('不会上传');
    await open(page, handMade());
    await expect(page.getByTestId('viewer-status').textContent()).resolves.toContain('本机打开');

    await page.getByTestId('viewer-measure').click();
    await page.getByTestId('viewer-measure-distance').click();
    const stage = page.getByTestId('viewer-stage');
    const box = await stage.boundingBox();
    if (!box) throw new Error('no stage');
    const view = fitView(HAND_BOUNDS, box.width, box.height);
    // Clicks a few pixels off the line's ends: the tool snaps to the drawing's own points.
    const [ax, ay] = toScreen(view, 100, 100);
    const [bx, by] = toScreen(view, 400, 500);
    await page.mouse.click(box.x + ax + 4, box.y + ay - 3);
    await page.mouse.click(box.x + bx - 3, box.y + by + 4);
    const length = page.getByTestId('viewer-measure-length');
    await length.waitFor();
    const value = Number(await length.getAttribute('data-value'));
    expect(Math.abs(value - 500) / 500).toBeLessThan(0.001);
    await expect(length.textContent()).resolves.toBe('500.000 mm');
    // Opening and measuring sent nothing to the server.
    expect(uploads).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows an XCLIPped block reference only inside its clip boundary', async () => {
    // Block B in red: lines y = 5 (x 100..120) and x = 110 (y 0..20), a filled square 114..118 x
    // 14..18 and a nested diagonal, clipped to 102..112 x 2..12; a frame 90..130 x -10..30 around it.
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/kantu');
    await open(page, { name: 'xclip.dxf', mimeType: 'application/dxf', buffer: Buffer.from(xclipDxf({ color: 1 })) });
    const pixels = await pixelsOf(page.getByTestId('viewer-canvas'));
    const frame = inkBox(pixels);
    // One-pixel red lines, antialiased: darker than the hand-made drawing's thick walls.
    const isLineRed = (r: number, g: number, b: number) => r > 90 && r > 3 * Math.max(g, b, 10);
    const red = boxOf(pixels, isLineRed);
    expect(count(pixels, isLineRed)).toBeGreaterThan(50);
    // Where the red lies, as a fraction of the frame (x from the left, y from the top).
    const fx = (px: number) => (px - frame.minX) / (frame.maxX - frame.minX);
    const fy = (py: number) => (py - frame.minY) / (frame.maxY - frame.minY);
    const slack = 3 / (frame.maxX - frame.minX);
    // Unclipped, the red would reach 0.25..0.75 across and down; clipped, 0.30..0.55 across and 0.45..0.70 down.
    expect(fx(red.minX)).toBeGreaterThan(0.3 - slack);
    expect(fx(red.maxX)).toBeLessThan(0.55 + slack);
    expect(fy(red.minY)).toBeGreaterThan(0.45 - slack);
    expect(fy(red.maxY)).toBeLessThan(0.7 + slack);
    // ...and it reaches the boundary on each side (the lines run through the whole clip).
    expect(fx(red.minX)).toBeLessThan(0.3 + slack);
    expect(fx(red.maxX)).toBeGreaterThan(0.55 - slack);
  });

  it('switching a layer off takes its lines out of the picture', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/kantu');
    await open(page, handMade());
    const canvas = page.getByTestId('viewer-canvas');
    // The panel takes room from the canvas: the picture to compare with is the one beside it.
    await nextFrame(page, () => page.getByTestId('viewer-layers').click());
    const before = count(await pixelsOf(canvas), isRed);
    expect(before).toBeGreaterThan(500);
    const walls = page.locator('[data-testid=viewer-layer][data-layer=WALLS]');
    await expect(walls.isChecked()).resolves.toBe(true);
    await nextFrame(page, () => walls.uncheck());
    const after = count(await pixelsOf(canvas), isRed);
    expect(after).toBeLessThan(before / 20);
    // And back on.
    await nextFrame(page, () => walls.check());
    expect(count(await pixelsOf(canvas), isRed)).toBeGreaterThan(before * 0.8);
  });

  it('a layout tab shows the layout sheet with its viewports', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/kantu');
    await open(page, path.join(FIXTURES, 'ezdxf_VP4.dxf'));
    const tabs = page.getByTestId('viewer-tab');
    expect(await tabs.count()).toBeGreaterThan(1);
    const stage = page.getByTestId('viewer-stage');
    await expect(stage.getAttribute('data-scene')).resolves.toMatch(/^model$/i);
    const canvas = page.getByTestId('viewer-canvas');
    // Model space is on black; a layout's sheet lies on a grey surround (0x2b2f36).
    const isSurround = (r: number, g: number, b: number) => Math.abs(r - 0x2b) < 6 && Math.abs(g - 0x2f) < 6 && Math.abs(b - 0x36) < 6;
    expect(count(await pixelsOf(canvas), isSurround)).toBe(0);
    const layout = tabs.nth(1);
    const name = await layout.getAttribute('data-scene');
    await nextFrame(page, () => layout.click());
    await expect(stage.getAttribute('data-scene')).resolves.toBe(name);
    await expect(layout.getAttribute('aria-selected')).resolves.toBe('true');
    const shown = await pixelsOf(canvas);
    expect(count(shown, isSurround)).toBeGreaterThan(1000);
    // The sheet is drawn on: more than the background colour inside it.
    expect(count(shown, (r, g, b) => r + g + b > 60 && !isSurround(r, g, b))).toBeGreaterThan(500);
  });

  it('opens a DWG through the LibreDWG worker and names its licence and source', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/kantu');
    await open(page, path.join(FIXTURES, 'acs_sample_AC1015.dwg'));
    const notice = page.getByTestId('viewer-dwg-notice');
    await expect(notice.textContent()).resolves.toContain('LibreDWG，GPL-3.0');
    await notice.getByRole('button').click();
    const source = page.getByTestId('viewer-dwg-source');
    await expect(source.locator('a[href*="libredwg"]').count()).resolves.toBeGreaterThanOrEqual(2);
    const lit = count(await pixelsOf(page.getByTestId('viewer-canvas')), (r, g, b) => r + g + b > 90);
    expect(lit).toBeGreaterThan(2000);
  });

  it('a damaged file or a file that is no drawing gets a clear message', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/kantu');
    const junk = Buffer.alloc(4096);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 131 + 17) % 251;
    Buffer.from('AC1015').copy(junk);
    await page.getByTestId('viewer-file-input').setInputFiles({ name: 'broken.dwg', mimeType: 'application/octet-stream', buffer: junk });
    const error = page.getByTestId('viewer-error');
    await error.waitFor({ timeout: 45_000 });
    await expect(error.getAttribute('data-error')).resolves.toBe('corrupt');
    await expect(error.textContent()).resolves.toContain('文件已损坏或不完整');

    const half = readFileSync(path.join(FIXTURES, 'ezdxf_hatches_1.dxf')).subarray(0, 5000);
    await page.getByTestId('viewer-file-input').setInputFiles({
      name: 'cut.dxf',
      mimeType: 'application/dxf',
      buffer: Buffer.concat([half, Buffer.from('\r\n  0\r\nGARBAGE\r\n\u0001\u0002')]),
    });
    await expect.poll(() => page.getByTestId('viewer').getAttribute('data-state'), { timeout: 30_000 }).toMatch(/^(error|ready)$/);

    await page
      .getByTestId('viewer-file-input')
      .setInputFiles({ name: 'notes.dxf', mimeType: 'text/plain', buffer: Buffer.from('meeting notes, not a drawing\n') });
    await expect.poll(() => page.getByTestId('viewer-error').getAttribute('data-error'), { timeout: 30_000 }).toBe('not-drawing');
    await expect(page.getByTestId('viewer-error').textContent()).resolves.toContain('不是DWG或DXF图纸');
    expect(errors).toEqual([]);
  });

  it('opens a daily picture drawing by link, and tells a visitor a member drawing needs a sign-in', async () => {
    const response = await fetch(`${browser.baseUrl}/wp-json/wp/v2/get_dailypics?per_page=100`);
    const pictures = (await response.json()) as { data: { ID: number; meta: { file?: string } }[] };
    const withFile = pictures.data.find((p) => /\.dxf$/i.test(p.meta.file ?? ''));
    expect(withFile).toBeDefined();
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto(`/dailypics/${withFile?.ID}`);
    await page.getByTestId('dailypic-open-viewer').click();
    await page.waitForURL(/\/kantu\?file=/);
    await expect.poll(() => page.getByTestId('viewer').getAttribute('data-state'), { timeout: 45_000 }).toBe('ready');
    const name = (withFile?.meta.file ?? '').split('/').pop() ?? '';
    await expect.poll(() => page.getByTestId('viewer-status').textContent()).toContain(name);

    const members = (await (await fetch(`${browser.baseUrl}/api/site/drawings?access=member&per_page=1`)).json()) as {
      items: { id: number }[];
    };
    const id = members.items[0]?.id;
    expect(id).toBeDefined();
    await page.goto(`/kantu?file=/api/site/drawings/${id}/file`);
    await expect.poll(() => page.getByTestId('viewer-error').getAttribute('data-error'), { timeout: 20_000 }).toBe('signin');
  });

  it('prints through the online conversion: the PDF of the layout on screen downloads', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/kantu');
    await open(page, handMade());
    await page.getByTestId('viewer-export').click();
    const dialog = page.getByTestId('viewer-export-dialog');
    await expect(dialog.textContent()).resolves.toContain('上传到服务器');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByTestId('viewer-export-start').click(),
    ]);
    expect(download.suggestedFilename()).toBe('hand-made.pdf');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('pans with one finger and pinches with two on a 375 px phone, with a compact toolbar', async () => {
    const page = await browser.page(asVisitor(MOBILE));
    await page.goto('/kantu');
    await open(page, handMade());
    const toolbar = page.getByTestId('viewer-toolbar');
    const bar = await toolbar.boundingBox();
    expect(bar?.width).toBeLessThanOrEqual(375);
    expect(bar?.height).toBeLessThan(56);
    const stage = page.getByTestId('viewer-stage');
    await stage.scrollIntoViewIfNeeded();
    const box = await stage.boundingBox();
    if (!box) throw new Error('no stage');
    const canvas = page.getByTestId('viewer-canvas');
    const start = redBox(await pixelsOf(canvas));
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: [number, number][]) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x: box.x + x, y: box.y + y, id })) });

    // One finger: 60 px right, 40 px down.
    const cx = box.width / 2,
      cy = box.height / 2;
    await nextFrame(page, async () => {
      await touch('touchStart', [[cx, cy]]);
      for (let k = 1; k <= 6; k++) await touch('touchMove', [[cx + 10 * k, cy + (40 * k) / 6]]);
      await touch('touchEnd', []);
    });
    const panned = redBox(await pixelsOf(canvas));
    // Screenshots are at the device scale (2): 60 CSS px is 120 image pixels.
    expect(Math.abs(panned.minX - start.minX - 120)).toBeLessThanOrEqual(4);
    expect(Math.abs(panned.minY - start.minY - 80)).toBeLessThanOrEqual(4);

    // Two fingers closing from 200 px apart to 100: half the size.
    await nextFrame(page, async () => {
      await touch('touchStart', [
        [cx - 100, cy],
        [cx + 100, cy],
      ]);
      for (let k = 1; k <= 5; k++)
        await touch('touchMove', [
          [cx - 100 + 10 * k, cy],
          [cx + 100 - 10 * k, cy],
        ]);
      await touch('touchEnd', []);
    });
    const pinched = redBox(await pixelsOf(canvas));
    // Heights: the pan pushed the square's right side off the narrow screen, not its top or bottom.
    const ratio = (pinched.maxY - pinched.minY) / (panned.maxY - panned.minY);
    expect(ratio).toBeGreaterThan(0.46);
    expect(ratio).toBeLessThan(0.54);
  });

  describe('on a 390 px phone (issue 28)', () => {
    const PHONE = { ...MOBILE, viewport: { width: 390, height: 844 } };
    const TOOLS = [
      'open',
      'extents',
      'zoomIn',
      'zoomOut',
      'window',
      'measure',
      'layers',
      'background',
      'lineweights',
      'fullscreen',
      'export',
    ];

    /** Whether the element's whole box is inside the window. */
    const isInWindow = (box: { x: number; y: number; width: number; height: number } | null) =>
      box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844;

    it('reaches every tool: the row fits the width with its labels, the rest are under 更多', async () => {
      const page = await browser.page(asVisitor(PHONE));
      await page.goto('/kantu');
      await open(page, handMade());
      await page.getByTestId('viewer').evaluate((node) => node.scrollIntoView({ block: 'start', behavior: 'instant' }));
      const toolbar = page.getByTestId('viewer-toolbar');
      const widths = await toolbar.evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);

      const inRow: string[] = [];
      for (const key of TOOLS) {
        const button = page.getByTestId(`viewer-${key}`);
        if (!(await button.isVisible())) continue;
        expect(isInWindow(await button.boundingBox()), key).toBe(true);
        // Each tool in the row says what it is under its icon.
        await expect(button.innerText(), key).resolves.toMatch(/\S/);
        inRow.push(key);
      }
      expect(inRow).toEqual(expect.arrayContaining(['fullscreen', 'export', 'measure', 'layers']));

      await page.getByTestId('viewer-more').click();
      const menu = page.getByTestId('viewer-more-menu');
      await menu.waitFor();
      const inMenu = TOOLS.filter((key) => !inRow.includes(key));
      for (const key of inMenu) {
        const item = page.getByTestId(`viewer-more-${key}`);
        await expect(item.isVisible(), key).resolves.toBe(true);
        expect(isInWindow(await item.boundingBox()), key).toBe(true);
      }
      expect(inRow.length + inMenu.length).toBe(TOOLS.length);

      // A tool from the menu works, and the menu closes.
      await page.getByTestId('viewer-more-window').click();
      await menu.waitFor({ state: 'detached' });
      await expect(page.getByTestId('viewer-stage').getAttribute('data-tool')).resolves.toBe('window');
      // 全屏 is one tap away.
      await page.getByTestId('viewer-fullscreen').click();
      await expect.poll(() => page.getByTestId('viewer-fullscreen').getAttribute('title')).toBe('退出全屏');
    });

    it('keeps the measure panel away from the point just picked', async () => {
      const page = await browser.page(asVisitor(PHONE));
      await page.goto('/kantu');
      await open(page, handMade());
      await page.getByTestId('viewer-measure').click();
      // The viewer fills the window below the header once scrolled to (its scroll margin).
      await page.getByTestId('viewer').evaluate((node) => node.scrollIntoView({ block: 'start', behavior: 'instant' }));
      const stage = page.getByTestId('viewer-stage');
      const box = await stage.boundingBox();
      if (!box) throw new Error('no stage');
      const panel = page.getByTestId('viewer-measure-panel');
      const contains = (rect: { x: number; y: number; width: number; height: number } | null, x: number, y: number) =>
        rect !== null && x >= rect.x && x <= rect.x + rect.width && y >= rect.y && y <= rect.y + rect.height;

      // Two points low in the drawing: the panel keeps to the top, and the result is in it.
      const low: [number, number][] = [
        [box.x + box.width * 0.3, box.y + box.height * 0.8],
        [box.x + box.width * 0.7, box.y + box.height * 0.85],
      ];
      for (const [x, y] of low) await page.touchscreen.tap(x, y);
      await page.getByTestId('viewer-measure-length').waitFor();
      await expect(panel.getAttribute('data-dock')).resolves.toBe('top');
      for (const [x, y] of low) expect(contains(await panel.boundingBox(), x, y)).toBe(false);
      const panelBox = await panel.boundingBox();
      expect(panelBox?.height ?? box.height).toBeLessThan(box.height * 0.4);

      // A point in the upper half, between the panel and the middle: the panel moves to the bottom.
      const top = (panelBox?.y ?? 0) + (panelBox?.height ?? 0);
      const [hx, hy] = [box.x + box.width * 0.5, (top + box.y + box.height / 2) / 2];
      await page.touchscreen.tap(hx, hy);
      await expect.poll(() => panel.getAttribute('data-dock')).toBe('bottom');
      expect(contains(await panel.boundingBox(), hx, hy)).toBe(false);
    });

    it('folds the drawing notices to one line, and 展开 shows them all', async () => {
      const page = await browser.page(asVisitor(PHONE));
      await page.goto('/kantu');
      await open(page, path.join(FIXTURES, 'acs_sample_AC1015.dwg'));
      const box = page.getByTestId('viewer-notice-box');
      const lines = box.locator('li');
      await expect(lines.count()).resolves.toBeGreaterThan(1);
      const folded = await page.getByTestId('viewer-notices').boundingBox();
      // The DWG licence line and one notice line: well under a fifth of the screen.
      expect(folded?.height ?? 999).toBeLessThan(844 / 5);
      await expect(lines.nth(1).isVisible()).resolves.toBe(false);

      await page.getByTestId('viewer-notice-toggle').click();
      const count = await lines.count();
      for (let index = 0; index < count; index++) await expect(lines.nth(index).isVisible()).resolves.toBe(true);
      await expect(page.getByTestId('viewer-notice-toggle').innerText()).resolves.toBe('收起');
    });
  });
});

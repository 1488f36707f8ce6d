import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FEEDBACK_LIMITS, FEEDBACK_MESSAGES, endpoints } from '@xcad/protocol';
import { solidPng } from '@xcad/cad/png';
import { createDatabase } from '@xcad/db';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { apiAs, asVisitor, signInContext } from '../support/auth';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';
import { FIXTURE_PASSWORD, FIXTURE_PHONES } from '../support/fixtures';

// Decision 0013: the feedback (/意见反馈.html, /jianyi.html) and complaint (/complaint.html) forms as a
// person fills them in, checked against what the servers stored: the e2e SQLite database and the
// storage folder the global set-up provides.

const browser = useBrowser();
const database = createDatabase({ sqlitePath: inject('sqlitePath') });

afterAll(async () => {
  await database.destroy();
});

const FEEDBACK_PATH = encodeURI('/意见反馈.html');

/** A real PNG of `size`x`size` pixels of one colour. */
function tinyPng(size = 8): Buffer {
  return solidPng(size, [36, 104, 242]);
}

/** A visitor with an address of their own, and that address (rows are found by it). */
function visitor(options: BrowserContextOptions): { options: BrowserContextOptions; ip: string } {
  const visiting = asVisitor(options);
  return { options: visiting, ip: String(visiting.extraHTTPHeaders?.['x-forwarded-for']) };
}

function rowsFrom(ip: string) {
  return database.db.selectFrom('feedback_submission').selectAll().where('ip', '=', ip).execute();
}

function rowOf(ticketNo: string) {
  return database.db.selectFrom('feedback_submission').selectAll().where('ticket_no', '=', ticketNo).executeTakeFirst();
}

/** Every submit call the page sends. */
function submitCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/v4\/(?:feedback|complaint)submit$/.test(request.url())) calls.push(request.url());
  });
  return calls;
}

/** Opens a form page and waits until React has hydrated the form (its handlers are attached). */
async function openForm(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('[data-testid="feedback-form"][data-ready]').waitFor();
}

function errorOf(page: Page, field: string): Promise<string> {
  return page
    .getByTestId(`error-${field}`)
    .innerText()
    .then((text) => text.trim());
}

async function ticketShown(page: Page): Promise<string> {
  await page.getByTestId('feedback-thanks').waitFor({ timeout: 15_000 });
  return (await page.getByTestId('ticket-no').innerText()).trim();
}

async function hasNoHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

const CONTENT = '用CAD编辑器打开AutoCAD 2018格式的DWG后，标注文字全部显示为问号，换了字体也不行。';

describe('/意见反馈.html', () => {
  it('shows the exact messages on blur and on submit, and sends nothing while the input is bad', async () => {
    const { options, ip } = visitor(DESKTOP);
    const page = await browser.page(options);
    const calls = submitCalls(page);
    await openForm(page, FEEDBACK_PATH);
    await expect(page.locator('h1').innerText()).resolves.toBe('意见反馈');

    // On blur: an empty content, then a short one; a phone-shaped contact gets spec §5's message.
    await page.getByTestId('field-content').focus();
    await page.getByTestId('field-contact').focus();
    await expect.poll(() => errorOf(page, 'content')).toBe(FEEDBACK_MESSAGES.contentEmpty);
    await page.getByTestId('field-content').fill('软件打不开');
    await expect.poll(() => errorOf(page, 'content')).toBe(FEEDBACK_MESSAGES.contentTooShort);
    await expect(page.getByTestId('content-counter').innerText()).resolves.toBe(`5/${FEEDBACK_LIMITS.feedbackContentMax}`);
    await page.getByTestId('field-contact').fill('12012345678');
    await page.getByTestId('field-contact').blur();
    await expect.poll(() => errorOf(page, 'contact')).toBe('请您填写正确的11位手机号');
    await page.getByTestId('field-contact').fill('QQ群');
    await page.getByTestId('field-contact').blur();
    await expect.poll(() => errorOf(page, 'contact')).toBe(FEEDBACK_MESSAGES.contactInvalid);

    // On submit: every field's message, the focus on the first, and no request.
    await page.getByTestId('feedback-submit').click();
    await expect.poll(() => errorOf(page, 'category')).toBe(FEEDBACK_MESSAGES.categoryRequired);
    await expect(errorOf(page, 'product')).resolves.toBe(FEEDBACK_MESSAGES.productRequired);
    await expect(errorOf(page, 'content')).resolves.toBe(FEEDBACK_MESSAGES.contentTooShort);
    await expect(errorOf(page, 'contact')).resolves.toBe(FEEDBACK_MESSAGES.contactInvalid);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('category-software');

    // A message goes as soon as its field is right.
    await page.getByTestId('field-contact').fill('me@example.com');
    await expect.poll(() => errorOf(page, 'contact')).toBe('');

    expect(calls).toEqual([]);
    await expect(rowsFrom(ip)).resolves.toEqual([]);
  });

  it('refuses a file that is not an image with the message, and adds no thumbnail', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await openForm(page, FEEDBACK_PATH);
    await page.getByTestId('field-screenshots').setInputFiles({
      name: 'drawing.png',
      mimeType: 'image/png',
      buffer: Buffer.from('0\nSECTION\n2\nHEADER\n9\n$ACADVER\n1\nAC1027\n0\nENDSEC\n0\nEOF\n'),
    });
    await expect.poll(() => errorOf(page, 'screenshots')).toBe(FEEDBACK_MESSAGES.screenshotType);
    await expect(page.getByTestId('screenshot-thumb').count()).resolves.toBe(0);
  });

  it('stores a good submission with a PNG screenshot and shows the ticket number', async () => {
    const { options, ip } = visitor(DESKTOP);
    const page = await browser.page(options);
    await openForm(page, FEEDBACK_PATH);
    await page.getByTestId('category-software').check({ force: true });
    await page.getByTestId('field-product').selectOption('editor');
    await page.getByTestId('field-content').fill(CONTENT);
    await page.getByTestId('field-contact').fill('800185621');
    const png = tinyPng();
    await page.getByTestId('field-screenshots').setInputFiles({ name: 'question-marks.png', mimeType: 'image/png', buffer: png });
    await page.getByTestId('screenshot-thumb').waitFor();
    await expect(page.getByTestId('screenshot-thumb').locator('img').getAttribute('alt')).resolves.toContain('question-marks.png');

    await page.getByTestId('feedback-submit').click();
    const ticketNo = await ticketShown(page);
    expect(ticketNo).toMatch(/^FK\d{14}$/);
    await expect(page.getByTestId('feedback-thanks').getByRole('link', { name: '去帮助中心' }).getAttribute('href')).resolves.toBe(
      '/help.html',
    );

    const row = await rowOf(ticketNo);
    expect(row).toMatchObject({
      kind: 'feedback',
      category: 'software',
      product: 'editor',
      content: CONTENT,
      contact: '800185621',
      contact_type: 'qq',
      user_id: null,
      ip,
      page_path: FEEDBACK_PATH,
      status: 'new',
    });
    const shots = await database.db.selectFrom('feedback_screenshot').selectAll().where('submission_id', '=', row!.id).execute();
    expect(shots).toHaveLength(1);
    expect(shots[0]).toMatchObject({
      position: 1,
      storage_key: `private/feedback/${ticketNo}/1.png`,
      content_type: 'image/png',
      size: png.length,
    });
    await expect(readFile(path.join(inject('storageDir'), 'private', 'feedback', ticketNo, '1.png'))).resolves.toEqual(png);
    // Not served to anyone.
    const response = await fetch(`${browser.baseUrl}/content/private/feedback/${ticketNo}/1.png`);
    expect(response.status).toBe(404);
  });

  it('maps a refusal of the server to the form: the hourly cap of one address', async () => {
    const { options, ip } = visitor(DESKTOP);
    const { client } = apiAs(ip);
    for (let index = 0; index < FEEDBACK_LIMITS.submissionsPerIpPerHour; index += 1) {
      await client.call(endpoints.feedbacksubmit, {
        category: 'website',
        product: 'website',
        content: `${CONTENT}（第${index + 1}次）`,
        contact: 'me@example.com',
      });
    }
    const page = await browser.page(options);
    await openForm(page, FEEDBACK_PATH);
    await page.getByTestId('category-other').check({ force: true });
    await page.getByTestId('field-product').selectOption('viewer');
    await page.getByTestId('field-content').fill(`${CONTENT}（看图软件也一样）`);
    await page.getByTestId('field-contact').fill('me@example.com');
    await page.getByTestId('feedback-submit').click();
    await expect.poll(() => page.getByTestId('feedback-error').innerText()).toBe('提交过于频繁，每小时最多提交5次，请稍后再试');
    await expect(page.getByTestId('feedback-submit').isEnabled()).resolves.toBe(true);
    await expect(rowsFrom(ip)).resolves.toHaveLength(FEEDBACK_LIMITS.submissionsPerIpPerHour);
  });
});

describe('/jianyi.html', () => {
  it('starts on 功能建议, prefills the signed-in member’s mobile, links the row to the user, and starts again (375 px)', async () => {
    const { options, ip } = visitor(MOBILE);
    const page = await browser.page(options);
    const user = await signInContext(page.context(), FIXTURE_PHONES.ordinary, FIXTURE_PASSWORD);
    await openForm(page, '/jianyi.html');
    await expect(page.locator('h1').innerText()).resolves.toBe('意见建议');
    await expect(page.getByTestId('category-suggestion').isChecked()).resolves.toBe(true);
    await expect.poll(() => page.getByTestId('field-contact').inputValue()).toBe(FIXTURE_PHONES.ordinary);
    await hasNoHorizontalScroll(page);

    await page.getByTestId('field-product').selectOption('converter');
    await page.getByTestId('field-content').fill('批量转换PDF时希望可以按图层选择要输出的内容，现在只能整张图输出。');
    await page.getByTestId('feedback-submit').click();
    const ticketNo = await ticketShown(page);
    await hasNoHorizontalScroll(page);
    expect(await rowOf(ticketNo)).toMatchObject({
      category: 'suggestion',
      product: 'converter',
      contact: FIXTURE_PHONES.ordinary,
      user_id: Number(user.uid),
      ip,
      page_path: '/jianyi.html',
    });

    await page.getByTestId('feedback-again').click();
    await page.getByTestId('feedback-form').waitFor();
    await expect(page.getByTestId('field-content').inputValue()).resolves.toBe('');
    await expect(page.getByTestId('category-suggestion').isChecked()).resolves.toBe(true);
  });
});

describe('/en/jianyi.html', () => {
  it('is the same form in English, with its head', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await openForm(page, '/en/jianyi.html');
    await expect(page.locator('h1').innerText()).resolves.toBe('Suggestions');
    await expect(page.getByTestId('feedback-submit').innerText()).resolves.toBe('Send suggestion');
    await expect(page.getByTestId('category-suggestion').isChecked()).resolves.toBe(true);
    await expect(page.locator('link[rel="canonical"]').getAttribute('href')).resolves.toMatch(/\/en\/jianyi\.html$/);
    await expect(page.locator('link[rel="alternate"][hreflang="zh-CN"]').getAttribute('href')).resolves.toMatch(/\/jianyi\.html$/);
  });
});

describe('/complaint.html', () => {
  it('says how complaints are handled and stores a complaint with a TS ticket (375 px)', async () => {
    const { options, ip } = visitor(MOBILE);
    const page = await browser.page(options);
    const calls = submitCalls(page);
    await openForm(page, '/complaint.html');
    await expect(page.locator('h1').innerText()).resolves.toBe('在线投诉');
    await expect(page.getByTestId('feedback-aside').innerText()).resolves.toContain('1-3 个工作日');
    await hasNoHorizontalScroll(page);

    // Too short for a complaint, a QQ number is no complaint contact, a bad order number.
    await page.getByTestId('field-orderno').fill('12-34');
    await page.getByTestId('field-content').fill('客服态度很差，问题一直没有解决');
    await page.getByTestId('field-contact').fill('800185621');
    await page.getByTestId('feedback-submit').click();
    await expect.poll(() => errorOf(page, 'category')).toBe(FEEDBACK_MESSAGES.complaintCategoryRequired);
    await expect(errorOf(page, 'orderno')).resolves.toBe(FEEDBACK_MESSAGES.orderNo);
    await expect(errorOf(page, 'content')).resolves.toBe(FEEDBACK_MESSAGES.complaintContentTooShort);
    await expect(errorOf(page, 'contact')).resolves.toBe(FEEDBACK_MESSAGES.complaintContactInvalid);
    expect(calls).toEqual([]);

    const content = '3月2日开通一年会员时支付了两次68元，会员只延长了一年，请退回重复扣的68元。';
    await page.getByTestId('category-billing').check({ force: true });
    await page.getByTestId('field-orderno').fill('XJ20260302000123');
    await page.getByTestId('field-content').fill(content);
    await page.getByTestId('field-contactname').fill('王先生');
    await page.getByTestId('field-contact').fill('139 1234 5678');
    await page.getByTestId('feedback-submit').click();
    const ticketNo = await ticketShown(page);
    expect(ticketNo).toMatch(/^TS\d{14}$/);
    await hasNoHorizontalScroll(page);
    expect(calls).toHaveLength(1);
    expect(await rowOf(ticketNo)).toMatchObject({
      kind: 'complaint',
      category: 'billing',
      order_no: 'XJ20260302000123',
      content,
      contact_name: '王先生',
      contact: '13912345678',
      contact_type: 'mobile',
      ip,
      status: 'new',
    });
  });
});

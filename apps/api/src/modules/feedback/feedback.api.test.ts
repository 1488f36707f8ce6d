import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { sql } from 'kysely';
import { FEEDBACK_LIMITS, FEEDBACK_MESSAGES, PROTOCOL_ERRORS, type SignableFields } from '@xcad/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signedCall, type TestApp } from '../../test-app';
import { createAuthTestApp, freshClient, signInBySms, signedBody, type AuthTestApp } from '../auth/auth.testing';
import { solidPng } from '@xcad/cad/png';

// Decision 0013: POST /api/v4/feedbacksubmit and /api/v4/complaintsubmit, on the real app and database.

const INVALID_FIELD = 10020;
const TOO_FREQUENT = 16001;
const DUPLICATE = 16002;

let t: AuthTestApp;

beforeAll(async () => {
  t = await createAuthTestApp();
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A real PNG of `size`x`size` pixels of one colour. */
function tinyPng(size = 2): Buffer {
  return solidPng(size, [36, 104, 242]);
}

/** A JPEG's and a WebP's first bytes followed by filler: only the signature is checked. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 7)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([40, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(32, 1)]);

let sequence = 0;

/** Text no other test sends (the same text within 10 minutes is refused). */
function uniqueContent(prefix = '打开图纸后标注文字显示为问号'): string {
  sequence += 1;
  return `${prefix}，第${sequence}次出现，${randomUUID().slice(0, 8)}`;
}

function goodFeedback(extra: SignableFields = {}): SignableFields {
  return { category: 'software', product: 'editor', content: uniqueContent(), contact: '13800138000', pagepath: '/jianyi.html', ...extra };
}

function goodComplaint(extra: SignableFields = {}): SignableFields {
  return {
    category: 'billing',
    orderno: 'XJ20261121000123',
    content: uniqueContent('购买一年会员后被重复扣费两次，联系客服三天没有回复，请尽快退回多扣的68元'),
    contactname: '王先生',
    contact: 'wang@example.com',
    ...extra,
  };
}

function submit(kind: 'feedback' | 'complaint', fields: SignableFields, ip = freshClient().ip, headers: Record<string, string> = {}) {
  return signedCall(t, `/api/v4/${kind}submit`, fields, { ip, headers: { 'user-agent': 'Mozilla/5.0 (feedback test)', ...headers } });
}

function expectFieldError(result: Awaited<ReturnType<typeof submit>>, field: string, message: string): void {
  expect(result.status).toBe(200);
  expect(result.body).toEqual({ code: INVALID_FIELD, message, field });
}

function submissionCount(): Promise<number> {
  return t.database.db
    .selectFrom('feedback_submission')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

function rowOf(ticketNo: unknown) {
  return t.database.db.selectFrom('feedback_submission').selectAll().where('ticket_no', '=', String(ticketNo)).executeTakeFirst();
}

function screenshotsOf(submissionId: number) {
  return t.database.db
    .selectFrom('feedback_screenshot')
    .selectAll()
    .where('submission_id', '=', submissionId)
    .orderBy('position')
    .execute();
}

function beijingToday(): string {
  return new Date(t.clock.now() + 8 * 3_600_000).toISOString().slice(0, 10).replaceAll('-', '');
}

describe.each(['feedback', 'complaint'] as const)('POST /api/v4/%ssubmit: the request contract', (kind) => {
  const fields = () => (kind === 'feedback' ? goodFeedback() : goodComplaint());

  it('refuses a wrong signature (10002) and stores nothing', async () => {
    const before = await submissionCount();
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/v4/${kind}submit`,
      payload: { ...signedBody(t, fields()), datasign: '0'.repeat(32) },
    });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({ code: PROTOCOL_ERRORS.badSignature.code, message: PROTOCOL_ERRORS.badSignature.message });
    expect(await submissionCount()).toBe(before);
  });

  it('refuses a body without the common fields as malformed (10001)', async () => {
    const answer = await t.app.inject({ method: 'POST', url: `/api/v4/${kind}submit`, payload: fields() });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: PROTOCOL_ERRORS.malformed.code });
  });

  it('refuses a body over the limit with 413 and the screenshots message', async () => {
    // Three screenshots of 2.9 MB: each allowed alone, together far over the body limit.
    const big = Buffer.concat([tinyPng(), Buffer.alloc(2_900_000)]).toString('base64');
    const answer = await submit(kind, { ...fields(), screenshots: [big, big, big] });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ code: INVALID_FIELD, message: FEEDBACK_MESSAGES.screenshotsTooLarge, field: 'screenshots' });
  });
});

describe('POST /api/v4/feedbacksubmit', () => {
  it('stores a feedback with its source and answers an FK ticket number of today (Beijing time)', async () => {
    const fields = goodFeedback({
      category: 'suggestion',
      product: 'converter',
      content: `  ${uniqueContent()}\r\n希望批量转换时可以保留图层  `,
    });
    const sentAt = Math.floor(t.clock.now() / 1000);
    const answer = await submit('feedback', fields, '10.9.9.1');
    expect(answer.body).toMatchObject({ code: 10000 });
    const ticketno = String(answer.body['ticketno']);
    expect(ticketno).toMatch(new RegExp(`^FK${beijingToday()}\\d{6}$`));

    const row = await rowOf(ticketno);
    expect(row).toMatchObject({
      kind: 'feedback',
      category: 'suggestion',
      product: 'converter',
      order_no: null,
      content: String(fields['content']).trim().replace('\r\n', '\n'),
      contact: '13800138000',
      contact_type: 'mobile',
      contact_name: null,
      user_id: null,
      ip: '10.9.9.1',
      user_agent: 'Mozilla/5.0 (feedback test)',
      page_path: '/jianyi.html',
      status: 'new',
    });
    expect(row!.created_at - sentAt).toBeGreaterThanOrEqual(0);
    expect(row!.created_at).toBeLessThanOrEqual(Math.floor(t.clock.now() / 1000));
    expect(await screenshotsOf(row!.id)).toEqual([]);
  });

  it('stores up to three screenshots privately under private/feedback/<ticket>/ by their real type', async () => {
    const png = tinyPng(4);
    const answer = await submit(
      'feedback',
      goodFeedback({ screenshots: [png.toString('base64'), JPEG.toString('base64'), WEBP.toString('base64')] }),
    );
    expect(answer.body).toMatchObject({ code: 10000 });
    const ticketno = String(answer.body['ticketno']);
    const row = await rowOf(ticketno);
    const shots = await screenshotsOf(row!.id);
    expect(shots.map(({ position, storage_key, content_type, size }) => ({ position, storage_key, content_type, size }))).toEqual([
      { position: 1, storage_key: `private/feedback/${ticketno}/1.png`, content_type: 'image/png', size: png.length },
      { position: 2, storage_key: `private/feedback/${ticketno}/2.jpg`, content_type: 'image/jpeg', size: JPEG.length },
      { position: 3, storage_key: `private/feedback/${ticketno}/3.webp`, content_type: 'image/webp', size: WEBP.length },
    ]);
    expect(await t.storage.read(`private/feedback/${ticketno}/1.png`)).toEqual(png);
    expect(await t.storage.read(`private/feedback/${ticketno}/3.webp`)).toEqual(WEBP);

    // Never public: the content route serves content/ only.
    for (const url of [`/content/private/feedback/${ticketno}/1.png`, `/content/../private/feedback/${ticketno}/1.png`]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('accepts an e-mail, a QQ number and a spaced mobile with a country prefix as contact', async () => {
    for (const [contact, stored, type] of [
      ['user.name@example.com.cn', 'user.name@example.com.cn', 'email'],
      ['  10086123 ', '10086123', 'qq'],
      ['+86-139 1234 5678', '86-13912345678', 'mobile'],
    ] as const) {
      const answer = await submit('feedback', goodFeedback({ contact }));
      expect(answer.body, contact).toMatchObject({ code: 10000 });
      expect(await rowOf(answer.body['ticketno'])).toMatchObject({ contact: stored, contact_type: type });
    }
  });

  it.each([
    ['category', { category: '' }, FEEDBACK_MESSAGES.categoryRequired],
    ['category', { category: 'bug' }, FEEDBACK_MESSAGES.categoryRequired],
    ['product', { product: undefined }, FEEDBACK_MESSAGES.productRequired],
    ['content', { content: '' }, FEEDBACK_MESSAGES.contentEmpty],
    ['content', { content: '   \n  ' }, FEEDBACK_MESSAGES.contentEmpty],
    ['content', { content: '软件打不开了' }, FEEDBACK_MESSAGES.contentTooShort],
    ['content', { content: '图'.repeat(1001) }, FEEDBACK_MESSAGES.contentTooLong],
    ['contact', { contact: '' }, FEEDBACK_MESSAGES.contactEmpty],
    ['contact', { contact: '12012345678' }, '请您填写正确的11位手机号'],
    ['contact', { contact: 'name@example' }, FEEDBACK_MESSAGES.email],
    ['contact', { contact: '0123' }, FEEDBACK_MESSAGES.contactInvalid],
    ['contact', { contact: '微信 xunjie' }, FEEDBACK_MESSAGES.contactInvalid],
    ['pagepath', { pagepath: 'https://evil.example/' }, FEEDBACK_MESSAGES.pagePath],
  ] as const)('refuses a bad %s (%j) naming the field, and stores nothing', async (field, extra, message) => {
    const before = await submissionCount();
    expectFieldError(await submit('feedback', goodFeedback(extra)), field, message);
    expect(await submissionCount()).toBe(before);
  });

  it('counts characters as a person does: 1000 Chinese characters or emoji pass, 10 emoji are enough', async () => {
    const start = uniqueContent();
    expect((await submit('feedback', goodFeedback({ content: `${start}${'图'.repeat(1000 - start.length)}` }))).body).toMatchObject({
      code: 10000,
    });
    expect((await submit('feedback', goodFeedback({ content: '😀'.repeat(10) }))).body).toMatchObject({ code: 10000 });
  });

  it.each([
    ['a text file', [Buffer.from('这不是图片，只是一段文字说明。').toString('base64')], FEEDBACK_MESSAGES.screenshotType],
    ['a GIF', [Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1').toString('base64')], FEEDBACK_MESSAGES.screenshotType],
    ['text that is not base64', ['data:image/png;base64,iVBORw0KGgo='], FEEDBACK_MESSAGES.screenshotType],
    ['four screenshots', Array.from({ length: 4 }, () => tinyPng().toString('base64')), FEEDBACK_MESSAGES.screenshotsTooMany],
    [
      'a screenshot over 3 MB',
      [Buffer.concat([tinyPng(), Buffer.alloc(FEEDBACK_LIMITS.screenshotMaxBytes)]).toString('base64')],
      FEEDBACK_MESSAGES.screenshotTooLarge,
    ],
    [
      'two of 2.65 MB (over 5 MB together)',
      Array.from({ length: 2 }, () => Buffer.concat([tinyPng(), Buffer.alloc(2_650_000)]).toString('base64')),
      FEEDBACK_MESSAGES.screenshotsTooLarge,
    ],
    ['a list that is not a list', 'iVBORw0KGgo=', FEEDBACK_MESSAGES.screenshotType],
  ] as const)('refuses %s as screenshots, storing no row and no file', async (_name, screenshots, message) => {
    const before = await submissionCount();
    expectFieldError(await submit('feedback', goodFeedback({ screenshots })), 'screenshots', message);
    expect(await submissionCount()).toBe(before);
  });

  it('links the submission to the signed-in user by usertoken or by the session cookie; a stale token still submits', async () => {
    const caller = freshClient();
    const { userinfo } = await signInBySms(t, caller);
    const byToken = await submit('feedback', goodFeedback({ usertoken: userinfo.usertoken }));
    expect((await rowOf(byToken.body['ticketno']))?.user_id).toBe(Number(userinfo.uid));

    const byCookie = await submit('feedback', goodFeedback(), freshClient().ip, { cookie: `xcad_session=${userinfo.usertoken}` });
    expect((await rowOf(byCookie.body['ticketno']))?.user_id).toBe(Number(userinfo.uid));

    const stale = await submit('feedback', goodFeedback({ usertoken: 'f'.repeat(64) }));
    expect(stale.body).toMatchObject({ code: 10000 });
    expect((await rowOf(stale.body['ticketno']))?.user_id).toBeNull();
  });
});

describe('POST /api/v4/complaintsubmit', () => {
  it('stores a complaint with order number and contact name and answers a TS ticket number', async () => {
    const fields = goodComplaint();
    const answer = await submit('complaint', fields, '10.9.9.2');
    expect(answer.body).toMatchObject({ code: 10000 });
    const ticketno = String(answer.body['ticketno']);
    expect(ticketno).toMatch(new RegExp(`^TS${beijingToday()}\\d{6}$`));
    expect(await rowOf(ticketno)).toMatchObject({
      kind: 'complaint',
      category: 'billing',
      product: null,
      order_no: 'XJ20261121000123',
      content: fields['content'],
      contact: 'wang@example.com',
      contact_type: 'email',
      contact_name: '王先生',
      ip: '10.9.9.2',
      page_path: '',
      status: 'new',
    });
  });

  it('takes the order number and contact name as optional', async () => {
    const answer = await submit(
      'complaint',
      goodComplaint({ orderno: '', contactname: undefined, contact: '13912345678', category: 'service' }),
    );
    expect(answer.body).toMatchObject({ code: 10000 });
    expect(await rowOf(answer.body['ticketno'])).toMatchObject({
      order_no: null,
      contact_name: null,
      contact_type: 'mobile',
      category: 'service',
    });
  });

  it.each([
    ['category', { category: 'software' }, FEEDBACK_MESSAGES.complaintCategoryRequired],
    ['orderno', { orderno: '12-34' }, FEEDBACK_MESSAGES.orderNo],
    ['orderno', { orderno: 'XJ2026 1121' }, FEEDBACK_MESSAGES.orderNo],
    ['content', { content: '' }, FEEDBACK_MESSAGES.complaintContentEmpty],
    ['content', { content: '客服态度很差，问题一直没有解决' }, FEEDBACK_MESSAGES.complaintContentTooShort],
    ['content', { content: '退'.repeat(1001) }, FEEDBACK_MESSAGES.complaintContentTooLong],
    ['contactname', { contactname: '王'.repeat(21) }, FEEDBACK_MESSAGES.contactNameTooLong],
    ['contactname', { contactname: '<b>王</b>' }, FEEDBACK_MESSAGES.contactNameInvalid],
    ['contact', { contact: '' }, FEEDBACK_MESSAGES.complaintContactEmpty],
    ['contact', { contact: '10086123' }, FEEDBACK_MESSAGES.complaintContactInvalid],
    ['contact', { contact: '1381234567' }, FEEDBACK_MESSAGES.complaintContactInvalid],
    ['contact', { contact: '19912345678' }, ''],
  ] as const)('checks %s (%j)', async (field, extra, message) => {
    const answer = await submit('complaint', goodComplaint(extra));
    if (message === '') expect(answer.body).toMatchObject({ code: 10000 });
    else expectFieldError(answer, field, message);
  });
});

describe('caps', () => {
  it('takes five submissions an hour from one address, refuses the sixth with retryafter, and takes more an hour later', async () => {
    const ip = '10.77.0.1';
    for (let index = 0; index < FEEDBACK_LIMITS.submissionsPerIpPerHour; index += 1) {
      const kind = index % 2 === 0 ? 'feedback' : 'complaint';
      const answer = await submit(kind, kind === 'feedback' ? goodFeedback() : goodComplaint(), ip);
      expect(answer.body, `submission ${index + 1}`).toMatchObject({ code: 10000 });
      t.clock.advance(60_000);
    }
    const before = await submissionCount();
    const refused = await submit('feedback', goodFeedback({ screenshots: [tinyPng().toString('base64')] }), ip);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      code: TOO_FREQUENT,
      message: '提交过于频繁，每小时最多提交5次，请稍后再试',
      retryafter: expect.any(Number),
    });
    // Until the first of the five is an hour old (the app's clock runs on real seconds too).
    expect(refused.body['retryafter']).toBeGreaterThanOrEqual(3_600 - 5 * 60 - 3);
    expect(refused.body['retryafter']).toBeLessThanOrEqual(3_600 - 5 * 60);
    expect(await submissionCount()).toBe(before);

    // Another address is not affected.
    expect((await submit('feedback', goodFeedback(), '10.77.0.2')).body).toMatchObject({ code: 10000 });

    t.clock.advance((3_600 - 5 * 60) * 1000);
    expect((await submit('feedback', goodFeedback(), ip)).body).toMatchObject({ code: 10000 });
  });

  it('refuses the same text of the same kind within 10 minutes from anyone, then takes it again', async () => {
    const content = uniqueContent('在线转换DWG转PDF时，线宽全部变成一样粗');
    expect((await submit('feedback', goodFeedback({ content }), '10.78.0.1')).body).toMatchObject({ code: 10000 });
    const again = await submit('feedback', goodFeedback({ content: `  ${content} `, product: 'online' }), '10.78.0.2');
    expect(again.body).toEqual({ code: DUPLICATE, message: '相同内容已经提交过了，请勿在10分钟内重复提交' });

    // The same words as a complaint are another matter (and long enough for one).
    expect(
      (await submit('complaint', goodComplaint({ content: `${content}，客服说是软件问题但一直没有修复` }), '10.78.0.3')).body,
    ).toMatchObject({ code: 10000 });

    t.clock.advance(FEEDBACK_LIMITS.duplicateWindowSeconds * 1000);
    expect((await submit('feedback', goodFeedback({ content }), '10.78.0.4')).body).toMatchObject({ code: 10000 });
  });

  it('counts parallel submissions from one address exactly: five of eight go through', async () => {
    const ip = '10.79.0.1';
    const answers = await Promise.all(Array.from({ length: 8 }, () => submit('feedback', goodFeedback(), ip)));
    const codes = answers.map((answer) => answer.body['code']);
    expect(codes.filter((code) => code === 10000)).toHaveLength(5);
    expect(codes.filter((code) => code === TOO_FREQUENT)).toHaveLength(3);
  });
});

describe('nothing half-written', () => {
  it('removes the screenshots already stored when storing a later one fails', async () => {
    const put = t.storage.put.bind(t.storage);
    const keys: string[] = [];
    vi.spyOn(t.storage, 'put').mockImplementation(async (key, data) => {
      keys.push(key);
      if (keys.length === 2) throw new Error('disk full');
      return put(key, data);
    });
    const before = await submissionCount();
    const answer = await submit('feedback', goodFeedback({ screenshots: [tinyPng().toString('base64'), JPEG.toString('base64')] }));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ code: PROTOCOL_ERRORS.internal.code, message: PROTOCOL_ERRORS.internal.message });
    expect(JSON.stringify(answer.body)).not.toContain('disk full');
    expect(await submissionCount()).toBe(before);
    expect(await t.storage.stat(keys[0]!)).toBeUndefined();
  });
});

describe('a database failure after the files were stored', () => {
  let broken: TestApp;

  beforeAll(async () => {
    broken = await createTestApp();
    // The screenshot rows cannot be written: the submission's transaction fails after its insert.
    await sql`drop table feedback_screenshot`.execute(broken.database.db);
  });

  afterAll(async () => {
    await broken.close();
  });

  it('rolls the submission back and removes its stored files', async () => {
    const answer = await signedCall(broken, '/api/v4/feedbacksubmit', goodFeedback({ screenshots: [tinyPng().toString('base64')] }));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ code: PROTOCOL_ERRORS.internal.code, message: PROTOCOL_ERRORS.internal.message });
    const rows = await broken.database.db.selectFrom('feedback_submission').select('id').execute();
    expect(rows).toEqual([]);
    const left = await readdir(broken.storage.root, { recursive: true }).catch(() => []);
    expect(left.filter((entry) => /\.(?:png|jpg|webp)$/.test(String(entry)))).toEqual([]);
  });
});

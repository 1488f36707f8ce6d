import {
  OPERATOR_CSRF_HEADER,
  OPERATOR_LIMITS,
  OPERATOR_ROLES,
  ZAuditPage,
  ZDashboard,
  ZOperatorUserDetail,
  ZUserSearchPage,
  type TOperatorRole,
} from '@xcad/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, lastCode, otherCode, signInBySms, type AuthTestApp } from './auth.testing';
import {
  auditRows,
  cookieOf,
  operatorGet,
  operatorPhone,
  operatorPost,
  signInOperator,
  SITE_ORIGIN,
  type SignedInOperator,
} from './operator.testing';

// Decision 0042 on the real app and database (SQLite and PostgreSQL): the back office's sign-in (phone
// + SMS code, its own cookie, 30 minutes idle), the one guard (roles 403, CSRF and Origin refused),
// the operators a 管理员 manages, the user calls, and the audit log every change writes.

let t: AuthTestApp;
const signedIn = new Map<TOperatorRole, SignedInOperator>();

beforeAll(async () => {
  t = await createAuthTestApp();
  for (const role of OPERATOR_ROLES) signedIn.set(role, await signInOperator(t, [role]));
});

afterAll(async () => {
  await t.close();
});

function as(role: TOperatorRole): SignedInOperator {
  const operator = signedIn.get(role);
  if (operator === undefined) throw new Error(`no ${role}`);
  return operator;
}

async function siteUser() {
  const caller = freshClient();
  const { userinfo } = await signInBySms(t, caller);
  return { caller, phone: caller.phone, uid: Number(userinfo.uid), usertoken: userinfo.usertoken };
}

describe('operator sign-in', () => {
  it('sends a code to an operator, opens a console session with its own HttpOnly SameSite=Strict cookie, and audits it', async () => {
    const phone = operatorPhone();
    const operator = await signInOperator(t, ['support'], phone);
    expect(operator).toMatchObject({ roles: ['support'], maskedPhone: `${phone.slice(0, 3)}****${phone.slice(7)}` });
    expect(operator.csrf.length).toBeGreaterThan(20);
    const me = await operatorGet(t, operator, '/api/operator/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ userId: operator.userId, roles: ['support'], csrf: operator.csrf });
    expect(me.headers['cache-control']).toBe('no-store');
    const logins = (await auditRows(t, 'operator.login')).filter((row) => Number(row.operator_id) === operator.userId);
    expect(logins).toHaveLength(1);

    // The cookie's attributes.
    await createSecondCode(phone);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login',
      headers: { origin: SITE_ORIGIN },
      payload: { phone, code: lastCode(t, phone) },
    });
    expect(String(again.headers['set-cookie'])).toMatch(/^xcad_operator=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
  });

  async function createSecondCode(phone: string): Promise<void> {
    t.clock.advance(61_000);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login/sms',
      headers: { origin: SITE_ORIGIN },
      payload: { phone },
    });
    expect(sent.statusCode).toBe(200);
  }

  it('answers a phone that is not an operator the same, and sends it nothing; its code cannot be made up', async () => {
    const user = await siteUser();
    const before = t.outbox.messagesFor(user.phone).length;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login/sms',
      headers: { origin: SITE_ORIGIN },
      payload: { phone: user.phone },
    });
    expect(sent.json()).toEqual({ sent: true });
    expect(t.outbox.messagesFor(user.phone)).toHaveLength(before);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login',
      headers: { origin: SITE_ORIGIN },
      payload: { phone: user.phone, code: '1234' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ code: 19310 });
    expect(login.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a wrong code, a user code (another purpose), a bad phone, and a sign-in posted from another site', async () => {
    const phone = operatorPhone();
    await signInOperator(t, ['finance'], phone);
    t.clock.advance(61_000);
    await t.app.inject({ method: 'POST', url: '/api/operator/login/sms', headers: { origin: SITE_ORIGIN }, payload: { phone } });
    const code = lastCode(t, phone);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login',
      headers: { origin: SITE_ORIGIN },
      payload: { phone, code: otherCode(code) },
    });
    expect(wrong.json()).toMatchObject({ code: 12007 });
    expect(wrong.headers['set-cookie']).toBeUndefined();

    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login',
      headers: { origin: 'https://evil.example' },
      payload: { phone, code },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toEqual({ code: 25004, message: '请求来源无效，请刷新页面后重试' });

    const badPhone = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login/sms',
      headers: { origin: SITE_ORIGIN },
      payload: { phone: '12345' },
    });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json()).toMatchObject({ message: '请输入正确的手机号' });

    // A quick-login code of the same phone does not open the console.
    const caller = { ...freshClient(), phone };
    t.clock.advance(61_000);
    const sent = await call(t, '/api/v4/smsverify', { account: phone, verifytype: 'quicklogin' }, caller);
    expect(sent.body).toMatchObject({ code: 10000 });
    const userCode = lastCode(t, phone);
    const viaUserCode = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login',
      headers: { origin: SITE_ORIGIN },
      payload: { phone, code: userCode },
    });
    expect(viaUserCode.headers['set-cookie']).toBeUndefined();

    // The right code still works once.
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login',
      headers: { origin: SITE_ORIGIN },
      payload: { phone, code },
    });
    expect(right.statusCode).toBe(200);
    expect(cookieOf(right)).toMatch(/^xcad_operator=/);
  });

  it('does not take the site session cookie for a console session', async () => {
    const user = await siteUser();
    const response = await t.app.inject({ method: 'GET', url: '/api/operator/me', headers: { cookie: `xcad_session=${user.usertoken}` } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 25001, message: '请先登录后台' });
  });

  it('logs out: the cookie is cleared, the session ended, and the logout audited', async () => {
    const operator = await signInOperator(t, ['support']);
    const out = await operatorPost(t, operator, '/api/operator/logout');
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^xcad_operator=; .*Max-Age=0/);
    expect((await operatorGet(t, operator, '/api/operator/me')).statusCode).toBe(401);
    expect((await auditRows(t, 'operator.logout')).some((row) => Number(row.operator_id) === operator.userId)).toBe(true);
  });
});

describe('the operator guard', () => {
  // Each call once per role: 200 for the roles named, 403 {code:25003} for the others.
  const reads: Array<[string, readonly TOperatorRole[]]> = [
    ['/api/operator/me', OPERATOR_ROLES],
    ['/api/operator/operators', ['admin']],
    ['/api/operator/audit', ['admin']],
    ['/api/operator/users?q=', ['admin', 'support']],
    ['/api/operator/analytics/report?from=2026-11-01&to=2026-11-07', ['admin', 'finance', 'editor']],
  ];
  for (const [url, allowed] of reads) {
    it(`GET ${url}: ${allowed.join(', ')} allowed, the other roles 403, signed out 401`, async () => {
      for (const role of OPERATOR_ROLES) {
        const response = await operatorGet(t, as(role), url);
        if (allowed.includes(role)) expect(response.statusCode, role).toBe(200);
        else {
          expect(response.statusCode, role).toBe(403);
          expect(response.json()).toEqual({ code: 25003, message: '您的角色无权进行此操作' });
        }
      }
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    });
  }

  it('refuses a change without the Origin, from another origin, or without the right CSRF token, and changes nothing', async () => {
    const user = await siteUser();
    const admin = as('admin');
    const url = `/api/operator/users/${user.uid}/disable`;
    const payload = { reason: '测试' };
    const attempts: Array<Record<string, string>> = [
      { [OPERATOR_CSRF_HEADER]: admin.csrf },
      { origin: 'https://evil.example', [OPERATOR_CSRF_HEADER]: admin.csrf },
      { origin: 'null', [OPERATOR_CSRF_HEADER]: admin.csrf },
      { referer: 'https://evil.example/operator', [OPERATOR_CSRF_HEADER]: admin.csrf },
      { origin: SITE_ORIGIN },
      { origin: SITE_ORIGIN, [OPERATOR_CSRF_HEADER]: as('support').csrf },
    ];
    const auditBefore = (await auditRows(t)).length;
    for (const headers of attempts) {
      const response = await operatorPost(t, admin, url, { payload, headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json()).toMatchObject({ code: 25004 });
    }
    expect((await auditRows(t)).length).toBe(auditBefore);
    const row = await t.database.db.selectFrom('app_user').select('status').where('id', '=', user.uid).executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    // The same change from the console's page goes through; a Referer of the site stands in for a missing Origin.
    const fromReferer = await operatorPost(t, admin, url, {
      payload,
      headers: { referer: `${SITE_ORIGIN}/operator/users`, [OPERATOR_CSRF_HEADER]: admin.csrf },
    });
    expect(fromReferer.statusCode).toBe(200);
  });
});

describe('operators (管理员)', () => {
  it('grants and removes roles with a reason, each change audited with the roles before and after', async () => {
    const user = await siteUser();
    const admin = as('admin');
    const granted = await operatorPost(t, admin, '/api/operator/operators/grant', {
      payload: { phone: user.phone, role: 'finance', reason: '新入职财务' },
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toEqual({ userId: user.uid, roles: ['finance'], changed: true });
    const second = await operatorPost(t, admin, '/api/operator/operators/grant', {
      payload: { userId: user.uid, role: 'support', reason: '兼任客服' },
    });
    expect(second.json()).toMatchObject({ roles: ['support', 'finance'] });

    const list = await operatorGet(t, admin, '/api/operator/operators');
    expect(list.json<{ operators: Array<{ userId: number; roles: string[] }> }>().operators).toContainEqual(
      expect.objectContaining({ userId: user.uid, roles: ['support', 'finance'] }),
    );

    const removed = await operatorPost(t, admin, '/api/operator/operators/remove', {
      payload: { userId: user.uid, role: 'finance', reason: '调岗' },
    });
    expect(removed.json()).toEqual({ userId: user.uid, roles: ['support'], changed: true });

    const entries = (await auditRows(t)).filter((row) => row.target_id === String(user.uid) && row.action.startsWith('operator.'));
    expect(
      entries.map((row) => [
        row.action,
        JSON.parse(row.before ?? 'null'),
        JSON.parse(row.after ?? 'null'),
        row.reason,
        Number(row.operator_id),
      ]),
    ).toEqual([
      ['operator.grantRole', { roles: [] }, { roles: ['finance'] }, '新入职财务', admin.userId],
      ['operator.grantRole', { roles: ['finance'] }, { roles: ['support', 'finance'] }, '兼任客服', admin.userId],
      ['operator.removeRole', { roles: ['support', 'finance'] }, { roles: ['support'] }, '调岗', admin.userId],
    ]);
  });

  it('needs a reason and a known role and user; never removes the last 管理员', async () => {
    const admin = as('admin');
    const noReason = await operatorPost(t, admin, '/api/operator/operators/grant', {
      payload: { userId: admin.userId, role: 'finance', reason: '  ' },
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ code: 10020, message: '请填写操作原因', field: 'reason' });
    const badRole = await operatorPost(t, admin, '/api/operator/operators/grant', {
      payload: { userId: admin.userId, role: 'root', reason: 'x' },
    });
    expect(badRole.json()).toMatchObject({ message: '请选择角色', field: 'role' });
    const nobody = await operatorPost(t, admin, '/api/operator/operators/grant', {
      payload: { phone: '13999999999', role: 'finance', reason: 'x' },
    });
    expect(nobody.statusCode).toBe(404);

    // This file's database holds one 管理员 (the first made above) plus any granted in tests: remove down to one.
    const admins = await t.database.db.selectFrom('operator_role').select('user_id').where('role', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
    const last = await operatorPost(t, admin, '/api/operator/operators/remove', {
      payload: { userId: admin.userId, role: 'admin', reason: '离职' },
    });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ code: 25011, message: '不能移除最后一位管理员' });
  });

  it('ends the console sessions of an operator whose role is removed', async () => {
    const support = await signInOperator(t, ['support']);
    const removed = await operatorPost(t, as('admin'), '/api/operator/operators/remove', {
      payload: { userId: support.userId, role: 'support', reason: '离职' },
    });
    expect(removed.statusCode).toBe(200);
    expect((await operatorGet(t, support, '/api/operator/me')).statusCode).toBe(401);
  });
});

describe('users (管理员, 客服)', () => {
  it('finds a user by phone, id, nickname and e-mail, a page at a time', async () => {
    const user = await siteUser();
    await t.database.db
      .updateTable('app_user')
      .set({ nickname: '张工_图纸%', email: 'zhang@example.com' })
      .where('id', '=', user.uid)
      .execute();
    const support = as('support');
    const search = async (query: string) => ZUserSearchPage.parse((await operatorGet(t, support, `/api/operator/users?${query}`)).json());
    expect((await search(`q=${user.phone}`)).users.map((row) => row.userId)).toEqual([user.uid]);
    expect((await search(`q=86-${user.phone}`)).users.map((row) => row.userId)).toEqual([user.uid]);
    expect((await search(`q=${user.uid}`)).users.map((row) => row.userId)).toEqual([user.uid]);
    expect((await search(`q=${encodeURIComponent('图纸%')}`)).users.map((row) => row.userId)).toEqual([user.uid]);
    expect((await search('q=zhang@example.com')).users.map((row) => row.userId)).toEqual([user.uid]);
    // % is a character, not a wildcard.
    expect((await search(`q=${encodeURIComponent('张%图')}`)).users).toEqual([]);

    // Enough users for two pages.
    const now = Math.floor(t.clock.now() / 1000);
    await t.database.db
      .insertInto('app_user')
      .values(
        Array.from({ length: OPERATOR_LIMITS.pageSize + 5 }, (_, index) => ({
          username: `paging_${index}`,
          nickname: `paging ${index}`,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const all = await search('q=');
    expect(all.total).toBeGreaterThan(OPERATOR_LIMITS.pageSize);
    expect(all.users).toHaveLength(OPERATOR_LIMITS.pageSize);
    const second = await search('q=&page=2');
    expect(second.users[0]?.userId).toBeLessThan(all.users.at(-1)?.userId ?? 0);

    const bad = await operatorGet(t, support, '/api/operator/users?page=0');
    expect(bad.statusCode).toBe(400);
  });

  it("disables and enables an account (its sessions end at once), ends a user's sessions; each audited with the reason", async () => {
    const user = await siteUser();
    const support = as('support');
    const disabled = await operatorPost(t, support, `/api/operator/users/${user.uid}/disable`, { payload: { reason: '用户投诉盗号' } });
    expect(disabled.json()).toEqual({ userId: user.uid, status: 'disabled', changed: true });
    const profile = await call(t, '/api/v4/memprofile', { usertoken: user.usertoken }, user.caller);
    expect(profile.body['code']).not.toBe(10000);
    const detail = ZOperatorUserDetail.parse((await operatorGet(t, support, `/api/operator/users/${user.uid}`)).json());
    expect(detail).toMatchObject({ status: 'disabled', liveSessions: 0, mobile: user.phone });

    const enabled = await operatorPost(t, support, `/api/operator/users/${user.uid}/enable`, { payload: { reason: '核实为本人' } });
    expect(enabled.json()).toMatchObject({ status: 'active', changed: true });

    const again = await siteUser();
    const ended = await operatorPost(t, as('admin'), `/api/operator/users/${again.uid}/end-sessions`, { payload: { reason: '用户要求' } });
    expect(ended.json()).toEqual({ userId: again.uid, ended: 1 });
    expect((await call(t, '/api/v4/memprofile', { usertoken: again.usertoken }, again.caller)).body).toMatchObject({ code: 10060 });

    const entries = (await auditRows(t)).filter((row) => row.target_id === String(user.uid) || row.target_id === String(again.uid));
    expect(entries.map((row) => [row.action, row.reason, JSON.parse(row.before ?? 'null'), JSON.parse(row.after ?? 'null')])).toEqual([
      ['user.disable', '用户投诉盗号', { status: 'active' }, { status: 'disabled' }],
      ['user.enable', '核实为本人', { status: 'disabled' }, { status: 'active' }],
      ['user.endSessions', '用户要求', { liveSessions: 1 }, { liveSessions: 0 }],
    ]);
  });

  it('refuses the user calls to 财务 and 内容编辑, and an unknown user with 404', async () => {
    const user = await siteUser();
    for (const role of ['finance', 'editor'] as const) {
      const response = await operatorPost(t, as(role), `/api/operator/users/${user.uid}/disable`, { payload: { reason: 'x' } });
      expect(response.statusCode).toBe(403);
    }
    expect((await operatorGet(t, as('admin'), '/api/operator/users/99999999')).statusCode).toBe(404);
  });
});

describe('the audit log', () => {
  it('is read and filtered by 管理员, newest first, with who did it', async () => {
    const admin = as('admin');
    const page = ZAuditPage.parse((await operatorGet(t, admin, '/api/operator/audit?action=user.disable')).json());
    expect(page.entries.length).toBeGreaterThan(0);
    expect(page.entries.every((entry) => entry.action === 'user.disable')).toBe(true);
    const everything = ZAuditPage.parse((await operatorGet(t, admin, '/api/operator/audit')).json());
    const ats = everything.entries.map((entry) => entry.at);
    expect([...ats].sort((a, b) => b - a)).toEqual(ats);
    const mine = ZAuditPage.parse((await operatorGet(t, admin, `/api/operator/audit?operator=${admin.userId}`)).json());
    expect(mine.entries.every((entry) => entry.operatorId === admin.userId)).toBe(true);
    for (const day of ['2026-13-01', '2026-02-30', '20261201'])
      expect((await operatorGet(t, admin, `/api/operator/audit?from=${day}`)).statusCode, day).toBe(400);
    const today = new Date(t.clock.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const todays = ZAuditPage.parse((await operatorGet(t, admin, `/api/operator/audit?from=${today}&to=${today}`)).json());
    expect(todays.total).toBe(everything.total);
    expect(ZAuditPage.parse((await operatorGet(t, admin, '/api/operator/audit?to=2020-01-01')).json()).total).toBe(0);
  });

  it('cannot be changed or deleted, even by SQL', async () => {
    const [first] = await auditRows(t);
    expect(first).toBeDefined();
    await expect(sql`update audit_log set reason = 'changed' where id = ${first?.id}`.execute(t.database.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from audit_log where id = ${first?.id}`.execute(t.database.db)).rejects.toThrow(/append-only/);
    const [still] = await auditRows(t);
    expect(still).toEqual(first);
  });
});

describe('the dashboard (概览)', () => {
  it('counts today and the last 7 days from each module, and what waits now', async () => {
    const read = async () => ZDashboard.parse((await operatorGet(t, as('editor'), '/api/operator/dashboard')).json());
    const before = await read();
    const user = await siteUser();
    const now = Math.floor(t.clock.now() / 1000);
    await t.database.db
      .insertInto('feedback_submission')
      .values({
        ticket_no: `FK${now}`,
        kind: 'feedback',
        category: 'other',
        content: '打不开图纸',
        content_hash: `h${now}`,
        contact: user.phone,
        contact_type: 'mobile',
        ip: '10.9.9.9',
        created_at: now,
      })
      .execute();
    const after = await read();
    expect(after.today.signups).toBe(before.today.signups + 1);
    expect(after.week.signups).toBe(before.week.signups + 1);
    expect(after.week.signups).toBeGreaterThanOrEqual(after.today.signups);
    expect(after.openTickets).toBe(before.openTickets + 1);
    expect(after).toMatchObject({ invoicesWaiting: 0, queued: 0, processing: 0 });
    expect((await t.app.inject({ method: 'GET', url: '/api/operator/dashboard' })).statusCode).toBe(401);
  });
});

// Last: it moves the clock past every session opened above.
describe('the idle limit', () => {
  it('ends a session left idle for 30 minutes; a request within them keeps it alive', async () => {
    const operator = await signInOperator(t, ['editor']);
    t.clock.advance((OPERATOR_LIMITS.idleSeconds - 60) * 1000);
    expect((await operatorGet(t, operator, '/api/operator/me')).statusCode).toBe(200);
    t.clock.advance((OPERATOR_LIMITS.idleSeconds - 60) * 1000);
    expect((await operatorGet(t, operator, '/api/operator/me')).statusCode).toBe(200);
    t.clock.advance(OPERATOR_LIMITS.idleSeconds * 1000);
    expect((await operatorGet(t, operator, '/api/operator/me')).statusCode).toBe(401);
    // Ended for good: coming back does not revive it.
    t.clock.advance(-OPERATOR_LIMITS.idleSeconds * 1000);
    expect((await operatorGet(t, operator, '/api/operator/me')).statusCode).toBe(401);
    t.clock.advance(OPERATOR_LIMITS.idleSeconds * 1000);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from '@xcad/db';
import { productDevice, signFields, type TCourseResponse } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedCall, type TestApp } from '../../test-app';
import { importCourse } from './course.import';
import { signedInUser } from './course.testing';

// Decision 0012: the video course over the repository's own content/course: the public lesson list, the
// clips (Range for seeking; member clips only for tutorials members) and the progress calls.

const CONTENT = path.join(repositoryRoot, 'content');
const DAY = 24 * 3600;
let t: TestApp;
let course: TCourseResponse;
let ordinary: { usertoken: string; phone: string };
let member: { usertoken: string; phone: string };
let clipOne: Buffer;

const nowSeconds = () => Math.floor(t.clock.now() / 1000);
const cookie = (usertoken: string) => ({ cookie: `theme=dark; xcad_session=${usertoken}` });

function video(id: number | string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') {
  return t.app.inject({ method, url: `/api/site/course/lessons/${id}/video`, headers });
}

function lesson(position: number) {
  const found = course.lessons.find((candidate) => candidate.position === position);
  if (!found) throw new Error(`no lesson ${position}`);
  return found;
}

beforeAll(async () => {
  t = await createTestApp();
  await importCourse(t.database.db, CONTENT, nowSeconds());
  // The content import copies content/media and content/private into storage; here only the two clips the tests play.
  clipOne = readFileSync(path.join(CONTENT, 'media/course/interface-and-files.mp4'));
  await t.storage.put('content/media/course/interface-and-files.mp4', clipOne);
  await t.storage.put('private/course/osnap-and-polar.mp4', readFileSync(path.join(CONTENT, 'private/course/osnap-and-polar.mp4')));
  ordinary = await signedInUser(t.database.db, nowSeconds());
  member = await signedInUser(t.database.db, nowSeconds(), nowSeconds() + 30 * DAY);
  const response = await t.app.inject({ method: 'GET', url: '/api/site/course' });
  course = response.json<TCourseResponse>();
});

afterAll(async () => {
  await t.close();
});

describe('GET /api/site/course', () => {
  it('lists the 20 lessons in order with title, lecturer, description, duration, poster and video URL, and no storage keys', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/site/course' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(course).toMatchObject({ slug: 'cad-beginner', title: 'CAD零基础入门视频课程', memberProduct: 297 });
    expect(course.lessons.map((item) => item.position)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(course.lessons.filter((item) => item.isFree).map((item) => item.position)).toEqual([1, 2, 3]);
    expect(lesson(1)).toMatchObject({
      title: '认识界面与文件操作',
      lecturer: '周立衡',
      lecturerTitle: '迅捷CAD高级讲师',
      posterUrl: '/content/media/course/interface-and-files.jpg',
      videoUrl: `/api/site/course/lessons/${lesson(1).id}/video`,
    });
    for (const item of course.lessons) {
      expect(item.description.length).toBeGreaterThan(40);
      expect(item.duration).toBeGreaterThanOrEqual(12);
    }
    expect(response.body).not.toMatch(/private\/|video_key|source_hash/);
  });
});

describe('GET|HEAD /api/site/course/lessons/{id}/video', () => {
  it('plays a free lesson for anyone: the whole clip, one byte range for seeking, and HEAD', async () => {
    const whole = await video(lesson(1).id);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['cache-control']).toBe('public, max-age=86400');
    expect(whole.headers.vary).toBeUndefined();
    expect(whole.rawPayload.equals(clipOne)).toBe(true);

    const range = await video(lesson(1).id, { range: 'bytes=1000-1999' });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 1000-1999/${clipOne.length}`);
    expect(range.rawPayload.equals(clipOne.subarray(1000, 2000))).toBe(true);

    const head = await video(lesson(1).id, {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(clipOne.length));
    expect(head.rawPayload.length).toBe(0);
  });

  it('refuses a member lesson without a session (401) and to a signed-in non-member (403), in Chinese', async () => {
    const anonymous = await video(lesson(5).id);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ code: 15003, message: '本课为会员课程，请先登录' });

    const stale = await video(lesson(5).id, cookie('0'.repeat(64)));
    expect(stale.statusCode).toBe(401);

    const refused = await video(lesson(5).id, cookie(ordinary.usertoken));
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['cache-control']).toBe('private, no-store');
    expect(refused.json()).toEqual({ code: 15002, message: '本课为CAD教程会员专享，开通会员后即可观看全部课程' });
    expect(refused.headers['content-type']).toContain('application/json');
  });

  it('plays a member lesson for a tutorials member, privately, with ranges; not once the membership has expired', async () => {
    const played = await video(lesson(5).id, { ...cookie(member.usertoken), range: 'bytes=0-' });
    expect(played.statusCode).toBe(206);
    expect(played.headers['content-type']).toBe('video/mp4');
    expect(played.headers['cache-control']).toBe('private, no-store');
    expect(played.headers.vary).toBe('Cookie');

    const lapsed = await signedInUser(t.database.db, nowSeconds(), nowSeconds() - 1);
    expect((await video(lesson(5).id, cookie(lapsed.usertoken))).statusCode).toBe(403);
  });

  it('answers 404 for an unknown lesson, a malformed id and a lesson whose clip is not in storage', async () => {
    for (const id of ['9999', 'abc', '1.5', '12345678901']) {
      const response = await video(id);
      expect(response.statusCode, id).toBe(404);
      expect(response.json<{ code: number }>().code).toBe(15001);
    }
    const missing = await video(lesson(2).id);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 15001, message: '课程不存在或已下架' });
  });
});

describe('POST /api/v4/courseprogress', () => {
  it('refuses a bad signature and a caller who is not signed in', async () => {
    const body = signFields(
      { ...productDevice('test-device'), timestamp: nowSeconds(), nonce: 'course-bad-sign', usertoken: ordinary.usertoken },
      'not-the-secret',
    );
    const tampered = await t.app.inject({ method: 'POST', url: '/api/v4/courseprogress', payload: body, headers: { 'x-product': '141' } });
    expect(tampered.json()).toMatchObject({ code: 10002 });

    expect((await signedCall(t, '/api/v4/courseprogress', {})).body).toMatchObject({ code: 10060, message: '登录已失效，请重新登录' });
    expect((await signedCall(t, '/api/v4/courseprogress', { usertoken: 'f'.repeat(64) })).body).toMatchObject({ code: 10060 });
  });

  it('answers an ordinary user with no progress and no membership, a member with ismember', async () => {
    expect((await signedCall(t, '/api/v4/courseprogress', { usertoken: ordinary.usertoken })).body).toEqual({
      code: 10000,
      message: '',
      ismember: false,
      memberexpire: 0,
      progress: [],
    });
    const answer = (await signedCall(t, '/api/v4/courseprogress', { usertoken: member.usertoken, account: member.phone })).body;
    expect(answer).toMatchObject({ code: 10000, ismember: true });
    expect(answer['memberexpire']).toBeGreaterThan(nowSeconds());
  });
});

describe('POST /api/v4/coursesaveprogress', () => {
  it('refuses missing and malformed fields, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ position: 3 }, 'lessonid', '请选择要观看的课程'],
      [{ lessonid: 'x', position: 3 }, 'lessonid', '请选择要观看的课程'],
      [{ lessonid: 0, position: 3 }, 'lessonid', '请选择要观看的课程'],
      [{ lessonid: lesson(1).id }, 'position', '播放进度必须是不小于0的整数秒'],
      [{ lessonid: lesson(1).id, position: -1 }, 'position', '播放进度必须是不小于0的整数秒'],
      [{ lessonid: lesson(1).id, position: 2.5 }, 'position', '播放进度必须是不小于0的整数秒'],
      [{ lessonid: lesson(1).id, position: 'abc' }, 'position', '播放进度必须是不小于0的整数秒'],
      [{ lessonid: lesson(1).id, position: 3, completed: 'maybe' }, 'completed', '完成状态不正确'],
    ];
    for (const [fields, field, message] of cases) {
      const { status, body } = await signedCall(t, '/api/v4/coursesaveprogress', {
        usertoken: ordinary.usertoken,
        ...(fields as Record<string, string | number>),
      });
      expect(status).toBe(200);
      expect(body, JSON.stringify(fields)).toEqual({ code: 10020, message, field });
    }
    const pastEnd = await signedCall(t, '/api/v4/coursesaveprogress', {
      usertoken: ordinary.usertoken,
      lessonid: lesson(1).id,
      position: lesson(1).duration + 2,
    });
    expect(pastEnd.body).toEqual({ code: 10020, message: '播放进度超出了本课的时长', field: 'position' });
  });

  it('refuses an unknown lesson, a member lesson for a non-member, and a caller who is not signed in', async () => {
    expect(
      (await signedCall(t, '/api/v4/coursesaveprogress', { usertoken: ordinary.usertoken, lessonid: 9999, position: 1 })).body,
    ).toMatchObject({ code: 15001 });
    expect(
      (await signedCall(t, '/api/v4/coursesaveprogress', { usertoken: ordinary.usertoken, lessonid: lesson(5).id, position: 1 })).body,
    ).toEqual({
      code: 15002,
      message: '本课为CAD教程会员专享，开通会员后即可观看全部课程',
    });
    expect((await signedCall(t, '/api/v4/coursesaveprogress', { lessonid: lesson(1).id, position: 1 })).body).toMatchObject({
      code: 10060,
    });
    const rows = await t.database.db.selectFrom('course_progress').selectAll().where('lesson_id', '=', lesson(5).id).execute();
    expect(rows).toEqual([]);
  });

  it('saves, moves and completes a position; a completed lesson stays completed; the cookie alone signs the call in', async () => {
    const user = await signedInUser(t.database.db, nowSeconds());
    // The app's clock is real time (moved on by advance), so a second may tick during a call.
    const savedAt = (low: number) => expect.toSatisfy((value: number) => value >= low && value <= nowSeconds());
    let before = nowSeconds();
    const first = await signedCall(t, '/api/v4/coursesaveprogress', { usertoken: user.usertoken, lessonid: lesson(2).id, position: '7' });
    expect(first.body).toEqual({
      code: 10000,
      message: '',
      progress: { lessonid: lesson(2).id, position: 7, completed: false, updatedat: savedAt(before) },
    });

    t.clock.advance(5_000);
    before = nowSeconds();
    await signedCall(t, '/api/v4/coursesaveprogress', {
      usertoken: user.usertoken,
      lessonid: lesson(2).id,
      position: lesson(2).duration,
      completed: true,
    });
    const again = await signedCall(t, '/api/v4/coursesaveprogress', {
      usertoken: user.usertoken,
      lessonid: lesson(2).id,
      position: 3,
      completed: false,
    });
    expect(again.body).toMatchObject({ code: 10000, progress: { position: 3, completed: true } });

    const viaCookie = await signedCall(
      t,
      '/api/v4/coursesaveprogress',
      { lessonid: lesson(1).id, position: lesson(1).duration + 1, completed: 1 },
      { headers: cookie(user.usertoken) },
    );
    expect(viaCookie.body).toMatchObject({ code: 10000, progress: { lessonid: lesson(1).id, completed: true } });

    const listed = (await signedCall(t, '/api/v4/courseprogress', { usertoken: user.usertoken })).body;
    expect(listed['progress']).toEqual([
      { lessonid: lesson(1).id, position: lesson(1).duration + 1, completed: true, updatedat: savedAt(before) },
      { lessonid: lesson(2).id, position: 3, completed: true, updatedat: savedAt(before) },
    ]);
  });

  it('lets a member save progress in a member lesson', async () => {
    const saved = await signedCall(t, '/api/v4/coursesaveprogress', { usertoken: member.usertoken, lessonid: lesson(5).id, position: 12 });
    expect(saved.body).toMatchObject({ code: 10000, progress: { lessonid: lesson(5).id, position: 12, completed: false } });
  });
});

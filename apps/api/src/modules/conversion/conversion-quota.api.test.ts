import { CONVERSION_LIMITS, CONVERSION_MESSAGES } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClient, signInBySms } from '../auth/auth.testing';
import { createConversionTestApp, makeConverterMember, startTask, uploadpar, type ConversionTestApp } from './conversion.testing';

// Decision 0029: the day's free conversions are counted per device, per
// client address and per user, so neither a new device id per request nor a new device per task
// gets past them. Its own app and database: the hundred tasks it starts stay out of the other
// files' sweeps.

const TOO_MANY_TASKS = 15006;

let t: ConversionTestApp;

beforeAll(async () => {
  t = await createConversionTestApp();
});

afterAll(async () => {
  await t.close();
});

const now = () => Math.floor(t.clock.now() / 1000);

function cad2pdf(names: string[]) {
  return {
    tasktype: 'cad2pdf',
    outputfileextension: 'pdf',
    filename: names.length === 1 ? names[0]! : JSON.stringify(names),
    filecount: names.length,
  };
}

describe('the free conversions of a day', () => {
  it('stops a new device id per request from one address at the free tasks of the address, until the next Beijing day', async () => {
    const ip = freshClient().ip;
    for (let index = 0; index < CONVERSION_LIMITS.freeTasksPerAddressPerDay; index += 1) {
      expect((await uploadpar(t, { ...freshClient(), ip }, cad2pdf([`${index}.dwg`]))).body, `task ${index}`).toMatchObject({
        code: 10000,
      });
    }
    const refused = await uploadpar(t, { ...freshClient(), ip }, cad2pdf(['one-more.dwg']));
    expect(refused.body).toEqual({ code: TOO_MANY_TASKS, message: CONVERSION_MESSAGES.tooManyTasks });
    // A converter member behind the same address is not held by the visitors' count.
    const member = { ...freshClient(), ip };
    const { userinfo } = await signInBySms(t, member);
    await makeConverterMember(t, userinfo.uid, now() + 86_400);
    expect((await uploadpar(t, member, { ...cad2pdf(['member.dwg']), usertoken: userinfo.usertoken })).body).toMatchObject({ code: 10000 });

    const untilNextDay = ((Math.floor((now() + 8 * 3600) / 86_400) + 1) * 86_400 - 8 * 3600 - now()) * 1000;
    t.clock.advance(untilNextDay);
    try {
      expect((await uploadpar(t, { ...freshClient(), ip }, cad2pdf(['tomorrow.dwg']))).body).toMatchObject({ code: 10000 });
    } finally {
      t.clock.advance(-untilNextDay);
    }
  }, 30_000);

  it("counts an ordinary user's tasks against the user too, whatever device they come from", async () => {
    const owner = freshClient();
    const { userinfo } = await signInBySms(t, owner);
    for (let index = 0; index < CONVERSION_LIMITS.visitor.tasksPerDay; index += 1) {
      await startTask(t, freshClient(), { ...cad2pdf([`${index}.dwg`]), usertoken: userinfo.usertoken });
    }
    const refused = await uploadpar(t, freshClient(), { ...cad2pdf(['one-more.dwg']), usertoken: userinfo.usertoken });
    expect(refused.body).toEqual({ code: TOO_MANY_TASKS, message: CONVERSION_MESSAGES.tooManyTasks });
  });
});

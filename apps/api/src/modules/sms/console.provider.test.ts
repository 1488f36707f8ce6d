import { describe, expect, it } from 'vitest';
import { ConsoleSmsProvider } from './console.provider';

interface LogLine {
  details: Record<string, unknown>;
  message: string;
}

function recordingLogger(): { lines: LogLine[]; info: (details: Record<string, unknown>, message: string) => void } {
  const lines: LogLine[] = [];
  return { lines, info: (details, message) => lines.push({ details, message }) };
}

function clock(start: string): () => Date {
  let tick = 0;
  return () => new Date(Date.parse(start) + 1000 * tick++);
}

describe('ConsoleSmsProvider', () => {
  it('keeps each message for its phone, newest first, with the text the user would read', async () => {
    const logger = recordingLogger();
    const provider = new ConsoleSmsProvider({ logger, now: clock('2024-05-01T08:00:00Z') });
    const first = await provider.send({ phone: '13800138000', code: '1111', purpose: 'register' });
    await provider.send({ phone: '13900139000', code: '2222', purpose: 'quicklogin' });
    await provider.send({ phone: '13800138000', code: '3333', purpose: 'forgetpwd' });

    expect(first).toMatchObject({ ok: true, providerMessageId: expect.stringMatching(/^console-/) });
    expect(provider.messagesFor('13800138000')).toEqual([
      {
        account: '13800138000',
        code: '3333',
        text: '【迅捷CAD】您的验证码为3333，5分钟内有效，请勿泄露给他人。',
        at: '2024-05-01T08:00:02.000Z',
      },
      {
        account: '13800138000',
        code: '1111',
        text: '【迅捷CAD】您的验证码为1111，5分钟内有效，请勿泄露给他人。',
        at: '2024-05-01T08:00:00.000Z',
      },
    ]);
    expect(provider.messagesFor('13700137000')).toEqual([]);
    expect(logger.lines).toHaveLength(3);
    expect(logger.lines[1]).toEqual({ details: { account: '13900139000', code: '2222', purpose: 'quicklogin' }, message: 'dev sms sent' });
  });

  it('drops the oldest messages beyond its capacity', async () => {
    const provider = new ConsoleSmsProvider({ logger: recordingLogger(), capacity: 3 });
    for (const code of ['0001', '0002', '0003', '0004', '0005']) await provider.send({ phone: '13800138000', code, purpose: 'quicklogin' });
    expect(provider.messagesFor('13800138000').map((entry) => entry.code)).toEqual(['0005', '0004', '0003']);
  });

  it('keeps 500 messages by default', async () => {
    const provider = new ConsoleSmsProvider({ logger: recordingLogger() });
    for (let index = 0; index < 501; index += 1) await provider.send({ phone: '13800138000', code: String(index), purpose: 'quicklogin' });
    const codes = provider.messagesFor('13800138000').map((entry) => entry.code);
    expect(codes).toHaveLength(500);
    expect(codes[0]).toBe('500');
    expect(codes.at(-1)).toBe('1');
  });
});

import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino(loggerOptions({ LOG_LEVEL: 'info' }), stream), lines };
}

describe('log redaction', () => {
  it('censors credentials at the top level and inside logged request parts and headers', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        password: 'p@ss123456',
        body: { account: '13800138000', smscode: '4821', password: 'abc123456' },
        query: { usertoken: 'tok-secret' },
        req: { headers: { cookie: 'session=s3cret', 'x-auth-token': 'upload-secret', host: 'a.b' } },
        datasign: '0123456789abcdef0123456789abcdef',
      },
      'login attempt',
    );
    const line = lines.join('');
    for (const secret of ['p@ss123456', '4821', 'abc123456', 'tok-secret', 's3cret', 'upload-secret', '0123456789abcdef']) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain('13800138000');
    expect(line).toContain('a.b');
    expect(line.match(/\[redacted\]/g)?.length).toBe(7);
  });
});

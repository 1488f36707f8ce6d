/**
 * The engine's budgets (docs/decisions/0027-bounded-conversions.md) as the `cad` command reports
 * them: one line naming the budget, exit code 1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { minsertBombDxf } from '@xcad/cad/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './cli';

const tmp = mkdtempSync(join(tmpdir(), 'cad-cli-limits-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the cad command', { timeout: 30_000 }, () => {
  it('says in one line which budget a drawing went over, exit code 1', async () => {
    const input = join(tmp, 'line.dxf');
    writeFileSync(input, minsertBombDxf(1, 1));
    let stderr = '';
    const err = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        stderr += chunk.toString();
        callback();
      },
    });
    expect(
      await main(['convert', input, join(tmp, 'out.png'), '--width', '20000'], new Writable({ write: (_c, _e, cb) => cb() }), err),
    ).toBe(1);
    expect(stderr).toBe(
      'cad: the image would be 20000×20000 px (400 megapixels); the limit is 100 megapixels and 32767 px a side: use a smaller width or dpi\n',
    );
  });
});

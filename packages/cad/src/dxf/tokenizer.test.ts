import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AsciiSource, type GroupValue } from './tokenizer';

// The tokenizer makes its strings natively from a Node Buffer, and with its own short-string code
// from a plain Uint8Array (the viewer's worker in the browser): both must read the same groups.

function groupsOf(bytes: Uint8Array): [number, GroupValue][] {
  const src = new AsciiSource(bytes);
  const out: [number, GroupValue][] = [];
  while (src.next()) out.push([src.code, src.value]);
  return out;
}

const plain = (b: Uint8Array): Uint8Array => Uint8Array.from(b);

describe('the DXF tokenizer', () => {
  it('reads names and numbers of every length alike from a Buffer and from a plain Uint8Array', () => {
    const lines: string[] = [];
    for (let n = 0; n <= 70; n++) lines.push('1', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -_.,;:!?'.slice(0, n));
    for (const number of ['0', '-0.5', '12.25', '0.70710678118654757', '-123456.78901234567', '1e-7', '3.4E+12', '1,5', '  42.0  '])
      lines.push('10', number);
    lines.push('0', 'EOF');
    const text = Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
    const fromBuffer = groupsOf(text);
    expect(groupsOf(plain(text))).toEqual(fromBuffer);
    expect(fromBuffer.filter(([code]) => code === 1).map(([, v]) => (v as string).length)).toEqual(Array.from({ length: 71 }, (_, n) => n));
    expect(fromBuffer.filter(([code]) => code === 10).map(([, v]) => v)).toEqual([
      0, -0.5, 12.25, 0.70710678118654757, -123456.78901234567, 1e-7, 3.4e12, 1.5, 42,
    ]);
  });

  it('reads a corpus drawing alike from both', () => {
    const bytes = readFileSync(fileURLToPath(new URL('../../test-fixtures/ezdxf_text.dxf', import.meta.url)));
    const fromBuffer = groupsOf(bytes);
    expect(fromBuffer.length).toBeGreaterThan(10_000);
    expect(groupsOf(plain(bytes))).toEqual(fromBuffer);
  });
});

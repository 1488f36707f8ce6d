import { CONVERSION_LIMITS, type LocalMembershipState } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { addFiles, extensionOf, limitsizeOf, problemOf, startProblemOf, tierOf } from './files';
import { acceptOf, kindsLabelOf } from './tools';

const MB = 1024 * 1024;
const NOW = 1_760_000_000;

const file = (name: string, size = MB, lastModified = 1) => ({ name, size, lastModified });

describe("the visitor's tier", () => {
  const membership = (expireTime: number | null) =>
    ({ zhuanhuanqi: { isLifelong: false, expireTime } }) as Pick<LocalMembershipState, 'zhuanhuanqi'>;

  it('is a member while the converter membership runs, a visitor otherwise', () => {
    expect(tierOf(membership(NOW + 60), NOW)).toBe('member');
    expect(tierOf(membership(NOW - 1), NOW)).toBe('visitor');
    expect(tierOf(membership(null), NOW)).toBe('visitor');
    expect(tierOf(null, NOW)).toBe('visitor');
  });

  it("sends spec §9's limitsize for visitors and the member limit for members (KB)", () => {
    expect(limitsizeOf('visitor')).toBe(51200);
    expect(limitsizeOf('member')).toBe(CONVERSION_LIMITS.member.maxFileBytes / 1024);
  });
});

describe('checking a picked file', () => {
  it('takes DWG and DXF for the CAD tools and PDF for PDF to CAD, by extension in any case', () => {
    expect(acceptOf('cad2pdf')).toBe('.dwg,.dxf,.png,.jpg,.jpeg');
    expect(acceptOf('cad2ver')).toBe('.dwg,.dxf');
    expect(acceptOf('pdf2cad')).toBe('.pdf');
    expect(problemOf(file('一层平面.DWG'), 'cad2pdf', 'visitor')).toBeNull();
    expect(problemOf(file('a.dxf'), 'cad2jpg', 'visitor')).toBeNull();
    // A drawing's pictures go with it to the drawn outputs; a save-as keeps its references as they are.
    expect(problemOf(file('logo.PNG'), 'cad2pdf', 'visitor')).toBeNull();
    expect(problemOf(file('photo.jpeg'), 'cad2jpg', 'visitor')).toBeNull();
    expect(problemOf(file('logo.png'), 'cad2ver', 'visitor')).toEqual({ kind: 'wrongType', expected: 'DWG/DXF' });
    expect(problemOf(file('a.pdf'), 'cad2pdf', 'visitor')).toEqual({ kind: 'wrongType', expected: 'DWG/DXF' });
    expect(problemOf(file('a.dwg'), 'pdf2cad', 'visitor')).toEqual({ kind: 'wrongType', expected: 'PDF' });
    expect(problemOf(file('dwg'), 'cad2pdf', 'visitor')).toEqual({ kind: 'wrongType', expected: kindsLabelOf('cad2pdf') });
    expect(extensionOf('.dwg')).toBe('');
    expect(extensionOf('a.b.DxF')).toBe('dxf');
  });

  it("refuses an empty file and one over the tier's size", () => {
    expect(problemOf(file('a.dwg', 0), 'cad2pdf', 'visitor')).toEqual({ kind: 'empty' });
    expect(problemOf(file('a.dwg', 50 * MB), 'cad2pdf', 'visitor')).toBeNull();
    expect(problemOf(file('a.dwg', 50 * MB + 1), 'cad2pdf', 'visitor')).toEqual({ kind: 'tooLarge', maxMb: 50 });
    expect(problemOf(file('a.dwg', 50 * MB + 1), 'cad2pdf', 'member')).toBeNull();
    expect(problemOf(file('a.dwg', 200 * MB + 1), 'cad2pdf', 'member')).toEqual({ kind: 'tooLarge', maxMb: 200 });
  });
});

describe('adding files to the list', () => {
  it('keeps good files, reports refused ones and adds the same file once', () => {
    const added = addFiles([file('a.dwg')], [file('a.dwg'), file('b.txt'), file('c.dxf', 0), file('d.dxf')], 'cad2pdf', 'visitor');
    expect(added.files.map((kept) => kept.name)).toEqual(['a.dwg', 'd.dxf']);
    expect(added.refused.map(({ file: refused, problem }) => [refused.name, problem.kind])).toEqual([
      ['b.txt', 'wrongType'],
      ['c.dxf', 'empty'],
    ]);
    expect(added.overflow).toBe(0);
  });

  it("stops at the tier's number of files and says how many were left out", () => {
    const picked = ['1', '2', '3', '4', '5'].map((name) => file(`${name}.dwg`));
    const visitor = addFiles([], picked, 'cad2pdf', 'visitor');
    expect(visitor.files.map((kept) => kept.name)).toEqual(['1.dwg', '2.dwg', '3.dwg']);
    expect(visitor.overflow).toBe(2);
    expect(addFiles([], picked, 'cad2pdf', 'member').overflow).toBe(0);
  });

  it('checks the list again at the start, when the tier may have changed', () => {
    const four = ['1', '2', '3', '4'].map((name) => file(`${name}.dwg`));
    expect(startProblemOf([], 'cad2pdf', 'visitor')).toEqual({ kind: 'noFiles' });
    expect(startProblemOf(four, 'cad2pdf', 'member')).toBeNull();
    expect(startProblemOf(four, 'cad2pdf', 'visitor')).toEqual({ kind: 'tooMany', max: 3 });
    expect(startProblemOf([file('a.dwg'), file('big.dwg', 60 * MB)], 'cad2pdf', 'visitor')).toEqual({
      index: 1,
      kind: 'tooLarge',
      maxMb: 50,
    });
  });
});

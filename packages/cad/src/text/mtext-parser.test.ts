import { describe, expect, it } from 'vitest';
import { parseMText, plainMText, type MTextFormat, type MTextItem } from './mtext-parser';

const BASE: MTextFormat = {
  height: 2,
  widthFactor: 1,
  oblique: 0,
  tracking: 1,
  align: 0,
  underline: false,
  overline: false,
  strike: false,
};

function words(items: MTextItem[]): string[] {
  return items.filter((i): i is Extract<MTextItem, { kind: 'text' }> => i.kind === 'text').map((i) => i.text);
}

describe('MTEXT inline codes', () => {
  it('\\P and ^J split paragraphs; a trailing \\P adds no line', () => {
    const ps = parseMText('one\\Ptwo^Jthree\\P', BASE);
    expect(ps.map((p) => words(p.items).join(' '))).toEqual(['one', 'two', 'three']);
  });

  it('groups scope formatting; escapes are literal', () => {
    const [p] = parseMText('a{\\C1;\\H2x;b}c \\{d\\} \\\\e', BASE);
    const texts = p!.items.filter((i): i is Extract<MTextItem, { kind: 'text' }> => i.kind === 'text');
    expect(texts.map((t) => t.text)).toEqual(['a', 'b', 'c', '{d}', '\\e']);
    expect(texts[1]!.format.color).toEqual({ aci: 1 });
    expect(texts[1]!.format.height).toBe(4);
    expect(texts[2]!.format.color).toBeUndefined();
    expect(texts[2]!.format.height).toBe(2);
  });

  it('\\H absolute, \\W, \\Q, \\T, \\A values', () => {
    const [p] = parseMText('\\H5;\\W0.8;\\Q15;\\T2;\\A1;x', BASE);
    const t = p!.items[0] as Extract<MTextItem, { kind: 'text' }>;
    expect(t.format).toMatchObject({ height: 5, widthFactor: 0.8, oblique: 15, tracking: 2, align: 1 });
  });

  it('\\c is a BGR true colour', () => {
    const [p] = parseMText('\\c255;red', BASE);
    expect((p!.items[0] as Extract<MTextItem, { kind: 'text' }>).format.color).toEqual({ rgb: 0xff0000 });
  });

  it('\\f with bold/italic flags, \\F with an SHX file', () => {
    const [p] = parseMText('{\\fArial|b1|i1|c0|p34;A}{\\Fromans.shx|c0;B}', BASE);
    const [a, b] = p!.items as Extract<MTextItem, { kind: 'text' }>[];
    expect(a!.format.font).toEqual({ family: 'Arial', bold: true, italic: true });
    expect(b!.format.font).toEqual({ file: 'romans.shx' });
  });

  it('\\L \\O \\K toggle underline, overline, strike-through', () => {
    const [p] = parseMText('\\La\\l\\Ob\\o\\Kc\\k', BASE);
    const [a, b, c] = p!.items as Extract<MTextItem, { kind: 'text' }>[];
    expect([a!.format.underline, a!.format.overline, a!.format.strike]).toEqual([true, false, false]);
    expect([b!.format.underline, b!.format.overline]).toEqual([false, true]);
    expect(c!.format.strike).toBe(true);
  });

  it('\\S stacks: the three kinds and escaped separators', () => {
    const [p] = parseMText('\\S1/2;\\S3#4;\\S+0.1^-0.2;\\S1\\/2^x;', BASE);
    const stacks = p!.items.filter((i): i is Extract<MTextItem, { kind: 'stack' }> => i.kind === 'stack');
    expect(stacks.map((s) => [s.upper, s.lower, s.type])).toEqual([
      ['1', '2', '/'],
      ['3', '4', '#'],
      ['+0.1', '-0.2', '^'],
      ['1/2', 'x', '^'],
    ]);
  });

  it('\\p paragraph properties: indents, alignment, tabs; * resets', () => {
    const ps = parseMText('\\pxi-3,l4,t4,c8;a\\P\\pi*,l*,qc;b', BASE);
    expect(ps[0]!.props).toMatchObject({ indent: -3, left: 4, tabs: [4, 'c8'] });
    expect(ps[1]!.props).toMatchObject({ indent: 0, left: 0, align: 'c' });
  });

  it('\\~ no-break space, ^I and tab characters, %% codes, \\N column break', () => {
    const [p] = parseMText('a\\~b^Ic\t%%c%%d%%p\\Nz', BASE);
    expect(p!.items.map((i) => i.kind)).toEqual(['text', 'nbsp', 'text', 'tab', 'text', 'tab', 'text', 'column', 'text']);
    expect(words(p!.items)).toEqual(['a', 'b', 'c', '\u2300\u00b0\u00b1', 'z']);
  });

  it('unknown codes show verbatim; plain text strips codes', () => {
    expect(plainMText('{\\fArial|b1;Bold} \\Zx\\Pnext')).toBe('Bold \\Zx\nnext');
  });
});

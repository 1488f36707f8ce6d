/**
 * MTEXT layout (browser-safe): words into lines within the reference width, lines into columns,
 * paragraph indents, alignment and tabs, AutoCAD's line pitch (5/3 of the text height times the
 * line spacing factor), the attachment point. Pure geometry over a `shape` callback that measures
 * a piece of text in a format; the result is in text space (x along the text direction, y up,
 * origin at the insertion point).
 */
import type { MTextFormat, MTextItem, MTextParagraph, ParagraphProps } from './mtext-parser';

/** A measured piece of text (draw.ts fills in the runs; the layout only needs the width). */
export interface Shaped {
  /** Advance width in text-space units (width factor and tracking included). */
  width: number;
}

export interface StackShape {
  width: number;
  /** Offsets of the upper and lower text relative to the stack's origin (baseline of the line). */
  upper: { x: number; y: number };
  lower: { x: number; y: number };
  /** Height of the stacked characters. */
  height: number;
  /** Fraction bar or slash as a line in stack coordinates, if any. */
  bar?: [number, number, number, number];
}

type Placed<S extends Shaped> =
  | { kind: 'text'; x: number; y: number; text: string; format: MTextFormat; shaped: S; line: number }
  | { kind: 'space'; x: number; y: number; width: number; format: MTextFormat; line: number; char: string }
  | { kind: 'stack'; x: number; y: number; upper: S; lower: S; shape: StackShape; format: MTextFormat; line: number };

export interface LayoutInput {
  paragraphs: MTextParagraph[];
  /** Entity character height (indents and tab stops are multiples of it). */
  height: number;
  /** Reference rectangle width; 0 = no wrapping. */
  width: number;
  /** 1..9. */
  attachment: number;
  lineSpacingFactor: number;
  /** 1 at least, 2 exactly. */
  lineSpacingStyle: number;
  columns?: { count: number; width: number; gutter: number; heights: number[] };
}

export interface LayoutResult<S extends Shaped> {
  placed: Placed<S>[];
  /** The text box in text space (after the attachment shift). */
  box: { minX: number; minY: number; maxX: number; maxY: number };
  lines: number;
  columns: number;
}

export interface Shaper<S extends Shaped> {
  shape(text: string, format: MTextFormat): S;
  /** Width of one space in a format. */
  space(format: MTextFormat): number;
  stack(item: Extract<MTextItem, { kind: 'stack' }>): { upper: S; lower: S; shape: StackShape };
}

const WRAP_TOLERANCE = 1.015;

const NO_START = new Set([...'，。、；：？！）」』】〉》”’…・ー—～〕｝］｠｡､,.;:!?)]}%']);
const NO_END = new Set([...'（「『【〈《“‘〔｛［｟([{']);

function breaksAround(cp: number): boolean {
  return (
    (cp >= 0x2e80 && cp <= 0x9fff) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xff00 && cp <= 0xffef) ||
    (cp >= 0x20000 && cp <= 0x3134f)
  );
}

type Part<S extends Shaped> =
  | { kind: 'text'; text: string; format: MTextFormat; shaped: S }
  | { kind: 'stack'; upper: S; lower: S; shape: StackShape; format: MTextFormat }
  | { kind: 'nbsp'; width: number; format: MTextFormat };

interface Word<S extends Shaped> {
  parts: Part<S>[];
  width: number;
  height: number;
}

type Atom<S extends Shaped> =
  | { kind: 'word'; word: Word<S> }
  | { kind: 'space'; width: number; format: MTextFormat }
  | { kind: 'tab'; format: MTextFormat }
  | { kind: 'column' };

function partWidth<S extends Shaped>(p: Part<S>): number {
  return p.kind === 'text' ? p.shaped.width : p.kind === 'stack' ? p.shape.width : p.width;
}

/** Splits a paragraph into words (no break inside), spaces, tabs and column breaks. */
function atomize<S extends Shaped>(items: MTextItem[], shaper: Shaper<S>): Atom<S>[] {
  const atoms: Atom<S>[] = [];
  let word: Word<S> | null = null;
  const add = (p: Part<S>): void => {
    if (!word) {
      word = { parts: [], width: 0, height: 0 };
      atoms.push({ kind: 'word', word });
    }
    word.parts.push(p);
    word.width += partWidth(p);
    word.height = Math.max(word.height, p.format.height);
  };
  const endWord = (): void => {
    word = null;
  };
  for (const it of items) {
    switch (it.kind) {
      case 'text': {
        // Break between CJK characters (not before closing or after opening punctuation).
        let chunk = '';
        let prev = '';
        for (const ch of it.text) {
          const cp = ch.codePointAt(0) as number;
          const pcp = prev ? (prev.codePointAt(0) as number) : 0;
          const canBreak = prev !== '' && (breaksAround(cp) || breaksAround(pcp)) && !NO_START.has(ch) && !NO_END.has(prev);
          if (canBreak) {
            if (chunk) add({ kind: 'text', text: chunk, format: it.format, shaped: shaper.shape(chunk, it.format) });
            chunk = '';
            endWord();
          }
          chunk += ch;
          prev = ch;
        }
        if (chunk) add({ kind: 'text', text: chunk, format: it.format, shaped: shaper.shape(chunk, it.format) });
        break;
      }
      case 'stack': {
        const s = shaper.stack(it);
        add({ kind: 'stack', upper: s.upper, lower: s.lower, shape: s.shape, format: it.format });
        break;
      }
      case 'nbsp':
        add({ kind: 'nbsp', width: shaper.space(it.format), format: it.format });
        break;
      case 'space':
        endWord();
        atoms.push({ kind: 'space', width: shaper.space(it.format), format: it.format });
        break;
      case 'tab':
        endWord();
        atoms.push({ kind: 'tab', format: it.format });
        break;
      case 'column':
        endWord();
        atoms.push({ kind: 'column' });
        break;
    }
  }
  return atoms;
}

interface LineItem<S extends Shaped> {
  x: number;
  part: Part<S> | { kind: 'space'; width: number; format: MTextFormat; char: string };
}

interface Line<S extends Shaped> {
  items: LineItem<S>[];
  /** Width without trailing spaces. */
  width: number;
  height: number;
  props: ParagraphProps;
  first: boolean;
  last: boolean;
  /** A column break follows this line. */
  columnBreak: boolean;
  /** Number of space gaps (for justification). */
  spaces: number;
}

function tabStops(props: ParagraphProps, h: number): { pos: number; kind: 'l' | 'c' | 'r' }[] {
  const out: { pos: number; kind: 'l' | 'c' | 'r' }[] = [];
  for (const t of props.tabs) {
    if (typeof t === 'number') out.push({ pos: t * h, kind: 'l' });
    else {
      const v = Number.parseFloat(t.slice(1));
      if (Number.isFinite(v)) out.push({ pos: v * h, kind: t[0] === 'c' ? 'c' : 'r' });
    }
  }
  return out.sort((a, b) => a.pos - b.pos);
}

/** Breaks the paragraphs into lines of at most `wrap` width (0 = no limit). */
function breakLines<S extends Shaped>(paragraphs: MTextParagraph[], shaper: Shaper<S>, height: number, wrap: number): Line<S>[] {
  const lines: Line<S>[] = [];
  for (const para of paragraphs) {
    const props = para.props;
    const stops = tabStops(props, height);
    const atoms = atomize(para.items, shaper);
    const startLine = (first: boolean): Line<S> => ({
      items: [],
      width: 0,
      height: 0,
      props,
      first,
      last: false,
      columnBreak: false,
      spaces: 0,
    });
    let line = startLine(true);
    let x = 0;
    let pendingSpaces: { width: number; format: MTextFormat }[] = [];
    // The fonts here only approximate the ones the drawing was made with: a line may overflow the
    // width by a little rather than wrap where AutoCAD would not.
    const avail = (l: Line<S>): number =>
      wrap > 0 ? Math.max(wrap - (props.left + props.right + (l.first ? props.indent : 0)) * height, height) * WRAP_TOLERANCE : Infinity;
    const pushLine = (): void => {
      if (!line.height) line.height = para.end.height;
      lines.push(line);
      line = startLine(false);
      x = 0;
      pendingSpaces = [];
    };
    for (const a of atoms) {
      if (a.kind === 'space') {
        pendingSpaces.push({ width: a.width, format: a.format });
        continue;
      }
      if (a.kind === 'column') {
        line.columnBreak = true;
        pushLine();
        continue;
      }
      if (a.kind === 'tab') {
        for (const s of pendingSpaces) {
          line.items.push({ x, part: { kind: 'space', width: s.width, format: s.format, char: ' ' } });
          x += s.width;
        }
        pendingSpaces = [];
        const step = 4 * height;
        const stop = stops.find((t) => t.pos > x + 1e-9);
        const nx = stop && stop.kind === 'l' ? stop.pos : (Math.floor(x / step + 1e-9) + 1) * step;
        line.items.push({ x, part: { kind: 'space', width: nx - x, format: a.format, char: '\t' } });
        x = nx;
        line.width = x;
        line.height = Math.max(line.height, a.format.height);
        continue;
      }
      const w = a.word;
      const spaceW = pendingSpaces.reduce((s, p) => s + p.width, 0);
      if (line.items.length && x + spaceW + w.width > avail(line) + 1e-9) {
        pushLine();
      } else if (!line.items.length && spaceW > 0 && spaceW + w.width > avail(line) + 1e-9) {
        // Leading spaces wider than the column: dropped (the word starts the line).
        pendingSpaces = [];
      } else {
        for (const s of pendingSpaces) {
          line.items.push({ x, part: { kind: 'space', width: s.width, format: s.format, char: ' ' } });
          x += s.width;
          line.spaces++;
        }
      }
      pendingSpaces = [];
      for (const p of w.parts) {
        line.items.push({ x, part: p });
        x += partWidth(p);
      }
      line.width = x;
      line.height = Math.max(line.height, w.height);
    }
    // Trailing spaces still count for underlines but not for the width.
    for (const s of pendingSpaces) {
      line.items.push({ x, part: { kind: 'space', width: s.width, format: s.format, char: ' ' } });
      x += s.width;
    }
    line.last = true;
    if (!line.height) line.height = para.end.height;
    lines.push(line);
  }
  return lines;
}

export function layoutMText<S extends Shaped>(input: LayoutInput, shaper: Shaper<S>): LayoutResult<S> {
  const h = input.height;
  const cols = input.columns && input.columns.count > 0 ? input.columns : undefined;
  const colWidth = cols ? (cols.width > 0 ? cols.width : input.width) : input.width;
  const wrap = colWidth > 0 ? colWidth : 0;
  const lines = breakLines(input.paragraphs, shaper, h, wrap);
  const factor = input.lineSpacingFactor > 0 ? input.lineSpacingFactor : 1;
  const exact = input.lineSpacingStyle === 2;

  // Box width: the reference width, else the widest line with its indents.
  let contentW = 0;
  for (const l of lines) contentW = Math.max(contentW, l.width + (l.props.left + l.props.right + (l.first ? l.props.indent : 0)) * h);
  const lineBoxW = wrap > 0 ? wrap : contentW;

  const col = Math.max(0, Math.min(2, (input.attachment - 1) % 3));
  const row = Math.max(0, Math.min(2, Math.floor((input.attachment - 1) / 3)));
  const defaultAlign = (['l', 'c', 'r'] as const)[col] ?? 'l';

  // Vertical flow with columns.
  const placed: Placed<S>[] = [];
  let column = 0;
  let baseline = 0;
  let prevH = 0;
  let colLines = 0;
  let maxDepth = 0;
  const colLimit = (c: number): number => {
    if (!cols) return Infinity;
    const v = cols.heights[c] ?? cols.heights[cols.heights.length - 1];
    return v && v > 0 ? v : Infinity;
  };
  const maxColumns = cols ? Math.max(1, cols.count) : 1;
  let lineNo = 0;
  for (const l of lines) {
    let next: number;
    if (colLines === 0) next = -l.height;
    else if (exact) next = baseline - (5 / 3) * factor * h;
    else next = baseline - ((5 / 3) * factor - 1) * prevH - l.height;
    if (cols && colLines > 0 && -next > colLimit(column) + 1e-9 && column + 1 < maxColumns) {
      column++;
      colLines = 0;
      next = -l.height;
    }
    baseline = next;
    prevH = l.height;
    colLines++;
    maxDepth = Math.max(maxDepth, -baseline);
    const colX = cols ? column * (colWidth + cols.gutter) : 0;
    const indent = (l.props.left + (l.first ? l.props.indent : 0)) * h;
    const avail = lineBoxW - indent - l.props.right * h;
    const align = l.props.align ?? defaultAlign;
    let shift = 0;
    let gapExtra = 0;
    if (align === 'c') shift = (avail - l.width) / 2;
    else if (align === 'r') shift = avail - l.width;
    else if ((align === 'j' || align === 'd') && !l.last && l.spaces > 0 && wrap > 0) gapExtra = Math.max(0, (avail - l.width) / l.spaces);
    const x0 = colX + indent + shift;
    let extra = 0;
    let seenWord = false;
    for (const it of l.items) {
      const p = it.part;
      const x = x0 + it.x + extra;
      if (p.kind === 'space') {
        placed.push({ kind: 'space', x, y: baseline, width: p.width, format: p.format, line: lineNo, char: p.char });
        if (seenWord && gapExtra) extra += gapExtra;
        continue;
      }
      seenWord = true;
      // \A: smaller characters at the bottom, centre or top of the line.
      const dy = p.format.align === 1 ? (l.height - p.format.height) / 2 : p.format.align === 2 ? l.height - p.format.height : 0;
      if (p.kind === 'text')
        placed.push({ kind: 'text', x, y: baseline + dy, text: p.text, format: p.format, shaped: p.shaped, line: lineNo });
      else if (p.kind === 'stack')
        placed.push({ kind: 'stack', x, y: baseline + dy, upper: p.upper, lower: p.lower, shape: p.shape, format: p.format, line: lineNo });
      else placed.push({ kind: 'space', x, y: baseline, width: p.width, format: p.format, line: lineNo, char: '\u00a0' });
    }
    lineNo++;
    if (l.columnBreak && cols && column + 1 < maxColumns) {
      column++;
      colLines = 0;
    }
  }

  const usedCols = column + 1;
  const boxW = cols ? Math.max(cols.count, usedCols) * colWidth + (Math.max(cols.count, usedCols) - 1) * cols.gutter : lineBoxW;
  const boxH = maxDepth;
  const dx = -boxW * (col / 2);
  const dy = boxH * (row / 2);
  for (const p of placed) {
    p.x += dx;
    p.y += dy;
  }
  return { placed, box: { minX: dx, minY: dy - boxH, maxX: dx + boxW, maxY: dy }, lines: lines.length, columns: usedCols };
}

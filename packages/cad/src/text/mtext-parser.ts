/**
 * MTEXT inline codes → paragraphs of formatted items (browser-safe).
 *
 * Codes: \P paragraph, \N column break, \X (dimension text break, read as a paragraph), \~ no-break
 * space, \\ \{ \} escapes, { } groups, \f / \F font, \H height (absolute or `x` relative), \W width
 * factor, \Q oblique, \T tracking, \A vertical alignment, \C ACI colour, \c true colour (BGR),
 * \L \l underline, \O \o overline, \K \k strike-through, \S stacking (a^b a/b a#b), \p paragraph
 * properties (indents, alignment, tab stops); ^I tab, ^J line feed; %%c %%d %%p %%% %%nnn.
 */
import type { FontOverride } from './fonts';

export interface MTextFormat {
  /** Font override from \f / \F; undefined = the style's font. */
  font?: FontOverride;
  /** Character height in drawing units. */
  height: number;
  widthFactor: number;
  /** Degrees. */
  oblique: number;
  /** Character spacing factor (\T), 1 = normal. */
  tracking: number;
  /** \A: 0 bottom, 1 centre, 2 top (of the line, for characters smaller than the line). */
  align: number;
  /** Colour override; undefined = the entity's colour. */
  color?: { aci?: number; rgb?: number };
  underline: boolean;
  overline: boolean;
  strike: boolean;
}

export type MTextItem =
  | { kind: 'text'; text: string; format: MTextFormat }
  | { kind: 'space'; format: MTextFormat }
  | { kind: 'nbsp'; format: MTextFormat }
  | { kind: 'tab'; format: MTextFormat }
  | { kind: 'stack'; upper: string; lower: string; type: '^' | '/' | '#'; format: MTextFormat }
  | { kind: 'column' };

export interface ParagraphProps {
  /** First-line indent relative to `left`, in multiples of the MTEXT height. */
  indent: number;
  left: number;
  right: number;
  /** 'l' left, 'r' right, 'c' centre, 'j' justified, 'd' distributed; undefined = by attachment. */
  align?: 'l' | 'r' | 'c' | 'j' | 'd';
  /** Tab stops in multiples of the MTEXT height: numbers (left) or 'c2.5' / 'r4' strings. */
  tabs: (number | string)[];
}

export interface MTextParagraph {
  props: ParagraphProps;
  items: MTextItem[];
  /** The format in effect at the end of the paragraph (the height of an empty line). */
  end: MTextFormat;
}

/** Replaces the %% special codes of TEXT and MTEXT (no underline/overline toggles). */
export const SPECIAL: Record<string, string> = { c: '\u2300', d: '\u00b0', p: '\u00b1', '%': '%' };

function defaultProps(): ParagraphProps {
  return { indent: 0, left: 0, right: 0, tabs: [] };
}

function num(s: string): number | undefined {
  const v = Number.parseFloat(s);
  return Number.isFinite(v) ? v : undefined;
}

function parseParagraphProps(expr: string, p: ParagraphProps): ParagraphProps {
  const out: ParagraphProps = { ...p, tabs: [...p.tabs] };
  let i = 0;
  const readNumber = (): string => {
    const m = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(expr.slice(i));
    if (m) {
      i += m[0].length;
      return m[0];
    }
    if (expr[i] === '*') {
      i++;
      return '*';
    }
    return '';
  };
  while (i < expr.length) {
    const c = expr[i++] as string;
    if (c === ',' || c === ' ') continue;
    if (c === 'i' || c === 'l' || c === 'r') {
      const v = readNumber();
      const value = v === '*' ? 0 : (num(v) ?? 0);
      if (c === 'i') out.indent = value;
      else if (c === 'l') out.left = value;
      else out.right = value;
    } else if (c === 'q') {
      const a = expr[i++];
      if (a === 'l' || a === 'r' || a === 'c' || a === 'j' || a === 'd') out.align = a;
      else delete out.align;
    } else if (c === 't') {
      out.tabs = [];
      while (i < expr.length) {
        if (expr[i] === ',') {
          i++;
          continue;
        }
        const kind = expr[i] === 'c' || expr[i] === 'r' ? (expr[i++] as string) : '';
        const v = readNumber();
        if (!v) {
          if (kind) continue;
          break;
        }
        if (v !== '*') out.tabs.push(kind ? `${kind}${v}` : (num(v) ?? 0));
      }
    } else if (c === 'x' || c === 'a' || c === 'b' || c === 's' || c === 'z') {
      // Extended/spacing flags: read and ignore a value if there is one.
      readNumber();
    }
  }
  return out;
}

/** The expression up to the next unescaped ';' (or the end), and the index after it. */
function expression(s: string, from: number, escapes: boolean): [string, number] {
  let i = from;
  let out = '';
  while (i < s.length) {
    const c = s[i] as string;
    if (c === ';') return [out, i + 1];
    if (escapes && c === '\\' && i + 1 < s.length) {
      out += c + (s[i + 1] as string);
      i += 2;
      continue;
    }
    out += c;
    i++;
  }
  return [out, i];
}

/** A float with an optional trailing 'x' (relative). */
function valueOrFactor(expr: string, current: number): number {
  const m = /^\s*([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)\s*([xX])?/.exec(expr);
  if (!m) return current;
  const v = Math.abs(Number.parseFloat(m[1] as string));
  if (!Number.isFinite(v)) return current;
  return m[4] ? current * v : v;
}

/** Decodes %% codes in a plain string (MTEXT: no underline toggles). */
function decodePercent(s: string): string {
  if (!s.includes('%%')) return s;
  return s.replace(/%%(\d{3}|[cdp%])/gi, (_m, code: string) => {
    if (/^\d{3}$/.test(code)) return String.fromCharCode(Number(code));
    return SPECIAL[code.toLowerCase()] ?? '';
  });
}

/** Stacked text: the parts of '1/2', '1#2', '1^2' (escapes \^ \/ \# \; removed). */
function splitStack(expr: string): { upper: string; lower: string; type: '^' | '/' | '#' } {
  let upper = '';
  let i = 0;
  let type: '^' | '/' | '#' | '' = '';
  while (i < expr.length) {
    const c = expr[i] as string;
    if (c === '\\' && i + 1 < expr.length) {
      upper += expr[i + 1];
      i += 2;
      continue;
    }
    if (c === '^' || c === '/' || c === '#') {
      type = c;
      i++;
      break;
    }
    upper += c;
    i++;
  }
  let lower = '';
  while (i < expr.length) {
    const c = expr[i] as string;
    if (c === '\\' && i + 1 < expr.length) {
      lower += expr[i + 1];
      i += 2;
      continue;
    }
    lower += c;
    i++;
  }
  return { upper: decodePercent(upper), lower: decodePercent(lower), type: type || '/' };
}

/**
 * Parses MTEXT content. `base` is the format at the start (the entity's height, the style's width
 * factor and oblique angle, no colour override).
 */
export function parseMText(content: string, base: MTextFormat): MTextParagraph[] {
  const paragraphs: MTextParagraph[] = [];
  let props = defaultProps();
  let items: MTextItem[] = [];
  let fmt: MTextFormat = { ...base };
  const stack: MTextFormat[] = [];
  let word = '';

  const flushWord = (): void => {
    if (word) {
      items.push({ kind: 'text', text: word, format: fmt });
      word = '';
    }
  };
  const setFmt = (f: MTextFormat): void => {
    flushWord();
    fmt = f;
  };
  const endParagraph = (): void => {
    flushWord();
    paragraphs.push({ props, items, end: fmt });
    items = [];
  };

  const s = content;
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s[i] as string;
    if (c === '\\' && i + 1 < n) {
      const cmd = s[i + 1] as string;
      i += 2;
      switch (cmd) {
        case '\\':
        case '{':
        case '}':
          word += cmd;
          break;
        case 'P':
        case 'X':
          endParagraph();
          break;
        case 'N':
          flushWord();
          items.push({ kind: 'column' });
          break;
        case '~':
          flushWord();
          items.push({ kind: 'nbsp', format: fmt });
          break;
        case 'L':
        case 'l':
          setFmt({ ...fmt, underline: cmd === 'L' });
          break;
        case 'O':
        case 'o':
          setFmt({ ...fmt, overline: cmd === 'O' });
          break;
        case 'K':
        case 'k':
          setFmt({ ...fmt, strike: cmd === 'K' });
          break;
        case 'S': {
          const [expr, next] = expression(s, i, true);
          i = next;
          flushWord();
          items.push({ kind: 'stack', ...splitStack(expr), format: fmt });
          break;
        }
        case 'f':
        case 'F': {
          const [expr, next] = expression(s, i, false);
          i = next;
          const parts = expr.split('|');
          const name = (parts[0] ?? '').trim();
          if (!name) break;
          const font: FontOverride = {};
          if (cmd === 'F' || /\.shx\b/i.test(name)) {
            // \Fsimplex.shx,gbcbig.shx; names the big font too.
            const [main, big] = name.split(',').map((x) => x.trim());
            font.file = main || name;
            if (big) font.bigFont = big;
          } else font.family = name;
          for (const p of parts.slice(1)) {
            if (/^b1/i.test(p)) font.bold = true;
            if (/^i1/i.test(p)) font.italic = true;
          }
          setFmt({ ...fmt, font });
          break;
        }
        case 'H':
        case 'W':
        case 'T':
        case 'Q':
        case 'A':
        case 'C':
        case 'c': {
          // Value up to ';' (tolerate a missing terminator by reading a number only).
          const m = /^[^;\\{}]*;?/.exec(s.slice(i));
          const raw = m ? m[0] : '';
          i += raw.length;
          const expr = raw.endsWith(';') ? raw.slice(0, -1) : raw;
          if (cmd === 'H') setFmt({ ...fmt, height: valueOrFactor(expr, fmt.height) || fmt.height });
          else if (cmd === 'W') setFmt({ ...fmt, widthFactor: valueOrFactor(expr, fmt.widthFactor) || fmt.widthFactor });
          else if (cmd === 'T') setFmt({ ...fmt, tracking: Math.max(0.75, Math.min(4, valueOrFactor(expr, fmt.tracking) || 1)) });
          else if (cmd === 'Q') setFmt({ ...fmt, oblique: num(expr) ?? fmt.oblique });
          else if (cmd === 'A') {
            const a = Number.parseInt(expr, 10);
            setFmt({ ...fmt, align: a === 1 || a === 2 ? a : 0 });
          } else if (cmd === 'C') {
            const a = Number.parseInt(expr, 10);
            if (Number.isFinite(a) && a >= 0 && a <= 257) setFmt({ ...fmt, color: { aci: a } });
          } else {
            const v = Number.parseInt(expr, 10);
            if (Number.isFinite(v)) {
              // \c stores the colour as 0xBBGGRR.
              const r = v & 0xff,
                g = (v >> 8) & 0xff,
                b = (v >> 16) & 0xff;
              setFmt({ ...fmt, color: { rgb: (r << 16) | (g << 8) | b } });
            }
          }
          break;
        }
        case 'p': {
          const [expr, next] = expression(s, i, false);
          i = next;
          props = parseParagraphProps(expr, props);
          break;
        }
        default:
          // Unknown code: AutoCAD shows it verbatim.
          word += `\\${cmd}`;
      }
      continue;
    }
    if (c === '{') {
      flushWord();
      stack.push(fmt);
      i++;
      continue;
    }
    if (c === '}') {
      flushWord();
      const top = stack.pop();
      if (top) fmt = top;
      i++;
      continue;
    }
    if (c === '^' && i + 1 < n) {
      const k = s[i + 1] as string;
      i += 2;
      if (k === 'I') {
        flushWord();
        items.push({ kind: 'tab', format: fmt });
      } else if (k === 'J') endParagraph();
      else if (k === ' ') word += '^';
      // other caret codes are control characters: nothing to show.
      continue;
    }
    if (c === '%' && s[i + 1] === '%' && i + 2 < n) {
      const k = (s[i + 2] as string).toLowerCase();
      if (SPECIAL[k] !== undefined) {
        word += SPECIAL[k];
        i += 3;
        continue;
      }
      const d = s.slice(i + 2, i + 5);
      if (/^\d{3}$/.test(d)) {
        word += String.fromCharCode(Number(d));
        i += 5;
        continue;
      }
    }
    if (c === ' ') {
      flushWord();
      items.push({ kind: 'space', format: fmt });
      i++;
      continue;
    }
    if (c === '\t') {
      flushWord();
      items.push({ kind: 'tab', format: fmt });
      i++;
      continue;
    }
    if (c === '\n') {
      endParagraph();
      i++;
      continue;
    }
    if (c < ' ') {
      i++;
      continue;
    }
    word += c;
    i++;
  }
  endParagraph();
  // A trailing \P leaves an empty last paragraph that AutoCAD does not show as a line.
  if (paragraphs.length > 1) {
    const last = paragraphs[paragraphs.length - 1] as MTextParagraph;
    if (!last.items.length) paragraphs.pop();
  }
  return paragraphs;
}

/** The plain text of MTEXT content (codes removed, paragraphs joined by '\n'). */
export function plainMText(content: string): string {
  const base: MTextFormat = {
    height: 1,
    widthFactor: 1,
    oblique: 0,
    tracking: 1,
    align: 0,
    underline: false,
    overline: false,
    strike: false,
  };
  return parseMText(content, base)
    .map((p) =>
      p.items
        .map((it) => {
          if (it.kind === 'text') return it.text;
          if (it.kind === 'space' || it.kind === 'nbsp') return ' ';
          if (it.kind === 'tab') return '\t';
          if (it.kind === 'stack') return `${it.upper}/${it.lower}`;
          return '';
        })
        .join(''),
    )
    .join('\n');
}

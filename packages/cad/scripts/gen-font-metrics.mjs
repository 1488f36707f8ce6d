#!/usr/bin/env node
/**
 * Generates packages/cad/src/text/metrics-table.ts: advance widths (1/1000 em) of ASCII, Latin-1
 * and a few symbols CAD drawings use, plus cap height, ascent and descent, read with fontkit from
 * the font files the back ends draw with (Debian: fonts-dejavu, fonts-liberation, fonts-noto-cjk;
 * the shipped Noto Sans SC / Noto Serif SC from their npm packages, text/shipped.ts).
 *
 *   node packages/cad/scripts/gen-font-metrics.mjs [out.ts] [--cjk-dir DIR]
 *
 * --cjk-dir: where NotoSansCJK-*.ttc are when fonts-noto-cjk is not installed (the files of
 * `apt-get download fonts-noto-cjk`, extracted). A font file that is not found is left out of
 * the table (the provider then estimates).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const cjkAt = args.indexOf('--cjk-dir');
const cjkDir = cjkAt >= 0 ? args.splice(cjkAt, 2)[1] : undefined;
const out = args[0] ?? join(here, '../src/text/metrics-table.ts');
const shipped = (path) => createRequire(import.meta.url).resolve(path);

const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const LIB = '/usr/share/fonts/truetype/liberation';
const NOTO = cjkDir ?? '/usr/share/fonts/opentype/noto';
const NOTO_TTF = '/usr/share/fonts/truetype/noto';

/** [table key, file, postscript name inside a collection] */
const FONTS = [
  ['DejaVu Sans', `${DEJAVU}/DejaVuSans.ttf`],
  ['DejaVu Sans Bold', `${DEJAVU}/DejaVuSans-Bold.ttf`],
  ['DejaVu Sans Mono', `${DEJAVU}/DejaVuSansMono.ttf`],
  ['DejaVu Serif', `${DEJAVU}/DejaVuSerif.ttf`],
  ['Liberation Sans', `${LIB}/LiberationSans-Regular.ttf`],
  ['Liberation Sans Bold', `${LIB}/LiberationSans-Bold.ttf`],
  ['Liberation Serif', `${LIB}/LiberationSerif-Regular.ttf`],
  ['Liberation Serif Bold', `${LIB}/LiberationSerif-Bold.ttf`],
  ['Liberation Mono', `${LIB}/LiberationMono-Regular.ttf`],
  ['Noto Sans', `${NOTO_TTF}/NotoSans-Regular.ttf`],
  ['Noto Sans Bold', `${NOTO_TTF}/NotoSans-Bold.ttf`],
  ['Noto Sans CJK SC', `${NOTO}/NotoSansCJK-Regular.ttc`, 'NotoSansCJKsc-Regular'],
  ['Noto Sans CJK SC Bold', `${NOTO}/NotoSansCJK-Bold.ttc`, 'NotoSansCJKsc-Bold'],
  ['Noto Serif CJK SC', `${NOTO}/NotoSerifCJK-Regular.ttc`, 'NotoSerifCJKsc-Regular'],
  ['Noto Sans SC', shipped('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'), 'NotoSansSC-Regular'],
  ['Noto Serif SC', shipped('@expo-google-fonts/noto-serif-sc/400Regular/NotoSerifSC_400Regular.ttf'), 'NotoSerifSC-Regular'],
];

// ASCII, Latin-1, then symbols: ⌀ ∅ Greek, Cyrillic, punctuation, maths, arrows, °-like marks.
const codes = [];
for (let c = 0x20; c <= 0x7e; c++) codes.push(c);
for (let c = 0xa0; c <= 0xff; c++) codes.push(c);
for (let c = 0x391; c <= 0x3a9; c++) if (c !== 0x3a2) codes.push(c);
for (let c = 0x3b1; c <= 0x3c9; c++) codes.push(c);
for (let c = 0x410; c <= 0x44f; c++) codes.push(c);
codes.push(0x401, 0x451, 0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192);
codes.push(0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2026, 0x2030, 0x2032, 0x2033, 0x20ac, 0x2122, 0x2126);
codes.push(
  0x2190,
  0x2191,
  0x2192,
  0x2193,
  0x2205,
  0x2206,
  0x2211,
  0x2212,
  0x221a,
  0x221e,
  0x2220,
  0x2248,
  0x2260,
  0x2261,
  0x2264,
  0x2265,
  0x2300,
);
codes.push(0x2103, 0x2116, 0x25a1, 0x25cb, 0x25cf, 0x3000);

/** Covered code points as sorted [start, end] ranges, written compactly in base 36. */
function ranges(set) {
  const cps = [...new Set(set)].filter((c) => c >= 0x20).sort((a, b) => a - b);
  const out = [];
  for (const c of cps) {
    const last = out[out.length - 1];
    if (last && c === last[1] + 1) last[1] = c;
    else out.push([c, c]);
  }
  // Delta-encoded: gap from the previous range end, then length, both base 36.
  let prev = 0;
  return out
    .map(([a, b]) => {
      const s = `${(a - prev).toString(36)}.${(b - a).toString(36)}`;
      prev = b;
      return s;
    })
    .join(',');
}

function open(file, ps) {
  const f = fontkit.openSync(file);
  if (f.fonts) return f.fonts.find((x) => x.postscriptName === ps) ?? f.fonts[0];
  return f;
}

const table = {};
for (const [key, file, ps] of FONTS) {
  if (!existsSync(file)) {
    console.warn(`skip ${key}: ${file} not found`);
    continue;
  }
  const font = open(file, ps);
  const upm = font.unitsPerEm;
  const em = (v) => Math.round((v / upm) * 1000);
  const widths = codes.map((c) => (font.hasGlyphForCodePoint(c) ? em(font.glyphForCodePoint(c).advanceWidth) : -1));
  const capH = font.capHeight || font.glyphForCodePoint(0x48).bbox.maxY;
  const entry = {
    file: file.split('/').pop(),
    family: font.familyName,
    postscriptName: font.postscriptName,
    capHeight: em(capH),
    xHeight: em(font.xHeight || font.glyphForCodePoint(0x78).bbox.maxY),
    ascent: em(font.ascent),
    descent: em(font.descent),
    underlinePosition: em(font.underlinePosition),
    underlineThickness: em(font.underlineThickness),
    widths,
    coverage: ranges(font.characterSet),
  };
  if (ps) {
    // CJK blocks: ideographs, kana, hangul, half-width forms.
    const w = (c) => em(font.glyphForCodePoint(c).advanceWidth);
    entry.cjk = {
      ideograph: w(0x4e2d),
      kana: w(0x3042),
      hangul: w(0xac00),
      halfwidth: w(0xff71),
      fullwidth: w(0xff21),
      punctuation: w(0x3002),
    };
  }
  table[key] = entry;
}

const lines = [
  '/**',
  ' * GENERATED by packages/cad/scripts/gen-font-metrics.mjs from the installed font files: do not edit.',
  ' * Advance widths in 1/1000 em for the code points of METRIC_CODES (-1 = the font has no glyph),',
  ' * vertical metrics in 1/1000 em.',
  ' */',
  '',
  'export interface FontMetricsEntry {',
  '  file: string;',
  '  family: string;',
  '  postscriptName: string;',
  '  capHeight: number;',
  '  xHeight: number;',
  '  ascent: number;',
  '  descent: number;',
  '  underlinePosition: number;',
  '  underlineThickness: number;',
  '  widths: readonly number[];',
  '  /** Covered code points: ranges as "gap.length" in base 36, the gap from the previous range end. */',
  '  coverage: string;',
  '  cjk?: { ideograph: number; kana: number; hangul: number; halfwidth: number; fullwidth: number; punctuation: number };',
  '}',
  '',
  `export const METRIC_CODES: readonly number[] = [${codes.join(', ')}];`,
  '',
];
const coverages = [...new Set(Object.values(table).map((e) => e.coverage))];
lines.push('/** Coverage strings, shared by fonts with the same character set. */');
lines.push('const COVERAGE: readonly string[] = [');
for (const c of coverages) lines.push(`  '${c}',`);
lines.push('];', '', 'export const FONT_METRICS: Record<string, FontMetricsEntry> = {');
for (const [key, e] of Object.entries(table)) {
  const { widths, cjk, coverage, ...rest } = e;
  const head = Object.entries(rest)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ');
  lines.push(`  '${key}': {`);
  lines.push(`    ${head},`);
  if (cjk)
    lines.push(
      `    cjk: ${JSON.stringify(cjk)
        .replace(/"(\w+)":/g, '$1: ')
        .replace(/,/g, ', ')},`,
    );
  lines.push(`    widths: [${widths.join(', ')}],`);
  lines.push(`    coverage: COVERAGE[${coverages.indexOf(coverage)}] as string,`);
  lines.push('  },');
}
lines.push('};', '');
writeFileSync(out, lines.join('\n'));
console.info(`wrote ${out}: ${Object.keys(table).length} fonts, ${codes.length} code points`);

/**
 * The `cad` command as a person runs it: a child process (bin/cad.cjs) on the committed fixtures.
 * Every command runs once, up front and two at a time, and the tests read the results.
 */
import { execFile } from 'node:child_process';
import { readDxf } from '@xcad/cad/dxf';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutFileName, main } from './cli';
import { companionFixture, dxfText } from '@xcad/cad/testing';
import { readDwg } from '@xcad/cad/dwg-client';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../bin/cad.cjs');
const FIX = resolve(here, '../../cad/test-fixtures');
const tmp = mkdtempSync(join(tmpdir(), 'cad-cli-'));
const out = (f: string): string => join(tmp, f);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cad(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, CAD_DEBUG: '' } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

// Hand-made inputs for the error paths.
writeFileSync(out('empty.dxf'), '');
writeFileSync(
  out('garbage.dxf'),
  Uint8Array.from({ length: 4000 }, (_, i) => (i * 7919 + 13) % 251),
);
writeFileSync(out('fake.pdf.dxf'), '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');
writeFileSync(out('truncated.dwg'), Buffer.concat([Buffer.from('AC1015'), Buffer.alloc(200, 0x55)]));
// A LINE on a frozen layer only: nothing drawable.
writeFileSync(
  out('frozen.dxf'),
  dxfText([
    [0, 'SECTION'],
    [2, 'TABLES'],
    [0, 'TABLE'],
    [2, 'LAYER'],
    [0, 'LAYER'],
    [2, 'HIDDEN'],
    [70, 1],
    [62, 7],
    [6, 'CONTINUOUS'],
    [0, 'ENDTAB'],
    [0, 'ENDSEC'],
    [0, 'SECTION'],
    [2, 'ENTITIES'],
    [0, 'LINE'],
    [8, 'HIDDEN'],
    [10, 0],
    [20, 0],
    [30, 0],
    [11, 10],
    [21, 10],
    [31, 0],
    [0, 'ENDSEC'],
    [0, 'EOF'],
  ]),
);

// A drawing sent with what it refers to: job/host.dxf attaches the xref C:\图纸\site.dwg (job/site.dxf
// beside it) and shows the picture D:\logo.png (in pics/, given with --refs).
mkdirSync(out('job'));
mkdirSync(out('pics'));
mkdirSync(out('lonely'));
const refs = companionFixture();
writeFileSync(out('pics/logo.png'), refs.logo);
writeFileSync(out('job/site.dxf'), refs.site);
writeFileSync(out('job/host.dxf'), refs.host);
// The same drawing sent alone.
writeFileSync(out('lonely/host.dxf'), readFileSync(out('job/host.dxf')));
// A PDF underlay naming a Windows path, and a one-page PDF (a diagonal) of that name, in another
// case, beside one copy of the drawing and not the other.
const underlayDxf = dxfText([
  [0, 'SECTION'],
  [2, 'ENTITIES'],
  [0, 'PDFUNDERLAY'],
  [5, 'A1'],
  [8, '0'],
  [100, 'AcDbUnderlayReference'],
  [340, 'A0'],
  [10, 0],
  [20, 0],
  [30, 0],
  [280, 2],
  [0, 'ENDSEC'],
  [0, 'SECTION'],
  [2, 'OBJECTS'],
  [0, 'PDFDEFINITION'],
  [5, 'A0'],
  [100, 'AcDbUnderlayDefinition'],
  [1, 'C:\\drawings\\PAGE.pdf'],
  [2, '1'],
  [0, 'ENDSEC'],
  [0, 'EOF'],
]);
const pageContent = '2 w 10 10 m 278 134 l S\n';
const pagePdf = [
  '%PDF-1.4',
  '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
  '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
  '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 288 144] /Contents 4 0 R >> endobj',
  `4 0 obj << /Length ${pageContent.length} >> stream\n${pageContent}endstream endobj`,
  'trailer << /Root 1 0 R >>',
  '%%EOF',
].join('\n');
mkdirSync(out('with-pdf'));
mkdirSync(out('without-pdf'));
writeFileSync(out('with-pdf/plan.dxf'), underlayDxf);
writeFileSync(out('with-pdf/page.PDF'), pagePdf);
writeFileSync(out('without-pdf/plan.dxf'), underlayDxf);

const GBK = join(FIX, 'gen_zh_r2000_gbk.dxf');
const LAYOUTS = join(FIX, 'skydxf_testModelPaperSpace.dxf');
const BINARY = join(FIX, 'ezdxf_bin_dxf_r12.dxf');
const DWG = join(FIX, 'acs_sample_AC1015.dwg');

const commands: Record<string, string[]> = {
  info: ['info', GBK],
  infoBinary: ['info', BINARY],
  underlayBeside: ['info', out('with-pdf/plan.dxf')],
  underlayAlone: ['info', out('without-pdf/plan.dxf')],
  png: ['convert', GBK, out('zh.png'), '--width', '320'],
  pngBlack: ['convert', BINARY, out('black.png'), '--width', '200', '--background', 'black'],
  pdf: ['convert', GBK, out('zh.pdf'), '--paper', 'A3', '--orientation', 'landscape', '--color', 'mono'],
  jpg: ['convert', BINARY, out('r12.jpeg'), '--dpi', '50'],
  svg: ['convert', BINARY, out('r12.svg')],
  allPng: ['convert', LAYOUTS, out('all.png'), '--all-layouts', '--width', '128'],
  allPdf: ['convert', LAYOUTS, out('all.pdf'), '--all-layouts'],
  layout: ['convert', GBK, out('layout.png'), '--layout', '布局一', '--width', '100'],
  // Errors: exit 2 for bad usage, 1 for bad input.
  unknownOption: ['convert', GBK, out('x.png'), '--colour-depth', '8'],
  missingFile: ['convert', out('nope.dxf'), out('x.png')],
  garbage: ['convert', out('garbage.dxf'), out('x.png')],
  truncatedDwg: ['convert', out('truncated.dwg'), out('x.png')],
  unknownLayout: ['convert', LAYOUTS, out('x.png'), '--layout', 'Sheet 99'],
  nothingDrawable: ['convert', out('frozen.dxf'), out('x.png')],
  // DWG → DXF, the oldest and the newest version.
  dxfR12: ['convert', DWG, out('acs-r12.dxf'), '--version', 'R12'],
  dxf2018: ['convert', DWG, out('acs-2018.dxf'), '--binary'],
  // DXF → DWG and DWG → DWG.
  dwgFromDxf: ['convert', GBK, out('zh.dwg'), '--version', '2000'],
  dwgFromDwg: ['convert', DWG, out('acs.dwg')],
  // Pictures and xrefs beside the drawing or in --refs.
  withRefs: ['convert', out('job/host.dxf'), out('job/host.svg'), '--refs', out('pics')],
  withoutRefs: ['convert', out('lonely/host.dxf'), out('lonely/alone.svg')],
  infoRefs: ['info', out('job/host.dxf')],
};
/**
 * The same entry (`main`, what bin/cad.cjs calls) in this process, for the paths that end before
 * any drawing is read: a process each would only re-measure Node's start-up.
 */
const inProcess: Record<string, string[]> = {
  help: ['--help'],
  noArgs: [],
  unknownCommand: ['draw', GBK],
  serverNoSub: ['server'],
  serverBadSub: ['server', 'restart'],
  serverExtra: ['server', 'status', 'now'],
  missingValue: ['convert', GBK, out('x.png'), '--width'],
  widthAndDpi: ['convert', GBK, out('x.png'), '--width', '100', '--dpi', '72'],
  layoutAndAll: ['convert', GBK, out('x.png'), '--layout', 'Model', '--all-layouts'],
  badWidth: ['convert', GBK, out('x.png'), '--width', 'wide'],
  zeroWidth: ['convert', GBK, out('x.png'), '--width', '0'],
  negativeDpi: ['convert', GBK, out('x.png'), '--dpi=-5'],
  badPaper: ['convert', GBK, out('x.pdf'), '--paper', 'B5'],
  badExtension: ['convert', GBK, out('x.docx')],
  missingOutput: ['convert', GBK],
  folderInput: ['convert', tmp, out('x.png')],
  unwritable: ['convert', GBK, join(tmp, 'no', 'such', 'dir', 'x.png')],
  emptyFile: ['convert', out('empty.dxf'), out('x.png')],
  pdfInput: ['info', out('fake.pdf.dxf')],
  dxfBadVersion: ['convert', GBK, out('x.dxf'), '--version', '2019'],
  dxfWithWidth: ['convert', GBK, out('x.dxf'), '--width', '100'],
  versionForPng: ['convert', GBK, out('x.png'), '--version', 'R12'],
  dwgBadVersion: ['convert', GBK, out('x.dwg'), '--version', '2019'],
  dwgR12: ['convert', GBK, out('x.dwg'), '--version', 'R12'],
  dwgBinary: ['convert', GBK, out('x.dwg'), '--binary'],
  refsNotFolder: ['convert', GBK, out('x.png'), '--refs', out('no-such-folder')],
  refsForDxf: ['convert', GBK, out('x.dxf'), '--refs', tmp],
};
const results: Record<string, Run> = {};

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

beforeAll(async () => {
  for (const [name, args] of Object.entries(inProcess)) {
    const stdout = new Sink();
    const stderr = new Sink();
    const code = await main(args, stdout, stderr);
    results[name] = { code, stdout: stdout.text, stderr: stderr.text };
  }
  const names = Object.keys(commands);
  const next = async (): Promise<void> => {
    for (let n = names.shift(); n !== undefined; n = names.shift()) results[n] = await cad(commands[n] ?? []);
  };
  await Promise.all([next(), next()]);
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ok = (name: string): Run => {
  const r = results[name];
  expect(r, name).toBeDefined();
  expect(
    r?.stderr.split('\n').filter((l) => l && !l.startsWith('cad: note:')),
    `${name}: ${r?.stderr}`,
  ).toEqual([]);
  expect(r?.code, `${name}: ${r?.stderr}`).toBe(0);
  return r as Run;
};

const pngSize = (file: string): [number, number] => {
  const b = readFileSync(file);
  expect([...b.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
};

describe('cad info', () => {
  it('prints the GBK drawing as JSON: format, version, code page, layers, layouts, counts', () => {
    const info = JSON.parse(ok('info').stdout) as Record<string, unknown>;
    expect(info).toMatchObject({ format: 'dxf', dxf: 'ascii', version: 'AC1015', release: 'R2000', codePage: 'ANSI_936', encoding: 'gbk' });
    const layers = info.layers as { name: string; on: boolean; frozen: boolean; color: number | string }[];
    expect(layers.map((l) => l.name)).toContain('0');
    expect(
      layers.some((l) => /[\u4e00-\u9fff]/.test(l.name)),
      'a Chinese layer name, decoded',
    ).toBe(true);
    expect(layers.every((l) => typeof l.on === 'boolean' && typeof l.frozen === 'boolean')).toBe(true);
    const layouts = info.layouts as { name: string; isModel: boolean; entities: number; viewports: number }[];
    expect(layouts[0]).toMatchObject({ isModel: true });
    expect(layouts[0]?.entities).toBeGreaterThan(5);
    expect(layouts.find((l) => l.name === '布局一')).toMatchObject({ isModel: false });
    const counts = info.entityCounts as Record<string, number>;
    for (const t of ['TEXT', 'MTEXT', 'INSERT', 'DIMENSION', 'HATCH']) expect(counts[t], t).toBeGreaterThan(0);
    expect(Array.isArray(info.missingFonts)).toBe(true);
    // No $EXTMIN/$EXTMAX in this file: the extents of what the model draws (the 12 m x 9 m plan).
    const ext = info.extents as { min: number[]; max: number[] };
    expect(ext.max[0]! - ext.min[0]!).toBeGreaterThan(12_000);
    expect(ext.max[1]! - ext.min[1]!).toBeGreaterThan(9_000);
    expect(Array.isArray(info.warnings)).toBe(true);
  });

  it("finds a PDF underlay's PDF beside the drawing by its file name, whatever folder it recorded", () => {
    const beside = JSON.parse(ok('underlayBeside').stdout) as { warnings: string[] };
    expect(beside.warnings.join('\n')).not.toMatch(/PDFUNDERLAY/);
    const alone = JSON.parse(ok('underlayAlone').stdout) as { warnings: string[] };
    expect(alone.warnings.join('\n')).toMatch(/PDFUNDERLAY not drawn: its file "C:\\drawings\\PAGE.pdf" was not given with the drawing/);
  });

  it('reads a binary R12 DXF', () => {
    const info = JSON.parse(ok('infoBinary').stdout) as Record<string, unknown>;
    expect(info).toMatchObject({ format: 'dxf', dxf: 'binary', version: 'AC1009' });
    expect(Object.values(info.entityCounts as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});

describe('cad convert', () => {
  it('writes a PNG exactly --width pixels wide, and says what it wrote', () => {
    expect(ok('png').stdout).toContain(out('zh.png'));
    const [w, h] = pngSize(out('zh.png'));
    expect(w).toBe(320);
    expect(h).toBeGreaterThan(10);
  });

  it('paints a black background when asked', () => {
    ok('pngBlack');
    expect(pngSize(out('black.png'))[0]).toBe(200);
  });

  it('writes a PDF', () => {
    ok('pdf');
    expect(readFileSync(out('zh.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('writes a JPG for .jpeg, and an SVG', () => {
    ok('jpg');
    expect([...readFileSync(out('r12.jpeg')).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    ok('svg');
    expect(readFileSync(out('r12.svg'), 'utf8')).toMatch(/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)?<svg[\s>]/);
  });

  it('--all-layouts: one raster per layout, named OUT-<layout>.png', () => {
    const { stdout } = ok('allPng');
    const written = stdout.split('\n').filter((l) => l.startsWith('wrote '));
    expect(written.length).toBeGreaterThanOrEqual(2);
    for (const line of written) {
      const file = /^wrote (.+?) \(/.exec(line)?.[1] ?? '';
      expect(file).toMatch(/all-.+\.png$/);
      expect(existsSync(file), file).toBe(true);
      expect(pngSize(file)[0]).toBe(128);
    }
  });

  it('--all-layouts: one PDF with a page per layout', () => {
    ok('allPdf');
    const pdf = readFileSync(out('all.pdf')).toString('latin1');
    const pages = pdf.match(/\/Type\s*\/Page\b(?!s)/g) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(2);
  });

  it('--layout picks a paper-space layout by its (Chinese) name', () => {
    expect(ok('layout').stdout).toContain('布局一');
    expect(pngSize(out('layout.png'))[0]).toBe(100);
  });

  it('names per-layout files OUT-<layout>.ext, keeping CJK and replacing what a file name cannot hold', () => {
    expect(layoutFileName('/out/plan.png', 'Sheet 1/A:B')).toBe('/out/plan-Sheet_1_A_B.png');
    expect(layoutFileName('plan.svg', '布局一')).toBe('plan-布局一.svg');
  });

  it('--help prints the usage', () => {
    expect(ok('help').stdout).toMatch(/cad convert IN OUT/);
    expect(ok('help').stdout).toContain('DWG output: 2000, 2004, 2007, 2010, 2013, 2018 (default 2018)');
  });
});

describe('cad convert with the files a drawing refers to', () => {
  it('draws the xref found beside the drawing and the picture in --refs, and names both', () => {
    const r = ok('withRefs');
    expect(r.stderr).toContain('cad: note: external reference C:\\图纸\\site.dwg: drawn from site.dxf');
    expect(r.stderr).toContain('cad: note: picture D:\\logo.png: drawn from logo.png');
    const svg = readFileSync(out('job/host.svg'), 'utf8');
    expect(svg).toContain('href="data:image/png;base64,');
    // The host's own line and the site's: two paths where the drawing alone has one.
    const alone = readFileSync(out('lonely/alone.svg'), 'utf8');
    expect(svg.match(/<path /g)?.length ?? 0).toBeGreaterThan(alone.match(/<path /g)?.length ?? 0);
  });

  it('cad info lists the references, found beside the file or not', () => {
    const info = JSON.parse(ok('infoRefs').stdout) as { references: { found: unknown[]; missing: unknown[] } };
    expect(info.references).toEqual({
      found: [{ kind: 'xref', reference: 'C:\\图纸\\site.dwg', file: 'site.dxf' }],
      missing: [{ kind: 'image', reference: 'D:\\logo.png', reason: 'not-supplied' }],
    });
  });

  it('says which references it could not find', () => {
    const r = ok('withoutRefs');
    expect(r.stderr).toContain('cad: note: picture D:\\logo.png: no file of that name beside the drawing');
    expect(r.stderr).toContain('cad: note: external reference C:\\图纸\\site.dwg: no file of that name beside the drawing');
    expect(readFileSync(out('lonely/alone.svg'), 'utf8')).not.toContain('data:image/png');
  });

  it('refuses --refs that is not a folder, and --refs for a .dxf output', () => {
    expect(results['refsNotFolder']).toMatchObject({ code: 1 });
    expect(results['refsNotFolder']?.stderr).toMatch(/^cad: --refs .*no-such-folder: not a folder\n$/);
    expect(results['refsForDxf']?.code).toBe(2);
    expect(results['refsForDxf']?.stderr).toContain('--refs is not used for a .dxf output');
  });
});

describe('cad errors: exit code and one line "cad: <reason>" on stderr', () => {
  const cases: [string, number, RegExp][] = [
    ['noArgs', 2, /missing command/],
    ['unknownCommand', 2, /unknown command 'draw' \(convert, info or server/],
    ['serverNoSub', 2, /missing subcommand: cad server status\|start\|stop\|run/],
    ['serverBadSub', 2, /unknown subcommand 'restart'/],
    ['serverExtra', 2, /unexpected argument 'now'/],
    ['unknownOption', 2, /unknown option '--colour-depth'/],
    ['missingValue', 2, /--width needs a value/],
    ['widthAndDpi', 2, /either --width or --dpi/],
    ['layoutAndAll', 2, /either --layout or --all-layouts/],
    ['badWidth', 2, /--width must be a whole number/],
    ['zeroWidth', 2, /--width must be/],
    ['negativeDpi', 2, /--dpi must be/],
    ['badPaper', 2, /--paper must be one of A0, A1, A2, A3, A4, fit/],
    ['badExtension', 2, /output format.*\.pdf, \.png, \.jpg, \.svg, \.dxf or \.dwg/],
    ['missingOutput', 2, /needs an input and an output/],
    ['missingFile', 1, /cannot read .*nope\.dxf: no such file/],
    ['folderInput', 1, /is a folder/],
    ['unwritable', 1, /cannot write .*x\.png/],
    ['emptyFile', 1, /empty/],
    ['garbage', 1, /not a DWG or DXF drawing/],
    ['pdfInput', 1, /PDF/],
    ['truncatedDwg', 1, /truncated\.dwg/],
    ['unknownLayout', 1, /no layout named 'Sheet 99' \(layouts: Model, /],
    ['nothingDrawable', 1, /no drawable entities/],
  ];
  it.each(cases)('%s: exit %i', (name, code, message) => {
    const r = results[name];
    expect(r).toBeDefined();
    expect(r?.code, r?.stderr).toBe(code);
    const lines = (r?.stderr ?? '').split('\n').filter(Boolean);
    expect(lines, r?.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^cad: /);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).not.toMatch(/\bat .*\.ts:\d+/);
    expect(r?.stdout).toBe('');
  });

  it('writes no output file when the input is refused', () => {
    expect(existsSync(out('x.png'))).toBe(false);
  });
});

describe('cad convert to DXF', () => {
  it('writes a DWG as R12 DXF, listing what R12 cannot hold as notes', () => {
    const { stdout, stderr } = ok('dxfR12');
    expect(stdout).toMatch(/^wrote .*acs-r12\.dxf \(DXF R12; /);
    const text = readFileSync(out('acs-r12.dxf'), 'latin1');
    expect(text).toMatch(/\$ACADVER\r\n {2}1\r\nAC1009\r\n/);
    expect(text).not.toContain('LWPOLYLINE');
    expect(stderr).toContain('cad: note: LWPOLYLINE:');
    expect(stderr).toContain('cad: note: MTEXT:');
  });

  it('writes a DWG as binary 2018 DXF by default version', () => {
    const { stdout } = ok('dxf2018');
    expect(stdout).toContain('(DXF 2018 binary;');
    const b = readFileSync(out('acs-2018.dxf'));
    expect(b.subarray(0, 22).toString('latin1')).toBe('AutoCAD Binary DXF\r\n\x1a\0');
    expect(b.includes(Buffer.from('AC1032\0'))).toBe(true);
  });

  it('turns a PDF back into a DXF of the version asked (--pages)', async () => {
    expect((await cad(['convert', GBK, out('zh.pdf')])).code).toBe(0);
    const run = await cad(['convert', out('zh.pdf'), out('from-pdf.dxf'), '--version', '2004', '--pages', '1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^wrote .*from-pdf\.dxf \(DXF 2004; /);
    const text = readFileSync(out('from-pdf.dxf'), 'latin1');
    expect(text).toMatch(/\$ACADVER\r\n {2}1\r\nAC1018\r\n/);
    expect(text).toContain('$INSUNITS');
    // The Chinese text of the drawing survives, GBK-encoded in a 2004 DXF and read back.
    const { drawing } = readDxf(readFileSync(out('from-pdf.dxf')));
    const texts = drawing.modelSpace.flatMap((entity) => (entity.type === 'TEXT' ? [entity.text] : []));
    expect(texts.some((value) => /[\u4e00-\u9fff]/.test(value))).toBe(true);
    expect((await cad(['convert', GBK, out('x2.dxf'), '--pages', '1'])).code).toBe(2);
  }, 60_000);

  it('refuses an unknown version and render options for a .dxf output (exit 2)', () => {
    for (const name of ['dxfBadVersion', 'dxfWithWidth', 'versionForPng']) {
      expect(results[name]?.code, name).toBe(2);
      expect(results[name]?.stderr, name).toMatch(/^cad: .*(--version|--width)/);
    }
  });
});

describe('cad convert to DWG', () => {
  it('writes a GBK DXF as DWG 2000 that LibreDWG reads back with its entities and Chinese text', async () => {
    const { stdout } = ok('dwgFromDxf');
    expect(stdout).toMatch(/^wrote .*zh\.dwg \(DWG 2000; /);
    const bytes = readFileSync(out('zh.dwg'));
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('AC1015');
    const source = readDxf(readFileSync(GBK)).drawing;
    const { drawing, warnings } = await readDwg(bytes);
    expect(warnings).toEqual([]);
    expect(drawing.modelSpace.length).toBe(source.modelSpace.length);
    const texts = (d: typeof drawing): string[] =>
      d.modelSpace.flatMap((e) => (e.type === 'TEXT' || e.type === 'MTEXT' ? [e.text] : [])).sort();
    expect(texts(drawing)).toEqual(texts(source));
    expect(texts(drawing).some((t) => /[\u4e00-\u9fff]/.test(t))).toBe(true);
  });

  it('writes a DWG as DWG of the default release', async () => {
    const { stdout } = ok('dwgFromDwg');
    expect(stdout).toMatch(/^wrote .*acs\.dwg \(DWG 2018; /);
    const bytes = readFileSync(out('acs.dwg'));
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('AC1032');
    const { drawing, warnings } = await readDwg(bytes);
    // LibreDWG flags R2004+ files without FileDepList and Security sections (code 64), AutoCAD's own included.
    expect(warnings.filter((w) => !/\(code 64\)/.test(w))).toEqual([]);
    expect(drawing.modelSpace.length).toBeGreaterThan(100);
  });

  it('refuses an unknown or unwritten release and the options a .dwg does not use (exit 2, one line)', () => {
    for (const [name, message] of [
      ['dwgBadVersion', /--version must be one of 2000, 2004, 2007, 2010, 2013, 2018 \(got '2019'\)/],
      ['dwgR12', /--version must be one of 2000, 2004, 2007, 2010, 2013, 2018 \(got 'R12'\)/],
      ['dwgBinary', /--binary is not used for a \.dwg output/],
    ] as const) {
      const r = results[name];
      expect(r?.code, name).toBe(2);
      const lines = (r?.stderr ?? '').split('\n').filter(Boolean);
      expect(lines, name).toHaveLength(1);
      expect(lines[0], name).toMatch(message);
    }
    expect(existsSync(out('x.dwg'))).toBe(false);
  });
});

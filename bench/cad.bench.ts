// CAD engine benchmark (decision 0017): the CAD engine against its peers, in the same run, on the corpus.
//  1. Per-file wall time of the `cad convert FILE out.pdf` and `out.png` commands, run as a user
//     runs them (`packages/cad-cli/bin/cad`, one command per file, as the peers are run), against
//     ezdxf (`python3 -m ezdxf draw -o out.png FILE`) and LibreCAD (`librecad dxf2pdf`); medians
//     over the corpus DXF files (the gen_large_* files excluded). Targets: ours/ezdxf <= 0.20 (PNG
//     vs ezdxf's PNG), ours/LibreCAD <= 1.0 (PDF vs its PDF). The command hands its work to the
//     resident engine (decision 0024), started with `cad server start` before the timing; the bench
//     checks that the engine ran every timed command (a command it declined would run cold).
//     LibreCAD writes a blank page for many files: its median is also given over the files it
//     really drew, with our median over the same files.
//  1b. Two more figures per file, not the targets: cold, the same command with CAD_SERVER=0 (a
//     Node process of its own per file, what the engine saves), and warm, one long-lived process
//     converting each file in turn through `convertDrawing` (as the conversion workers run).
//  2. The large DXF files to PDF and to PNG: wall time < 8 s and peak RSS < 1 GiB each, measured
//     cold (a process of its own, whose memory /usr/bin/time sees); ezdxf's time.
//  3. Ink F1 against ezdxf: both PNGs cropped to their ink, scaled to 1024 px wide, binarised,
//     matched with a 2-px tolerance; target >= 0.85 for every file ezdxf draws correctly.
//     The reference picture is drawn by ezdxf through bench/ezdxf-draw.py: its own `draw` command
//     with our engine's font substitutes registered (Liberation Sans/Serif/Mono for Arial, Times and
//     Courier at the originals' em size, DejaVu Sans for SHX and unknown fonts). Without it ezdxf sets
//     Arial, which is not installed, in DejaVu Sans, much wider, so its lines wrap and end elsewhere
//     and the F1 measured the fonts rather than the rendering. The timing stays that of the plain
//     `python3 -m ezdxf draw` (the fonts cost ezdxf time too: it would not be the command the
//     speed target names).
//  4. Decision 0025: the Chinese drawings with the CJK font the engine ships (Noto Sans SC/Serif SC,
//     npm) against the installed Noto Sans CJK (today's system font: $BENCH_CJK_FONT, else
//     fonts-noto-cjk's file), installed fonts otherwise hidden in both (CAD_SYSTEM_FONTS=0), so
//     only the CJK font differs: warm (one process, the two taking turns conversion by
//     conversion, 7 pairs per file; the median of the pairs' ratios, so load drifting on a busy
//     machine cancels out; target: shipped <= 1.2 x system) and cold (CAD_SERVER=0, a process per
//     command: the font's start-up cost, paid once per process).
// Peer outputs and timings are cached under bench/results/cad/ keyed by the file's hash
// (`--fresh` recomputes them; `--ours-only` never runs a peer, using only cached peer results).
// Runs everything one at a time: the machine has two cores.
// Usage: npm run bench:cad [-- --fresh] [--ours-only] [--only NAME] [--no-large] [--no-dwg] [--no-warm]
//        [--no-cold] [--no-quality] [--no-cjk] [--cjk-only] [--peers-only] [--quality-only]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cadArgv, CLI, EngineTally, stopEngine } from './cad-command';
import { decodePng } from './ezdxf-picture';
import { runProcess } from './run-process';
import { compareInk, cropAndScale, inkCount, inkMask, type InkMask, type InkScore } from '@xcad/cad/testing';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = process.env.CAD_CORPUS ?? path.resolve(root, '..', 'shared', 'corpus');
const RESULTS = path.join(root, 'bench', 'results', 'cad');
const PYTHON = '/usr/bin/python3';
/** ezdxf's `draw` with our font substitutes: the reference picture for the ink F1 (see the header). */
const EZDXF_REF = path.join(root, 'bench', 'ezdxf-draw.py');
/** Bump when the reference changes: cached reference pictures of another version are drawn again. */
const EZDXF_REF_VERSION = 2;
const EZDXF_TIMEOUT_MS = 120_000;
const LIBRECAD_TIMEOUT_MS = 60_000;
const OURS_TIMEOUT_MS = 120_000;
const TARGET_EZDXF_RATIO = 0.2;
const TARGET_LIBRECAD_RATIO = 1.0;
const TARGET_LARGE_S = 8;
const TARGET_LARGE_RSS_MB = 1024;
const TARGET_F1 = 0.85;
const F1_WIDTH = 1024;
/** The ink box leaves out 0.1% of the ink on each side: a stray dot far away must not set the scale. */
const TRIM = 0.001;

const ACS_SAMPLE_XLINES =
  'ezdxf draws the XLINE and the RAY as 20-unit lines left of the drawing (x = -6.8 and -15.4; $EXTMIN x is 0: AutoCAD keeps them out of the extents, so an extents plot shows neither), and they set its ink box (F1 0.99 with the two removed); it also ignores the XCLIP of one block and draws no frame for the WIPEOUT (WIPEOUTFRAME 1) nor for the IMAGE whose picture is missing';

/**
 * Files where ezdxf 0.18's own render is visibly wrong, so its ink is no reference (looked at side
 * by side). The reason is printed with the table.
 */
const EZDXF_WRONG: Record<string, string> = {
  'mlcad_block-color.dxf': 'ezdxf draws the Chinese MTEXT as boxes (no CJK font)',
  'skydxf_hatches.dxf':
    'the HATCH names pattern gost_non-metal without its lines; ezdxf leaves it empty, we draw the GOST 45-degree cross-hatch',
  'skydxf_polyfacemesh.dxf': 'ezdxf draws the invisible edges of the polyface faces (AutoCAD, and we, draw only the visible ones)',
  'ezdxf_viewports_paperspace.dxf': 'ezdxf draws no frame for IMAGE entities whose picture is missing (we draw the frame)',
  'ldwg_2013_gh109_1_zh_tarch.dxf':
    'ezdxf draws the Chinese text as boxes and leaves out the doors and the stair of the TArch proxy graphics',
  'ldwg_example_2000.dxf': 'ezdxf leaves out the XLINE and the RAY (AutoCAD plots them, clipped to the plot area, as we do)',
  'ldwg_example_2000_binary.dxf': 'ezdxf leaves out the XLINE and the RAY (AutoCAD plots them, clipped to the plot area, as we do)',
  'ldwg_example_2018.dxf': 'ezdxf leaves out the XLINE and the RAY (AutoCAD plots them, clipped to the plot area, as we do)',
  'ldwg_example_2018_binary.dxf': 'ezdxf leaves out the XLINE and the RAY (AutoCAD plots them, clipped to the plot area, as we do)',
  'ldwg_example_r14.dxf': 'ezdxf leaves out the XLINE and the RAY (AutoCAD plots them, clipped to the plot area, as we do)',
  'ldwg_2000_TS1.dxf': 'ezdxf draws the RAY out to an arbitrary length, which sets its ink box; we clip it to the extents of the rest',
  'ezdxf_wipeout_door.dxf': 'ezdxf shifts the lower MTEXTs ~1500 units right of their insertion point (x=11538, above the second door)',
  'ezdxf_xclip.dxf':
    'ezdxf 0.18 ignores XCLIP (the SPATIAL_FILTER of each block reference): it draws all 8 clipped references whole; AutoCAD, and we, show only what each rectangular, polygonal or inverted boundary keeps',
  'acs_sample_AC1015_ascii.dxf': ACS_SAMPLE_XLINES,
  'acs_sample_AC1018_ascii.dxf': ACS_SAMPLE_XLINES,
  'acs_sample_AC1021_ascii.dxf': ACS_SAMPLE_XLINES,
  'acs_sample_AC1027_ascii.dxf': ACS_SAMPLE_XLINES,
  'acs_sample_AC1032_ascii.dxf': ACS_SAMPLE_XLINES,
  'ezdxf_valid_lineweights.dxf':
    'ezdxf 0.18 hands the lineweight in mm to matplotlib as points (2.11 mm drawn 0.74 mm, every weight at 0.35 of its width) with projecting line ends: the 2.11 mm line sticks out past the ends of the others (1098 px long against 1092 in its picture) and widens its ink box, which shifts everything by up to 16 px at 1024 px (aligned F1 0.99). We end the lines at the extents of the drawing (the plot area of an extents plot) and draw the weights at their plotted width on the page',
};

interface RunResult {
  ms: number;
  /** 'refused': ours exited 1 with a one-line reason (an empty drawing): an answer, not a crash. */
  status: 'ok' | 'crash' | 'timeout' | 'refused';
  /** Peak resident memory of the process, MB (from /usr/bin/time). */
  rssMb?: number;
  error?: string;
}

interface PeerCache {
  /** Plain `ezdxf draw`: the timing. */
  ezdxf?: RunResult & { ink?: boolean };
  /** bench/ezdxf-draw.py: the reference picture for the ink F1, of version `v`. */
  ezdxfRef?: RunResult & { ink?: boolean; v?: number };
  /** `ink`: its PDF, rasterised, shows anything (LibreCAD often writes an empty, tiny page). */
  librecad?: RunResult & { ink?: boolean };
}

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(`--${name}`);
const only = ((): string | undefined => {
  const i = args.indexOf('--only');
  return i >= 0 ? args[i + 1] : undefined;
})();
const haveTime = existsSync('/usr/bin/time');
/** `--peers-only`: fill the peer cache without running ours (e.g. before the engine is complete). */
const peersOnly = flag('peers-only');
const SKIPPED: RunResult = { ms: NaN, status: 'crash', error: 'not run (--peers-only)' };
/** `--quality-only`: recompute the ink F1 from the PNGs of the previous run (no timing). */
const qualityOnly = flag('quality-only');
/** `--ours-only`: time ours only; the peers' figures come from the cache (a peer without one is left out). */
const oursOnly = flag('ours-only');

/** Runs a command with a timeout (its process group killed then), with its peak memory when /usr/bin/time is there. */
async function run(cmd: string, cmdArgs: string[], timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  const timeFile = path.join(RESULTS, `time.${process.pid}.txt`);
  const argv = haveTime ? ['/usr/bin/time', '-f', '%M', '-o', timeFile, cmd, ...cmdArgs] : [cmd, ...cmdArgs];
  const r = await runProcess(argv[0] as string, argv.slice(1), { timeoutMs, env, ignoreLine: /^Command (exited|terminated)/ });
  let rssMb: number | undefined;
  if (haveTime && existsSync(timeFile)) {
    const kb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop());
    if (Number.isFinite(kb) && kb > 0) rssMb = kb / 1024;
    rmSync(timeFile, { force: true });
  }
  return { ms: r.ms, status: r.status, ...(r.status !== 'timeout' && rssMb ? { rssMb } : {}), ...(r.error ? { error: r.error } : {}) };
}

const sha1 = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('hex').slice(0, 16);
const median = (xs: number[]): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const secs = (r: (RunResult & { ink?: boolean }) | undefined): string =>
  r ? `${(r.ms / 1000).toFixed(2)}${r.status === 'ok' ? (r.ink === false ? ' blank' : '') : ` ${r.status}`}` : '-';

/** A side-by-side picture of two ink masks (ours left, ezdxf right) for looking at the differences. */
async function writeSideBySide(file: string, a: InkMask, b: InkMask): Promise<void> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const w = a.width + b.width + 16;
  const h = Math.max(a.height, b.height);
  const canvas = createCanvas(w, h);
  const g = canvas.getContext('2d');
  const img = g.createImageData(w, h);
  img.data.fill(255);
  const paint = (m: InkMask, ox: number, rgb: [number, number, number]): void => {
    for (let y = 0; y < m.height; y++)
      for (let x = 0; x < m.width; x++) {
        if (!m.bits[y * m.width + x]) continue;
        const i = (y * w + ox + x) * 4;
        [img.data[i], img.data[i + 1], img.data[i + 2]] = rgb;
      }
  };
  paint(a, 0, [0, 0, 0]);
  paint(b, a.width + 16, [0, 0, 160]);
  g.putImageData(img, 0, 0);
  writeFileSync(file, canvas.toBuffer('image/png'));
}

function loadCache(key: string): PeerCache {
  const f = path.join(RESULTS, 'peers', `${key}.json`);
  if (flag('fresh') || !existsSync(f)) return {};
  return JSON.parse(readFileSync(f, 'utf8')) as PeerCache;
}
function saveCache(key: string, c: PeerCache): void {
  writeFileSync(path.join(RESULTS, 'peers', `${key}.json`), JSON.stringify(c, null, 1));
}

const ezdxfRefPng = (key: string): string => path.join(RESULTS, 'peers', `${key}.ezdxf-ref.png`);

/** Runs ezdxf (argv after the interpreter) writing `png`: the result, 'crash' without output, `ink` when it drew anything. */
async function runEzdxf(argv: string[], png: string): Promise<RunResult & { ink?: boolean }> {
  rmSync(png, { force: true });
  const r = await run(PYTHON, argv, EZDXF_TIMEOUT_MS, { ...process.env, MPLBACKEND: 'Agg' });
  const result: RunResult & { ink?: boolean } = r.status === 'ok' && !existsSync(png) ? { ...r, status: 'crash', error: 'no output' } : r;
  if (result.status === 'ok') {
    const img = await decodePng(png);
    result.ink = img ? inkCount(inkMask(img)) > 0 : false;
  }
  return result;
}

/**
 * ezdxf on a file: the plain `ezdxf draw` (its time, returned) and, except for the large files, the
 * reference picture through bench/ezdxf-draw.py (`cache.ezdxfRef`), each run once and cached.
 */
async function ezdxf(file: string, key: string, cache: PeerCache): Promise<(RunResult & { ink?: boolean }) | undefined> {
  const png = path.join(RESULTS, 'peers', `${key}.ezdxf.png`);
  if (!(cache.ezdxf && (cache.ezdxf.status !== 'ok' || existsSync(png))) && !oursOnly)
    cache.ezdxf = await runEzdxf(['-m', 'ezdxf', 'draw', '-o', png, file], png);
  const ref = cache.ezdxfRef;
  const refOk = ref?.v === EZDXF_REF_VERSION && (ref.status !== 'ok' || existsSync(ezdxfRefPng(key)));
  if (!refOk && !oursOnly && !path.basename(file).startsWith('gen_large_')) {
    cache.ezdxfRef = { ...(await runEzdxf([EZDXF_REF, '-o', ezdxfRefPng(key), file], ezdxfRefPng(key))), v: EZDXF_REF_VERSION };
  }
  return cache.ezdxf;
}

async function librecad(file: string, key: string, cache: PeerCache): Promise<(RunResult & { ink?: boolean }) | undefined> {
  if (cache.librecad && cache.librecad.ink !== undefined) return cache.librecad;
  if (cache.librecad && cache.librecad.status !== 'ok') return cache.librecad;
  if (oursOnly) return undefined;
  const dir = path.join(RESULTS, 'librecad', key);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const r = await run('librecad', ['dxf2pdf', '-t', dir, file], LIBRECAD_TIMEOUT_MS, { ...process.env, QT_QPA_PLATFORM: 'offscreen' });
  const pdf = readdirSync(dir).find((f) => f.endsWith('.pdf'));
  const result: RunResult & { ink?: boolean } = r.status === 'ok' && !pdf ? { ...r, status: 'crash', error: 'no PDF written' } : r;
  if (pdf && result.status === 'ok') {
    const png = path.join(dir, 'page');
    await run('pdftoppm', ['-r', '50', '-png', '-singlefile', path.join(dir, pdf), png], 60_000);
    const img = await decodePng(`${png}.png`);
    result.ink = img ? inkCount(inkMask(img)) > 0 : false;
  }
  cache.librecad = result;
  return result;
}

/** The commands timed through the resident engine (it must have run each). */
const tally = new EngineTally();

/** `cad convert FILE OUT`: through the resident engine, or `cold` (CAD_SERVER=0, a Node process per file). */
async function ours(file: string, out: string, extra: string[] = [], cold = false): Promise<RunResult> {
  rmSync(out, { force: true });
  if (!cold) tally.sent++;
  const { cmd, argv, env } = cadArgv(['convert', file, out, ...extra], cold);
  const r = await run(cmd, argv, OURS_TIMEOUT_MS, env);
  if (r.status === 'crash' && /^exit 1: cad: .*(no drawable entities|not a DWG or DXF|empty)/.test(r.error ?? ''))
    return { ...r, status: 'refused' };
  return r.status === 'ok' && !existsSync(out) ? { ...r, status: 'crash', error: 'no output' } : r;
}

interface Row {
  name: string;
  kb: number;
  pdf: RunResult;
  png: RunResult;
  /** The same commands with CAD_SERVER=0: a Node process per file. */
  pdfCold?: RunResult;
  pngCold?: RunResult;
  ez?: RunResult & { ink?: boolean };
  /** ezdxf's reference picture (bench/ezdxf-draw.py), when cached at the current version. */
  ezRef?: RunResult & { ink?: boolean };
  lc?: RunResult & { ink?: boolean };
  f1?: (InkScore & { aligned?: InkScore }) | null;
  note?: string;
}

function pngWidth(file: string): number {
  const b = readFileSync(file);
  return b.length > 24 ? b.readUInt32BE(16) : 0;
}

async function quality(name: string, key: string, oursPng: string, row: Row): Promise<void> {
  if (EZDXF_WRONG[name]) {
    row.note = `not compared: ${EZDXF_WRONG[name]}`;
    return;
  }
  const ref = row.ezRef;
  if (!ref || ref.status !== 'ok' || !ref.ink) {
    row.note =
      ref?.status === 'ok'
        ? 'not compared: ezdxf drew nothing'
        : `not compared: ezdxf ${ref ? ref.status : 'reference not drawn (run the peers)'}`;
    return;
  }
  if (row.png.status !== 'ok') return;
  // Our PNG at the comparison width (the timed one may be another width).
  let png = oursPng;
  if (pngWidth(oursPng) < F1_WIDTH) {
    png = path.join(RESULTS, 'ours', `${name}.1024.png`);
    const r = await ours(path.join(CORPUS, 'dxf', name), png, ['--width', String(F1_WIDTH)]);
    if (r.status !== 'ok') return;
  }
  const [a, b] = await Promise.all([decodePng(png), decodePng(ezdxfRefPng(key))]);
  if (!a || !b) return;
  row.f1 = compareInk(a, b, { width: F1_WIDTH, tolerance: 2, trim: TRIM, aligned: true });
  if (row.f1 && row.f1.f1 < TARGET_F1) {
    const ma = cropAndScale(inkMask(a), 800, undefined, TRIM);
    const mb = cropAndScale(inkMask(b), 800, undefined, TRIM);
    if (ma && mb) await writeSideBySide(path.join(RESULTS, 'compare', `${name}.png`), ma, mb);
  }
}

/**
 * The warm figure: this process converts each file in turn through `convertDrawing` (modules,
 * fonts and caches loaded once, as in a conversion worker); one untimed conversion first for each
 * format. Refusals (an empty drawing) are timed like conversions.
 */
async function warmTimes(
  files: string[],
): Promise<{ pdf: number; png: number; byFile: Map<string, { pdf: number; png: number }>; failed: string[] }> {
  const { convertDrawing } = await import('../packages/cad/src/convert');
  const byFile = new Map<string, { pdf: number; png: number }>();
  const failed: string[] = [];
  const once = async (file: string, name: string, format: 'pdf' | 'png'): Promise<number> => {
    const bytes = readFileSync(file);
    const t = performance.now();
    try {
      await convertDrawing(bytes, { format, name });
    } catch (e) {
      const refused = (e as Error).name === 'CadReadError' && (e as { reason?: string }).reason === 'empty';
      if (!refused) failed.push(`${name} ${format}: ${(e as Error).message.split('\n')[0]}`);
    }
    return performance.now() - t;
  };
  for (const format of ['pdf', 'png'] as const) {
    if (files[0]) await once(path.join(CORPUS, 'dxf', files[0]), files[0], format);
    for (const name of files) {
      const ms = await once(path.join(CORPUS, 'dxf', name), name, format);
      const entry = byFile.get(name) ?? { pdf: NaN, png: NaN };
      entry[format] = ms;
      byFile.set(name, entry);
    }
  }
  const all = [...byFile.values()];
  return { pdf: median(all.map((x) => x.pdf)), png: median(all.map((x) => x.png)), byFile, failed };
}

/** The Chinese drawings of the corpus (section 4). */
const CJK_DRAWINGS = [
  'dxf/gen_zh_r2000_gbk.dxf',
  'dxf/gen_zh_r2018_utf8.dxf',
  'dxf/mlcad_block-color.dxf',
  'dxf/ldwg_2013_gh109_1_zh_tarch.dxf',
  'dwg/ldwg_2013_gh109_1_zh_tarch.dwg',
  'dwg/lc_tarch_t1.dwg',
];
const TARGET_CJK_RATIO = 1.2;
const CJK_ROUNDS = 7;

/** Section 4: the shipped CJK font against the installed one. True when met (or not measurable here). */
async function cjkFontBench(): Promise<boolean> {
  const systemFont = process.env.BENCH_CJK_FONT ?? '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
  const files = CJK_DRAWINGS.filter((f) => existsSync(path.join(CORPUS, f)));
  if (!existsSync(systemFont) || !files.length) {
    console.log(
      `\nShipped CJK font vs the system's: no ${existsSync(systemFont) ? 'Chinese corpus drawing' : `Noto Sans CJK at ${systemFont} (set BENCH_CJK_FONT)`}: not measured.`,
    );
    return true;
  }
  const configs = {
    shipped: { CAD_SYSTEM_FONTS: '0', XCAD_CJK_FONT: '' },
    system: { CAD_SYSTEM_FONTS: '0', XCAD_CJK_FONT: systemFont },
  } as const;
  const { convertDrawing } = await import('../packages/cad/src/convert');
  const withEnv = async <T>(env: Record<string, string>, f: () => Promise<T>): Promise<T> => {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      return await f();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  };
  type Config = keyof typeof configs;
  const times = new Map<string, number[]>();
  const key = (file: string, config: Config, format: string): string => `${file}|${config}|${format}`;
  // The two configurations take turns conversion by conversion (pairs, the first of a pair
  // alternating), after one untimed conversion each: on a busy machine the ratio within a pair
  // cancels the load that drifts from second to second.
  const ratios = new Map<string, number[]>();
  for (const file of files) {
    const bytes = readFileSync(path.join(CORPUS, file));
    for (const format of ['pdf', 'png'] as const) {
      const once = (config: Config): Promise<number> =>
        withEnv(configs[config], async () => {
          const t = performance.now();
          await convertDrawing(bytes, { format, name: file });
          return performance.now() - t;
        });
      await once('shipped');
      await once('system');
      for (let round = 0; round < CJK_ROUNDS; round++) {
        const pair: Partial<Record<Config, number>> = {};
        for (const config of (round % 2 ? ['system', 'shipped'] : ['shipped', 'system']) as Config[]) pair[config] = await once(config);
        for (const config of ['shipped', 'system'] as Config[])
          times.set(key(file, config, format), [...(times.get(key(file, config, format)) ?? []), pair[config] as number]);
        ratios.set(`${file}|${format}`, [...(ratios.get(`${file}|${format}`) ?? []), (pair.shipped as number) / (pair.system as number)]);
      }
    }
  }
  const f3 = (seconds: number): string => (Number.isFinite(seconds) ? seconds.toFixed(3) : '-');
  const at = (file: string, config: Config, format: string): number => median(times.get(key(file, config, format)) ?? []) / 1000;
  const ratioAt = (file: string, format: string): number => median(ratios.get(`${file}|${format}`) ?? []);
  console.log(
    `\nShipped CJK font (Noto Sans SC / Serif SC, npm) vs the installed one (${path.basename(systemFont)}), installed Latin fonts hidden in both`,
  );
  console.log(
    `warm: one process, convertDrawing per file, the two fonts taking turns (${CJK_ROUNDS} pairs after an untimed conversion each); ratio: median of the pairs' shipped/system`,
  );
  console.log('| Chinese drawing | shipped PDF s | system PDF s | PDF ratio | shipped PNG s | system PNG s | PNG ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const file of files)
    console.log(
      `| ${file} | ${f3(at(file, 'shipped', 'pdf'))} | ${f3(at(file, 'system', 'pdf'))} | ${f3(ratioAt(file, 'pdf'))} | ${f3(at(file, 'shipped', 'png'))} | ${f3(at(file, 'system', 'png'))} | ${f3(ratioAt(file, 'png'))} |`,
    );
  const med = (config: Config, format: string): number => median(files.map((f) => at(f, config, format)));
  const ratio = (format: string): number => median(files.map((f) => ratioAt(f, format)));
  const pdfRatio = ratio('pdf'),
    pngRatio = ratio('png');
  console.log(
    `| median | ${f3(med('shipped', 'pdf'))} | ${f3(med('system', 'pdf'))} | ${f3(pdfRatio)} | ${f3(med('shipped', 'png'))} | ${f3(med('system', 'png'))} | ${f3(pngRatio)} |`,
  );
  const isMet = pdfRatio <= TARGET_CJK_RATIO && pngRatio <= TARGET_CJK_RATIO;
  console.log(
    `shipped / system, warm (median over the drawings): PDF ${pdfRatio.toFixed(3)}, PNG ${pngRatio.toFixed(3)} (target <= ${TARGET_CJK_RATIO}): ${isMet ? 'met' : 'NOT met'}`,
  );
  if (!flag('no-cold')) {
    // Cold: a process per command, which reads and parses its font once.
    const cold = new Map<string, number[]>();
    for (const file of files) {
      for (const format of ['pdf', 'png'] as const) {
        for (const config of ['shipped', 'system'] as Config[]) {
          const { cmd, argv, env } = cadArgv(
            ['convert', path.join(CORPUS, file), path.join(RESULTS, 'ours', `cjk-${config}.${format}`)],
            true,
          );
          const r = await run(cmd, argv, OURS_TIMEOUT_MS, { ...env, ...configs[config] });
          cold.set(`${config}|${format}`, [...(cold.get(`${config}|${format}`) ?? []), r.status === 'ok' ? r.ms / 1000 : NaN]);
        }
      }
    }
    const c = (config: Config, format: string): number => median(cold.get(`${config}|${format}`) ?? []);
    console.log(
      `cold (CAD_SERVER=0, a process per file), median: PDF shipped ${f3(c('shipped', 'pdf'))} s, system ${f3(c('system', 'pdf'))} s; PNG shipped ${f3(c('shipped', 'png'))} s, system ${f3(c('system', 'png'))} s`,
    );
    console.log(
      `the font's start-up cost in a process (cold minus warm, median): shipped PDF ${f3(c('shipped', 'pdf') - med('shipped', 'pdf'))} s, PNG ${f3(c('shipped', 'png') - med('shipped', 'png'))} s`,
    );
  }
  return isMet;
}

export async function runCadBench(): Promise<boolean> {
  if (!existsSync(path.join(CORPUS, 'dxf'))) {
    console.log(`No corpus at ${CORPUS}: nothing to measure (set CAD_CORPUS).`);
    return true;
  }
  if (flag('cjk-only')) {
    mkdirSync(path.join(RESULTS, 'ours'), { recursive: true });
    return cjkFontBench();
  }
  const timingOurs = !peersOnly && !qualityOnly;
  if (!peersOnly) await tally.begin();
  const withCold = timingOurs && !flag('no-cold');
  for (const d of ['peers', 'librecad', 'ours', 'compare']) mkdirSync(path.join(RESULTS, d), { recursive: true });
  const all = readdirSync(path.join(CORPUS, 'dxf'))
    .filter((f) => f.toLowerCase().endsWith('.dxf'))
    .sort();
  const files = all.filter((f) => !f.startsWith('gen_large_') && (only === undefined || f.includes(only)));
  const large = all.filter((f) => f.startsWith('gen_large_') && (only === undefined || f.includes(only)));

  console.log(
    `\nCAD engine: ${files.length} corpus DXF files, one at a time (ours: ${path.relative(root, CLI)} convert; cold: the same with CAD_SERVER=0)`,
  );
  console.log('| file | KB | ours PDF s | ours PNG s | cold PDF s | cold PNG s | ezdxf s | LibreCAD s | ink F1 | aligned F1 |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const rows: Row[] = [];
  for (const name of files) {
    const file = path.join(CORPUS, 'dxf', name);
    const bytes = readFileSync(file);
    const key = sha1(bytes);
    const cache = loadCache(key);
    const pngFile = path.join(RESULTS, 'ours', `${name}.png`);
    const previous: RunResult = existsSync(pngFile) ? { ms: NaN, status: 'ok' } : SKIPPED;
    const pdf = peersOnly ? SKIPPED : qualityOnly ? previous : await ours(file, path.join(RESULTS, 'ours', `${name}.pdf`));
    const png = peersOnly ? SKIPPED : qualityOnly ? previous : await ours(file, pngFile);
    const pdfCold = withCold ? await ours(file, path.join(RESULTS, 'ours', `${name}.cold.pdf`), [], true) : undefined;
    const pngCold = withCold ? await ours(file, path.join(RESULTS, 'ours', `${name}.cold.png`), [], true) : undefined;
    const ez = await ezdxf(file, key, cache);
    const lc = await librecad(file, key, cache);
    saveCache(key, cache);
    const ezRef = cache.ezdxfRef?.v === EZDXF_REF_VERSION ? cache.ezdxfRef : undefined;
    const row: Row = {
      name,
      kb: Math.round(bytes.length / 1024),
      pdf,
      png,
      ...(pdfCold ? { pdfCold } : {}),
      ...(pngCold ? { pngCold } : {}),
      ...(ez ? { ez } : {}),
      ...(ezRef ? { ezRef } : {}),
      ...(lc ? { lc } : {}),
    };
    if (!flag('no-quality') && !peersOnly) await quality(name, key, pngFile, row);
    rows.push(row);
    const f1 = row.f1 ? row.f1.f1.toFixed(3) : row.note ? 'n/a' : '-';
    const aligned = row.f1?.aligned ? row.f1.aligned.f1.toFixed(3) : '-';
    console.log(
      `| ${name} | ${row.kb} | ${secs(pdf)} | ${secs(png)} | ${secs(pdfCold)} | ${secs(pngCold)} | ${secs(ez)} | ${secs(lc)} | ${f1} | ${aligned} |`,
    );
  }
  // Every timed command must have run in the engine (one it declined ran cold and is no engine figure).
  const inEngine = timingOurs ? await tally.check() : { all: true, line: '' };

  // Crashes count at the time they took, timeouts at the limit: a failure is never "fast".
  const mPdf = median(rows.map((r) => r.pdf.ms));
  const mPng = median(rows.map((r) => r.png.ms));
  const mPdfCold = median(rows.flatMap((r) => (r.pdfCold ? [r.pdfCold.ms] : [])));
  const mPngCold = median(rows.flatMap((r) => (r.pngCold ? [r.pngCold.ms] : [])));
  const mEz = median(rows.flatMap((r) => (r.ez ? [r.ez.ms] : [])));
  const mLc = median(rows.flatMap((r) => (r.lc ? [r.lc.ms] : [])));
  const failures = (pick: (r: Row) => RunResult | undefined): string => {
    const bad = rows.filter((r) => pick(r) && pick(r)?.status !== 'ok' && pick(r)?.status !== 'refused');
    const names = bad.slice(0, 6).map((r) => `${r.name}: ${pick(r)?.status}`);
    return bad.length ? `${bad.length} (${names.join('; ')}${bad.length > 6 ? '; ...' : ''})` : '0';
  };
  // LibreCAD over the files where it drew something, and ours over the same files.
  const lcDrew = rows.filter((r) => r.lc?.status === 'ok' && r.lc.ink);
  const mLcDrew = median(lcDrew.map((r) => r.lc?.ms ?? NaN));
  const mPdfLcDrew = median(lcDrew.map((r) => r.pdf.ms));
  // The warm figure: one process, each file through convertDrawing.
  const warm = !flag('no-warm') && !peersOnly && !qualityOnly ? await warmTimes(files) : null;
  const s3 = (ms: number): string => (Number.isFinite(ms) ? (ms / 1000).toFixed(3) : '-');
  console.log('\n| median over the corpus (s) | ours PDF | ours PNG | ezdxf | LibreCAD | LibreCAD, files it drew |');
  console.log('|---|---:|---:|---:|---:|---:|');
  console.log(
    `| \`cad convert\`, a command per file (the targets) | ${s3(mPdf)} | ${s3(mPng)} | ${s3(mEz)} | ${s3(mLc)} | ${s3(mLcDrew)} |`,
  );
  if (withCold) console.log(`| cold: the same, CAD_SERVER=0 (a Node process per file) | ${s3(mPdfCold)} | ${s3(mPngCold)} | | | |`);
  if (warm) console.log(`| warm: one process, convertDrawing per file | ${s3(warm.pdf)} | ${s3(warm.png)} | | | |`);
  if (timingOurs) console.log(inEngine.line);
  // What starting any command costs here (spawn, /usr/bin/time, waiting for it): in every figure.
  const floor: number[] = [];
  for (let i = 0; i < 15; i++) floor.push((await run('/bin/true', [], 10_000)).ms);
  console.log(
    `starting a command at all (/bin/true through the same runner) takes ${s3(median(floor))} s: it is in every per-command figure above, ours and the peers'`,
  );
  console.log(`failures: ours PDF ${failures((r) => r.pdf)}; ours PNG ${failures((r) => r.png)}`);
  console.log(`failures: ezdxf ${failures((r) => r.ez)}; LibreCAD ${failures((r) => r.lc)}`);
  const lcRan = rows.filter((r) => r.lc?.status === 'ok');
  const lcBlank = lcRan.filter((r) => r.lc?.ink === false);
  console.log(`LibreCAD wrote a blank page (nothing drawn) for ${lcBlank.length} of its ${lcRan.length} PDFs.`);
  const ezRatio = mPng / mEz;
  const lcRatio = mPdf / mLc;
  const isEzMet = ezRatio <= TARGET_EZDXF_RATIO && inEngine.all;
  const isLcMet = lcRatio <= TARGET_LIBRECAD_RATIO && inEngine.all;
  console.log(`ours PNG / ezdxf: ${ezRatio.toFixed(3)} (target <= ${TARGET_EZDXF_RATIO}): ${isEzMet ? 'met' : 'NOT met'}`);
  console.log(
    `ours PDF / LibreCAD dxf2pdf, all files: ${lcRatio.toFixed(3)} (target <= ${TARGET_LIBRECAD_RATIO}): ${isLcMet ? 'met' : 'NOT met'}`,
  );
  console.log(
    `ours PDF / LibreCAD dxf2pdf, the ${lcDrew.length} files LibreCAD drew (ours ${s3(mPdfLcDrew)} s, LibreCAD ${s3(mLcDrew)} s): ${(mPdfLcDrew / mLcDrew).toFixed(3)}`,
  );
  if (withCold) {
    const coldLcDrew = median(lcDrew.map((r) => r.pdfCold?.ms ?? NaN));
    console.log(
      `cold (not the target): ours PNG / ezdxf ${(mPngCold / mEz).toFixed(3)}; ours PDF / LibreCAD ${(mPdfCold / mLc).toFixed(3)} all files, ${(coldLcDrew / mLcDrew).toFixed(3)} on the files LibreCAD drew`,
    );
  }
  if (warm) {
    const warmLcDrew = median(lcDrew.map((r) => warm.byFile.get(r.name)?.pdf ?? NaN));
    console.log(
      `warm (not the target): ours PNG / ezdxf ${(warm.png / mEz).toFixed(3)}; ours PDF / LibreCAD ${(warm.pdf / mLc).toFixed(3)} all files, ${(warmLcDrew / mLcDrew).toFixed(3)} on the files LibreCAD drew`,
    );
    if (warm.failed.length) console.log(`warm failures: ${warm.failed.join('; ')}`);
  }
  const oursFailed = rows.filter(
    (r) => (r.pdf.status !== 'ok' && r.pdf.status !== 'refused') || (r.png.status !== 'ok' && r.png.status !== 'refused'),
  );
  const oursRefused = rows.filter((r) => r.png.status === 'refused');
  if (oursRefused.length)
    console.log(
      `ours refused (a clear reason, exit 1): ${oursRefused.map((r) => `${r.name} (${(r.png.error ?? '').replace(/^exit 1: cad: /, '')})`).join('; ')}`,
    );

  // Quality against ezdxf.
  let isF1Met = true;
  if (!flag('no-quality')) {
    const scored = rows.filter((r) => r.f1);
    const below = scored.filter((r) => (r.f1?.f1 ?? 0) < TARGET_F1);
    console.log(
      `\nInk F1 against ezdxf (crop to ink less 0.1% strays, ${F1_WIDTH} px wide, 2-px tolerance): ${scored.length} files compared, median ${median(scored.map((r) => r.f1?.f1 ?? 0)).toFixed(3)}`,
    );
    console.log(`below ${TARGET_F1}: ${below.length ? '' : 'none'}`);
    for (const r of below.sort((x, y) => (x.f1?.f1 ?? 0) - (y.f1?.f1 ?? 0)))
      console.log(
        `  ${r.name}: F1 ${r.f1?.f1.toFixed(3)} (precision ${r.f1?.precision.toFixed(3)}, recall ${r.f1?.recall.toFixed(3)}; aligned ${r.f1?.aligned?.f1.toFixed(3)}); side by side: ${path.relative(root, path.join(RESULTS, 'compare', `${r.name}.png`))}`,
      );
    const notCompared = rows.filter((r) => !r.f1 && r.note);
    if (notCompared.length)
      console.log(`not compared:\n${notCompared.map((r) => `  ${r.name}: ${r.note?.replace('not compared: ', '')}`).join('\n')}`);
    const alignedBelow = scored.filter((r) => (r.f1?.aligned?.f1 ?? 0) < TARGET_F1);
    console.log(
      `aligned F1 (each render's scale and shift fitted to the other, +-8%): median ${median(scored.map((r) => r.f1?.aligned?.f1 ?? 0)).toFixed(3)}, below ${TARGET_F1}: ${alignedBelow.map((r) => r.name).join(', ') || 'none'}`,
    );
    isF1Met = below.length === 0;
    console.log(`ink F1 >= ${TARGET_F1} on every compared file: ${isF1Met ? 'met' : 'NOT met'}`);
  }

  // The large files.
  let isLargeMet = true;
  if (!flag('no-large') && !qualityOnly && large.length) {
    console.log('\n| large file | MB | ours PDF s | PDF peak MB | ours PNG s | PNG peak MB | ezdxf s |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const name of large) {
      const file = path.join(CORPUS, 'dxf', name);
      const bytes = readFileSync(file);
      const key = sha1(bytes);
      const cache = loadCache(key);
      // Cold: /usr/bin/time then sees the memory of the process that did the work.
      const pdf = peersOnly ? SKIPPED : await ours(file, path.join(RESULTS, 'ours', `${name}.pdf`), [], true);
      const png = peersOnly ? SKIPPED : await ours(file, path.join(RESULTS, 'ours', `${name}.png`), [], true);
      const ez = await ezdxf(file, key, cache);
      saveCache(key, cache);
      const met = (r: RunResult): boolean =>
        r.status === 'ok' && r.ms / 1000 < TARGET_LARGE_S && (r.rssMb ?? Infinity) < TARGET_LARGE_RSS_MB;
      isLargeMet = isLargeMet && met(pdf) && met(png);
      const mb = (r: RunResult): string => (r.rssMb ? r.rssMb.toFixed(0) : '?');
      console.log(
        `| ${name} | ${(bytes.length / 2 ** 20).toFixed(1)} | ${secs(pdf)} | ${mb(pdf)} | ${secs(png)} | ${mb(png)} | ${secs(ez)} |`,
      );
    }
    console.log(
      `large files under ${TARGET_LARGE_S} s and ${TARGET_LARGE_RSS_MB} MB each: ${isLargeMet ? 'met' : 'NOT met'} (LibreCAD not run on them: it crashes after ~47 s at 2.2 GB)`,
    );
  }

  // Ours on the DWG files (no peer reads DWG): median time and any failure.
  if (!flag('no-dwg') && !peersOnly && !qualityOnly && existsSync(path.join(CORPUS, 'dwg'))) {
    const dwgs = readdirSync(path.join(CORPUS, 'dwg'))
      .filter((f) => f.toLowerCase().endsWith('.dwg') && (only === undefined || f.includes(only)))
      .sort();
    const times: number[] = [];
    const coldTimes: number[] = [];
    const bad: string[] = [];
    for (const name of dwgs) {
      const file = path.join(CORPUS, 'dwg', name);
      const r = await ours(file, path.join(RESULTS, 'ours', `${name}.png`));
      times.push(r.ms);
      if (withCold) coldTimes.push((await ours(file, path.join(RESULTS, 'ours', `${name}.cold.png`), [], true)).ms);
      if (r.status !== 'ok') bad.push(`${name} (${statSync(file).size >> 10} KB): ${r.status} ${r.error ?? ''}`.trim());
    }
    if (dwgs.length) {
      const cold = withCold ? `; cold (CAD_SERVER=0) median ${(median(coldTimes) / 1000).toFixed(3)} s` : '';
      console.log(
        `\nDWG to PNG (ours only; no peer reads DWG): ${dwgs.length} files, median ${(median(times) / 1000).toFixed(3)} s, max ${(Math.max(...times) / 1000).toFixed(2)} s${cold}`,
      );
      console.log(`refused or failed: ${bad.length ? `\n  ${bad.join('\n  ')}` : 'none'}`);
    }
  }

  if (oursFailed.length)
    console.log(
      `\nours FAILED (crash or timeout) on: ${oursFailed.map((r) => `${r.name} (${r.pdf.error ?? r.png.error ?? ''})`).join('; ')}`,
    );
  const isCjkMet = flag('no-cjk') || peersOnly || qualityOnly ? true : await cjkFontBench();
  const isMet = isEzMet && isLcMet && isLargeMet && isF1Met && isCjkMet;
  console.log(`\nCAD targets: ${isMet ? 'met' : 'NOT met'}`);
  if (!peersOnly) await stopEngine();
  return isMet;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await runCadBench();

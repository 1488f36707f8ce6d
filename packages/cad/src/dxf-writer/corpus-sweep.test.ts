/**
 * The DXF writer's quality bar over the corpus (docs/decisions/0019-online-conversion.md): every
 * corpus DWG and DXF (the gen_large_* files aside: `npm run bench:convert` times those), or without
 * the corpus every committed fixture, is read once and written in every DXF version, R12 to 2018,
 * ASCII, and once as binary DXF (2018). Each written file must:
 *
 * (a) read back through our reader with, per entity type, the counts the source gives after the
 *     writer's downgrade rules (`Lowering`: R12 has no MTEXT, LWPOLYLINE, ELLIPSE, SPLINE, HATCH...;
 *     what no version holds is left out with a note) - in model space, in paper space (R12 keeps
 *     the active layout only, with a note) and in the blocks; every type that lost entities has a
 *     note saying so;
 * (b) load in ezdxf (Debian's python3-ezdxf) with the same counts by type in model space, paper
 *     space and blocks, and the version asked for: one long-lived Python process answers for
 *     every file, so ~1000 files are checked without ~1000 Python start-ups;
 * (c) keep its Chinese text: ezdxf reads the same Chinese characters the source has (GBK with
 *     $DWGCODEPAGE ANSI_936 before 2007, UTF-8 from 2007).
 *
 * ezdxf is the slow part (about 1 MB of DXF a second): files whose DXF is over 1 MB are checked
 * by ezdxf in R12, 2000 and 2018 and in binary only; our reader checks every file in every version.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readDxf } from '../dxf/index';
import { CadReadError } from '../errors';
import type { Drawing, Entity, Layout } from '../model';
import { openDrawing } from '../open';
import { Lowering } from './lower';
import { ACADVER, chordTolerance, DXF_VERSIONS, writeDxf, type DxfVersion } from './writer';

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = process.env.CAD_CORPUS ?? resolve(here, '../../../../../shared/corpus');
const FIXTURES = resolve(here, '../../test-fixtures');
const hasCorpus = existsSync(join(CORPUS, 'dxf'));
const tmp = mkdtempSync(join(tmpdir(), 'dxf-sweep-'));

/** Written files larger than this go through ezdxf in the EZDXF_BIG_VERSIONS and binary only. */
const EZDXF_BIG_BYTES = 1 << 20;
const EZDXF_BIG_VERSIONS: readonly DxfVersion[] = ['R12', '2000', '2018'];
const BINARY_VERSION: DxfVersion = '2018';

function sources(): string[] {
  const pick = (dir: string, ext: RegExp): string[] =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => ext.test(f) && !f.startsWith('gen_large_'))
          .sort()
          .map((f) => join(dir, f))
      : [];
  return hasCorpus ? [...pick(join(CORPUS, 'dxf'), /\.dxf$/i), ...pick(join(CORPUS, 'dwg'), /\.dwg$/i)] : pick(FIXTURES, /\.(dxf|dwg)$/i);
}

// ---- counting -------------------------------------------------------------------------------------

type Counts = Record<string, number>;
interface SpaceCounts {
  model: Counts;
  paper: Counts;
  blocks: Counts;
}

const LAYOUT_BLOCK = /^[*$](model|paper)_space\d*$/i;
// The type as the notes name it: the DXF name of the types the model keeps several under (UNKNOWN, ACIS, UNDERLAY).
const typeName = (e: Entity): string => (e.type === 'UNKNOWN' || e.type === 'ACIS' || e.type === 'UNDERLAY' ? e.dxfType : e.type);
function countTypes(es: Iterable<Entity>): Counts {
  const c: Counts = {};
  for (const e of es) c[typeName(e)] = (c[typeName(e)] ?? 0) + 1;
  return c;
}
const paperLayouts = (d: Drawing): Layout[] => d.layouts.filter((l) => !l.isModel);
const userBlocks = (d: Drawing): Entity[][] =>
  Object.values(d.blocks)
    .filter((b) => !LAYOUT_BLOCK.test(b.name))
    .map((b) => b.entities);

/** What our reader finds in a written file. */
function readCounts(d: Drawing): SpaceCounts {
  return {
    model: countTypes(d.modelSpace),
    paper: countTypes(paperLayouts(d).flatMap((l) => l.entities ?? [])),
    blocks: countTypes(userBlocks(d).flat()),
  };
}

/**
 * What the writer must write for `d` in `version`: each entity through the writer's downgrade
 * rules; R12 keeps only the active paper layout (*Paper_Space, else the first by tab order).
 */
function expected(d: Drawing, version: DxfVersion): { counts: SpaceCounts; lost: Set<string>; han: string } {
  const year = version === 'R12' ? 12 : Number(version);
  const lost = new Set<string>();
  const lowering = new Lowering(d, year, chordTolerance(d), () => undefined);
  const lower = (es: Entity[]): Entity[] =>
    es.flatMap((e) => {
      const out = lowering.lower(e);
      if (!out.some((x) => typeName(x) === typeName(e))) lost.add(typeName(e));
      return out;
    });
  let papers = paperLayouts(d);
  if (year === 12 && papers.length > 1) {
    const active =
      papers.find((l) => l.blockName.toUpperCase() === '*PAPER_SPACE') ?? [...papers].sort((a, b) => a.tabOrder - b.tabOrder)[0];
    papers = active ? [active] : [];
  }
  const [model, paper, blocks] = [lower(d.modelSpace), lower(papers.flatMap((l) => l.entities ?? [])), userBlocks(d).flatMap(lower)];
  return {
    counts: { model: countTypes(model), paper: countTypes(paper), blocks: countTypes(blocks) },
    lost,
    han: han(textsOf([...model, ...paper, ...blocks])),
  };
}

const han = (texts: string[]): string => [...texts.join('').replace(/[^\u4e00-\u9fff]/g, '')].sort().join('');
/** The texts of a drawing's entities (TEXT, MTEXT, attribute definitions and attributes), blocks included. */
function textsOf(es: Entity[]): string[] {
  return es.flatMap((e) =>
    e.type === 'TEXT' || e.type === 'MTEXT' || e.type === 'ATTDEF' || e.type === 'ATTRIB'
      ? [e.text]
      : e.type === 'INSERT'
        ? e.attributes.map((a) => a.text)
        : [],
  );
}

// ---- ezdxf ----------------------------------------------------------------------------------------

/** The Python side: one path a line in, one JSON object a line out (counts by type, Chinese text). */
const EZDXF_SCRIPT = String.raw`
import collections, json, re, sys, time
import ezdxf

LAYOUT_BLOCK = re.compile(r'^[*$](model|paper)_space\d*$', re.I)
HAN = re.compile(r'[\u4e00-\u9fff]')

def counts(entities):
    return dict(collections.Counter(e.dxftype() for e in entities))

def han(entities):
    out = []
    for e in entities:
        t = e.dxftype()
        if t in ('TEXT', 'ATTRIB', 'ATTDEF'):
            out.append(e.dxf.text)
        elif t == 'MTEXT':
            out.append(e.text)
        if t == 'INSERT':
            out.extend(a.dxf.text for a in e.attribs)
    return ''.join(HAN.findall(''.join(out)))

for line in sys.stdin:
    path = line.strip()
    if not path:
        continue
    result = {'path': path}
    started = time.perf_counter()
    try:
        doc = ezdxf.readfile(path)
        msp = list(doc.modelspace())
        paper = [e for name in doc.layouts.names() if name != 'Model' for e in doc.layouts.get(name)]
        blocks = [e for b in doc.blocks if not LAYOUT_BLOCK.match(b.name) for e in b]
        result.update(version=doc.dxfversion, model=counts(msp), paper=counts(paper), blocks=counts(blocks), han=''.join(sorted(han(msp) + han(paper) + han(blocks))))
    except Exception as exc:  # every failure is an answer, not a crash of the checker
        result['error'] = f'{type(exc).__name__}: {exc}'
    result['ms'] = (time.perf_counter() - started) * 1000
    print(json.dumps(result, ensure_ascii=False), flush=True)
`;

interface EzdxfAnswer {
  path: string;
  error?: string;
  version?: string;
  model?: Counts;
  paper?: Counts;
  blocks?: Counts;
  han?: string;
  /** Time ezdxf took, ms. */
  ms?: number;
}

/** One ezdxf process; `check` sends a path and resolves with its answer (answers come in order). */
class Ezdxf {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly waiting: ((a: EzdxfAnswer) => void)[] = [];
  private buffer = '';
  private failed: Error | null = null;
  constructor() {
    this.proc = spawn('/usr/bin/python3', ['-c', EZDXF_SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim()) this.waiting.shift()?.(JSON.parse(line) as EzdxfAnswer);
      }
    });
    let stderr = '';
    this.proc.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    this.proc.on('close', (code) => {
      this.failed = new Error(`ezdxf checker exited (${code}): ${stderr}`);
      for (const w of this.waiting.splice(0)) w({ path: '', error: this.failed.message });
    });
  }
  check(path: string): Promise<EzdxfAnswer> {
    if (this.failed) return Promise.resolve({ path, error: this.failed.message });
    return new Promise((done) => {
      this.waiting.push(done);
      this.proc.stdin.write(`${path}\n`);
    });
  }
  close(): void {
    this.proc.stdin.end();
  }
}

// ---- the sweep ------------------------------------------------------------------------------------

const diff = (what: string, got: Counts | undefined, want: Counts): string[] => {
  const out: string[] = [];
  for (const t of new Set([...Object.keys(want), ...Object.keys(got ?? {})]))
    if ((got?.[t] ?? 0) !== (want[t] ?? 0)) out.push(`${what} ${t}: ${got?.[t] ?? 0}, expected ${want[t] ?? 0}`);
  return out;
};
const total = (c: SpaceCounts): number => [c.model, c.paper, c.blocks].reduce((n, x) => n + Object.values(x).reduce((a, b) => a + b, 0), 0);

const files = sources();
const stats = {
  files: 0,
  refused: [] as string[],
  written: 0,
  ezdxfChecked: 0,
  ezdxfMs: 0,
  chinese: 0,
  entities: 0,
  failures: [] as string[],
  ms: 0,
};

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  console.info(
    `DXF writer sweep: ${stats.files} ${hasCorpus ? 'corpus' : 'fixture'} files read (${stats.refused.length} refused by the reader${stats.refused.length ? `: ${stats.refused.join('; ')}` : ''}), ` +
      `${DXF_VERSIONS.length} versions + binary ${BINARY_VERSION}: ${stats.written} DXF files written and read back, ${stats.ezdxfChecked} loaded in ezdxf, ` +
      `${stats.chinese} of them with Chinese text, ${stats.entities} entities checked, ${stats.failures.length} failures; ${(stats.ms / 1000).toFixed(1)} s (ezdxf ${(stats.ezdxfMs / 1000).toFixed(1)} s of it, alongside)`,
  );
});

describe(`DXF writer sweep over ${hasCorpus ? 'the corpus' : 'the committed fixtures'} (${files.length} files x ${DXF_VERSIONS.length + 1} outputs)`, () => {
  it('has drawings to sweep', () => {
    expect(files.length).toBeGreaterThan(hasCorpus ? 100 : 10);
  });

  it(
    'writes every drawing in every version; our reader and ezdxf find its entities, Chinese text included',
    { timeout: 600_000 },
    async () => {
      const started = performance.now();
      const ezdxf = new Ezdxf();
      const pending: Promise<void>[] = [];
      const failures = stats.failures;
      try {
        for (const file of files) {
          const name = basename(file);
          let drawing: Drawing;
          try {
            drawing = (await openDrawing(readFileSync(file), name, { dwgTimeoutMs: 60_000 })).drawing;
          } catch (err) {
            // Unreadable inputs are the reader's business (its own sweep); the writer needs a drawing.
            if (!(err instanceof CadReadError)) throw err;
            stats.refused.push(`${name}: ${err.reason}`);
            continue;
          }
          stats.files++;
          const outputs: [DxfVersion, boolean][] = [...DXF_VERSIONS.map((v): [DxfVersion, boolean] => [v, false]), [BINARY_VERSION, true]];
          for (const [version, binary] of outputs) {
            const label = `${name} ${version}${binary ? ' binary' : ''}`;
            const { bytes, notes } = writeDxf(drawing, { version, binary });
            const { counts: want, lost, han: wantHan } = expected(drawing, version);
            stats.written++;
            stats.entities += total(want);

            // (a) our reader.
            const back = readDxf(bytes);
            if (back.warnings.length) failures.push(`${label}: reader warnings: ${back.warnings.slice(0, 3).join('; ')}`);
            if (back.drawing.header.acadVersion !== ACADVER[version])
              failures.push(`${label}: $ACADVER ${back.drawing.header.acadVersion}`);
            const got = readCounts(back.drawing);
            const gotHan = han(
              textsOf([
                ...back.drawing.modelSpace,
                ...paperLayouts(back.drawing).flatMap((l) => l.entities ?? []),
                ...userBlocks(back.drawing).flat(),
              ]),
            );
            if (gotHan !== wantHan)
              failures.push(`${label}: ours reads ${gotHan.length} Chinese characters back, the source has ${wantHan.length}`);
            failures.push(
              ...[
                ...diff('model', got.model, want.model),
                ...diff('paper', got.paper, want.paper),
                ...diff('blocks', got.blocks, want.blocks),
              ].map((d) => `${label}: ours: ${d}`),
            );
            for (const type of lost)
              if (!notes.some((n) => n.startsWith(`${type}:`))) failures.push(`${label}: ${type} left out without a note`);
            // What R12 could not take of a second paper layout is said too.
            if (
              version === 'R12' &&
              paperLayouts(drawing).length > 1 &&
              total({ model: {}, paper: countTypes(paperLayouts(drawing).flatMap((l) => l.entities ?? [])), blocks: {} }) >
                total({ model: {}, paper: want.paper, blocks: {} })
            )
              if (!notes.some((n) => /second paper layout left out/.test(n)))
                failures.push(`${label}: paper layouts left out without a note`);

            // (b, c) ezdxf, in the background while the next file is written.
            if (bytes.length > EZDXF_BIG_BYTES && !binary && !EZDXF_BIG_VERSIONS.includes(version)) continue;
            const path = join(tmp, `${stats.written}.dxf`);
            writeFileSync(path, bytes);
            pending.push(
              ezdxf.check(path).then((a) => {
                rmSync(path, { force: true });
                stats.ezdxfChecked++;
                stats.ezdxfMs += a.ms ?? 0;
                if (wantHan) stats.chinese++;
                if (a.error) {
                  failures.push(`${label}: ezdxf: ${a.error}`);
                  return;
                }
                if (a.version !== ACADVER[version]) failures.push(`${label}: ezdxf reads version ${a.version}`);
                failures.push(
                  ...[
                    ...diff('model', a.model, want.model),
                    ...diff('paper', a.paper, want.paper),
                    ...diff('blocks', a.blocks, want.blocks),
                  ].map((d) => `${label}: ezdxf: ${d}`),
                );
                if (a.han !== wantHan)
                  failures.push(`${label}: ezdxf reads ${a.han?.length ?? 0} Chinese characters, the source has ${wantHan.length}`);
              }),
            );
            // Keep the queue short: a few files waiting on disk at most.
            if (pending.length >= 8) await pending.shift();
          }
        }
        await Promise.all(pending);
      } finally {
        ezdxf.close();
        stats.ms = performance.now() - started;
      }
      expect(failures.slice(0, 50)).toEqual([]);
      expect(stats.files + stats.refused.length).toBe(files.length);
    },
  );
});

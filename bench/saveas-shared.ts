// What bench/saveas.bench.ts and its worker (bench/saveas-worker.ts) share: the comparison's fixed
// numbers and the shape of the worker's answers.

/** Both pictures are rendered this wide (lines 1 px, the extents filling the width). */
export const RENDER_WIDTH = 1024;
/** The paper: every render is on white (a drawing mostly covered by a fill must not make its fill the paper). */
export const WHITE = [255, 255, 255] as const;
/**
 * The ink comparison's tolerance, the cad bench's (2 px). Unlike the cad bench (ours against ezdxf, each
 * cropped to its own ink), the result is drawn in the original's view and compared pixel for pixel.
 */
export const F1_TOLERANCE = 2;
/** Paper layouts compared besides the model (the first ones with ink): more costs time and adds little. */
export const MAX_PAPER_SCENES = 3;

export type Counts = Record<string, number>;

export interface Target {
  format: 'dwg' | 'dxf';
  /** The protocol's version name: 'R12', '2000', ... '2018'. */
  version: string;
}

/** The save-as report of the engine's contract (packages/cad/src/save-as.ts), structurally. */
export interface SaveAsChangeLike {
  readonly type: string;
  readonly count: number;
  readonly outcome: string;
  readonly how: string;
}

export interface WorkerRequest {
  file: string;
  name: string;
  targets: Target[];
  /** Where DXF results are written for ezdxf (the parent deletes them). */
  scratch: string;
  /** Where the two pictures of a scene that differs are kept. */
  pngDir: string;
}

export type SourceEvent =
  | { kind: 'source'; ok: true; readMs: number; renderMs: number; scenes: string[]; counts: Counts }
  | { kind: 'source'; ok: false; error: string; refused: boolean };

export interface SceneScore {
  name: string;
  f1: number;
  precision: number;
  recall: number;
  /** The result has no such layout (or draws nothing in it). */
  missing?: true;
  /** A paper layout the writer reports leaving out (R12 has one paper space): not compared. */
  dropped?: true;
  /** The result's own extents differ from the original's (by more than 1% of its size). */
  extentsMoved?: true;
  /** The result's layout has another page setup (or none: R12 has no page setups); drawn with the original's. */
  pageSetupChanged?: true;
}

export interface TargetRow {
  kind: 'row';
  target: Target;
  status: 'ok' | 'failed';
  error?: string;
  convertMs?: number;
  readMs?: number;
  renderMs?: number;
  bytes?: number;
  notes: string[];
  changes?: SaveAsChangeLike[];
  /** The reader's warnings on the result (LibreDWG's error codes for a DWG). */
  readback: string[];
  countsIn?: Counts;
  /** The entities of the paper layouts the writer reports leaving out (not in `countsIn`). */
  countsLeftOut?: Counts;
  countsOut?: Counts;
  /** The result's entities in the model, the layouts and every block (what ezdxf is compared with). */
  countsAll?: Counts;
  scenes?: SceneScore[];
  /** The worst scene's F1; null when the original draws nothing. */
  f1?: number | null;
  outFile?: string;
}

/** The DXF writer's note for the layouts R12 cannot hold: "NAME: N entities of a second paper layout left out (R12 ...)". */
export const SECOND_PAPER = /entities of a second paper layout left out/;

/** The writer reported leaving out the paper layout `name` (its notes name the layout; its `changes` give the entity types). */
export function layoutReportedDropped(notes: readonly string[], name: string): boolean {
  return notes.some((n) => SECOND_PAPER.test(n) && n.slice(0, n.indexOf(':')).toLowerCase() === name.toLowerCase());
}

/** A type whose count dropped by more than the writer reported. */
export interface Lost {
  type: string;
  in: number;
  out: number;
  reported: number;
}

// ---- entity accounting ----------------------------------------------------------------------------

/**
 * What the writer reported, by type: `changes` when the result has them (the engine's save-as
 * report), else its notes ("TYPE: N what was done"). A paper layout left out whole is not counted
 * here: the original's count leaves that layout out instead (`checkResult`), ATTRIBs and the blocks
 * only it shows included, which a count of its entities would not cover.
 */
export function reportedByType(row: TargetRow): { byType: Counts; lines: string[]; kind: 'changes' | 'notes' } {
  const byType: Counts = {};
  if (row.changes) {
    // The entities of a left-out layout are reported 'not-in-version' by type; the original's count
    // already leaves that layout out, so they must not cover a loss elsewhere too.
    const leftOut: Counts = { ...(row.countsLeftOut ?? {}) };
    for (const c of row.changes) {
      let n = c.count;
      if (c.how === 'not-in-version') {
        const covered = Math.min(n, leftOut[c.type] ?? 0);
        leftOut[c.type] = (leftOut[c.type] ?? 0) - covered;
        n -= covered;
      }
      byType[c.type] = (byType[c.type] ?? 0) + n;
    }
    return { byType, lines: row.changes.map((c: SaveAsChangeLike) => `${c.type} ${c.how} ${c.count} (${c.outcome})`), kind: 'changes' };
  }
  for (const note of row.notes) {
    const m = /^(.+?): (\d+) (.*)$/.exec(note);
    if (m && !SECOND_PAPER.test(m[3] ?? '')) byType[m[1] as string] = (byType[m[1] as string] ?? 0) + Number(m[2]);
  }
  return { byType, lines: row.notes, kind: 'notes' };
}

/** The types whose count drops by more than the writer reported for them. */
export function lostUnreported(row: TargetRow, reported: { byType: Counts }): Lost[] {
  const lost: Lost[] = [];
  const inC = row.countsIn ?? {};
  const outC = row.countsOut ?? {};
  for (const type of Object.keys(inC).sort()) {
    const drop = (inC[type] ?? 0) - (outC[type] ?? 0);
    if (drop > (reported.byType[type] ?? 0))
      lost.push({ type, in: inC[type] ?? 0, out: outC[type] ?? 0, reported: reported.byType[type] ?? 0 });
  }
  return lost;
}

/** LibreDWG's error codes on a DWG result: code 64 is accepted for 2004 and later (decision 0023). */
export function readbackProblems(row: TargetRow): string[] {
  if (row.target.format !== 'dwg') return [];
  return row.readback.filter((w) => /recoverable problems/.test(w) && !(row.target.version !== '2000' && /\(code 64\)/.test(w)));
}

/** Where ezdxf's counts differ from our reader's on the same file ('' when they agree). */
export function countsDisagree(ours: Counts, theirs: Counts): string {
  const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
  return keys
    .filter((k) => (ours[k] ?? 0) !== (theirs[k] ?? 0))
    .map((k) => `${k} ours ${ours[k] ?? 0} ezdxf ${theirs[k] ?? 0}`)
    .join(', ');
}

/**
 * The save-as change report: what writing a drawing to a chosen DXF/DWG version changed, one
 * structured entry per (type, outcome, how), beside the English lines the `cad` command prints
 * (decision 0037). The DXF and DWG writers count every lowered or dropped object through a
 * `SaveAsLog`; the site words each change from `type` and `how`.
 */

export const SAVE_AS_HOWS = [
  'graphics', // lowered: drawn the same with lines, fills and text (MULTILEADER, a newer ACAD_TABLE, ...)
  'block', // lowered: a reference to a block that holds its graphics (ACAD_TABLE; DIMENSION in R12)
  'polyline', // lowered: polylines (MLINE; LWPOLYLINE/ELLIPSE/SPLINE/LEADER in R12)
  'polyface', // lowered: a polyface mesh (MESH)
  'text', // lowered: single-line texts (MTEXT in R12)
  'hatch-lines', // lowered: boundary, pattern lines and solid fills (HATCH in R12)
  'solid-fill', // lowered: a gradient fill written as a solid fill
  'nearest-colour', // lowered: true colours written as the nearest index colour
  'plain-dashes', // lowered: text/shape elements of a linetype written as plain dashes
  'proxy-graphics', // lowered: a custom object kept as its proxy graphics
  'detail', // lowered: a detail the target cannot keep is left out, the object stays
  'line', // lowered: a construction line or ray written as the line across the drawing (XLINE/RAY in R12)
  'frame', // dropped: the picture is gone, its frame is kept (IMAGE in R12)
  'not-in-version', // dropped: the target has no such object and no graphic equivalent
  'no-graphics', // dropped: an object the writer cannot carry, with no proxy graphics to keep
  'broken-input', // dropped: the input itself is damaged (e.g. its block is missing)
] as const;
export type SaveAsHow = (typeof SAVE_AS_HOWS)[number];
export type SaveAsOutcome = 'lowered' | 'dropped';

export interface SaveAsChange {
  /** The object's type as AutoCAD names it: 'MULTILEADER', 'ACAD_TABLE', 'MESH', 'HATCH', 'LTYPE', ... */
  readonly type: string;
  /** How many objects of that type were changed this way. */
  readonly count: number;
  readonly outcome: SaveAsOutcome;
  readonly how: SaveAsHow;
}

const DROPPED: ReadonlySet<SaveAsHow> = new Set(['frame', 'not-in-version', 'no-graphics', 'broken-input']);

/** The outcome a way of changing an object implies: the last four drop it, the others lower it. */
export function outcomeOf(how: SaveAsHow): SaveAsOutcome {
  return DROPPED.has(how) ? 'dropped' : 'lowered';
}

/** One object changed to fit the target version. */
export interface SaveAsNote {
  /** The object's type as AutoCAD names it. */
  readonly type: string;
  readonly how: SaveAsHow;
  /**
   * The English line, "SUBJECT: what happened" (the subject is usually `type`; "true colour" or a
   * layout's name for changes that span types). Notes with the same line are counted together.
   */
  readonly line: string;
}

/** A note for one object of `type` changed `how`; its English line is "SUBJECT: what" (subject defaults to the type). */
export function change(type: string, how: SaveAsHow, what: string, subject: string = type): SaveAsNote {
  return { type, how, line: `${subject}: ${what}` };
}

/** Counts the changes of one write; `notes` and `changes` are the two views of the same counts. */
export class SaveAsLog {
  private readonly lines = new Map<string, number>();
  private readonly kinds = new Map<string, { type: string; how: SaveAsHow; count: number }>();
  /** The ways each source object was changed while its entities were written (counted once each). */
  private readonly seen = new WeakMap<object, Set<SaveAsHow>>();
  private scope: { source: object; type: string } | null = null;

  /**
   * Runs `write`, which writes the entities standing for one source object of `type` (itself, or
   * what it was lowered to): a change they report (a true colour, a detail) counts once for that
   * object, under its type, however many pieces it was written as.
   */
  within<T>(source: object, type: string, write: () => T): T {
    const outer = this.scope;
    this.scope = { source, type };
    try {
      return write();
    } finally {
      this.scope = outer;
    }
  }

  note(raised: SaveAsNote): void {
    let n = raised;
    if (this.scope) {
      let seen = this.seen.get(this.scope.source);
      if (!seen) this.seen.set(this.scope.source, (seen = new Set()));
      if (seen.has(n.how)) return;
      seen.add(n.how);
      n = { ...n, type: this.scope.type };
    }
    this.lines.set(n.line, (this.lines.get(n.line) ?? 0) + 1);
    const key = `${n.type}\u0000${n.how}`;
    const k = this.kinds.get(key);
    if (k) k.count++;
    else this.kinds.set(key, { type: n.type, how: n.how, count: 1 });
  }

  /** One English line per kind of change, "SUBJECT: n what happened", in the order first met. */
  get notes(): string[] {
    return [...this.lines].map(([line, n]) => {
      const colon = line.indexOf(':');
      return colon < 0 ? `${line} (${n})` : `${line.slice(0, colon)}: ${n} ${line.slice(colon + 1).trim()}`;
    });
  }

  /** One entry per (type, outcome, how): dropped first, then by count descending (then by type). */
  get changes(): SaveAsChange[] {
    const out = [...this.kinds.values()].map((k): SaveAsChange => ({
      type: k.type,
      count: k.count,
      outcome: outcomeOf(k.how),
      how: k.how,
    }));
    const rank = (c: SaveAsChange): number => (c.outcome === 'dropped' ? 0 : 1);
    return out.sort((a, b) => rank(a) - rank(b) || b.count - a.count || a.type.localeCompare(b.type) || a.how.localeCompare(b.how));
  }
}

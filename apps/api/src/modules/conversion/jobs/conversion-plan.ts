import type { ConversionTaskRow } from '@xcad/db';
import { DWG_OUTPUT_VERSIONS, TASK_TOOLS, TASK_TYPES, ZConversionOptions, type TInputKind, type TTaskType } from '@xcad/protocol';
import { JOB_MESSAGES } from './job-messages';
import { DXF_VERSIONS, type DxfVersion } from '@xcad/cad/dxf-writer';
import type { DwgVersion } from '@xcad/cad/dwg-writer';
import type { CadTarget, WorkerConvertOptions } from './worker-protocol';

// Decision 0019: what a task asks of the CAD engine (its tool, output and `parainfo` options), and the
// names and storage keys of what it produces. Pure: decided once per task, before any file is read.

type RasterOrPdf = 'pdf' | 'png' | 'jpg';

export type ConversionPlan =
  | {
      readonly ok: true;
      readonly tool: TTaskType;
      readonly ext: RasterOrPdf | 'dxf' | 'dwg';
      readonly options: Omit<WorkerConvertOptions, 'name' | 'dwgTimeoutMs'>;
      /** cad2ver and pdf2cad: the DXF or DWG to write. */
      readonly cad?: CadTarget;
    }
  | { readonly ok: false; readonly reason: string };

/** Tools drawn by the engine's renderer; cad2ver and pdf2cad write DXF or DWG. */
const ENGINE_TOOLS: ReadonlySet<TTaskType> = new Set(['cad2pdf', 'cad2jpg']);
const CAD_TOOLS: ReadonlySet<TTaskType> = new Set(['cad2ver', 'pdf2cad']);

const isDxfVersion = (value: string | null): value is DxfVersion => value !== null && (DXF_VERSIONS as readonly string[]).includes(value);
const isDwgVersion = (value: string | null): value is DwgVersion =>
  value !== null && (DWG_OUTPUT_VERSIONS as readonly string[]).includes(value);

/** What cad2ver writes when no version is asked for: the newest DXF; for DWG the widely readable 2004. */
const DEFAULT_DXF_VERSION: DxfVersion = '2018';
const DEFAULT_DWG_VERSION: DwgVersion = '2004';

const isTaskType = (value: string): value is TTaskType => (TASK_TYPES as readonly string[]).includes(value);
const isEngineOutput = (value: string): value is RasterOrPdf => value === 'pdf' || value === 'png' || value === 'jpg';

function parsedOptions(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The engine's format and options for a task, or why none of its files can be converted. */
export function planConversion(
  task: Pick<ConversionTaskRow, 'tasktype' | 'output_ext' | 'options'> & { file_version?: string | null },
): ConversionPlan {
  if (isTaskType(task.tasktype) && CAD_TOOLS.has(task.tasktype)) return planCad(task.tasktype, task);
  if (!isTaskType(task.tasktype) || !ENGINE_TOOLS.has(task.tasktype)) return { ok: false, reason: JOB_MESSAGES.unsupported };
  const ext = task.output_ext;
  if (!isEngineOutput(ext) || !(TASK_TOOLS[task.tasktype].outputs as readonly string[]).includes(ext))
    return { ok: false, reason: JOB_MESSAGES.unsupported };
  const parsed = ZConversionOptions.safeParse(parsedOptions(task.options));
  if (!parsed.success) return { ok: false, reason: JOB_MESSAGES.badOptions };
  // `pages` belongs to pdf2cad; the rest maps one to one onto the engine's options.
  const { pages: _pages, ...choices } = parsed.data;
  if (choices.layout !== undefined && choices.allLayouts === true) return { ok: false, reason: JOB_MESSAGES.badOptions };
  if (choices.width !== undefined && choices.dpi !== undefined) return { ok: false, reason: JOB_MESSAGES.badOptions };
  return { ok: true, tool: task.tasktype, ext, options: { format: ext, ...choices } };
}

/**
 * cad2ver and pdf2cad: to the version asked (DXF 2018 or DWG 2004 when none is; decision 0036 gives
 * pdf2cad the same choice). A DWG version the writer does not write is refused with the versions it does.
 */
function planCad(
  tool: TTaskType,
  task: Pick<ConversionTaskRow, 'output_ext' | 'options'> & { file_version?: string | null },
): ConversionPlan {
  const format = task.output_ext;
  if (format !== 'dxf' && format !== 'dwg') return { ok: false, reason: JOB_MESSAGES.unsupported };
  const parsed = ZConversionOptions.safeParse(parsedOptions(task.options));
  if (!parsed.success) return { ok: false, reason: JOB_MESSAGES.badOptions };
  const fromPdf = tool === 'pdf2cad';
  const asked = task.file_version ?? null;
  const pages = fromPdf && parsed.data.pages !== undefined ? { pages: parsed.data.pages } : {};
  // The renderer's options are unused for DXF and DWG output; the format field only has to be valid.
  const options = { format: 'pdf' } as const;
  if (format === 'dxf') {
    const version = isDxfVersion(asked) ? asked : DEFAULT_DXF_VERSION;
    return { ok: true, tool, ext: 'dxf', options, cad: { format, version, fromPdf, ...pages } };
  }
  if (asked !== null && !isDwgVersion(asked)) return { ok: false, reason: JOB_MESSAGES.dwgVersion(asked, DWG_OUTPUT_VERSIONS) };
  return { ok: true, tool, ext: 'dwg', options, cad: { format, version: asked ?? DEFAULT_DWG_VERSION, fromPdf, ...pages } };
}

/** Whether a tool takes a file of this kind (judged by content on upload); null: not known yet. */
export function acceptsInput(tool: TTaskType, kind: string | null): boolean {
  return kind !== null && (TASK_TOOLS[tool].inputs as readonly string[]).includes(kind as TInputKind);
}

/** The name without its last extension ('平面图.dwg' -> '平面图'); a name that is all extension stays whole. */
export function stemOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The converted file's name (decision 0036): the upload's name and what it became, 'plan.pdf',
 * 'plan.jpg', and for DWG and DXF with the version: 'plan_2004.dwg', 'plan_R12.dxf'.
 */
export function outputNameOf(inputName: string, plan: Pick<Extract<ConversionPlan, { ok: true }>, 'ext' | 'cad'>): string {
  const version = plan.cad === undefined ? '' : `_${plan.cad.version}`;
  return `${stemOf(inputName)}${version}.${plan.ext}`;
}

// Characters Windows refuses in file names, and control characters: a layout name becomes part of one.
// eslint-disable-next-line no-control-regex -- the point is to drop control characters
const UNSAFE_IN_NAME = /[\\/:*?"<>|\u0000-\u001f\u007f]/g;

/** One image of a drawing drawn layout by layout: '平面图_布局1.png'. */
export function layoutImageName(inputName: string, layout: string | undefined, index: number, ext: string): string {
  const part = (layout ?? '').replace(UNSAFE_IN_NAME, '_').trim() || String(index + 1);
  return `${stemOf(inputName)}_${part}.${ext}`;
}

/** The names with later duplicates numbered ('a.pdf', 'a(2).pdf'), compared case-insensitively as Windows does. */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
      const dot = name.lastIndexOf('.');
      candidate = dot > 0 ? `${name.slice(0, dot)}(${n})${name.slice(dot)}` : `${name}(${n})`;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** Storage keys: outputs by file index (user-chosen names stay out of keys), the task's zip beside them. */
export function outputKeyOf(tasktag: string, fileindex: number, ext: string): string {
  return `conversion/${tasktag}/out/${fileindex}.${ext}`;
}

export function resultZipKeyOf(tasktag: string): string {
  return `conversion/${tasktag}/out/result.zip`;
}

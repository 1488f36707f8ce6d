/**
 * The `cad` command (bin/cad.cjs runs it, bundled, or through tsx):
 *   cad convert IN OUT [options]   DWG/DXF → PDF, PNG, JPG, SVG or DXF (format from OUT's extension)
 *   cad info FILE                  what a drawing holds, as JSON
 * Errors: exit 1 for bad input, 2 for bad usage, always ONE line "cad: <reason>" on stderr.
 * Modules that cost start-up time (readers, fonts, back ends) are imported only when needed.
 */
import { accessSync, constants, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { CompanionSource } from '@xcad/cad/companions';
import type { ConvertOptions, OutputFormat } from '@xcad/cad/convert';
import { DWG_VERSION_NAMES, DWG_WRITE_VERSIONS, type DwgVersion } from '@xcad/cad/dwg-writer';

/** The DWG releases written, and the default (the newest of them). */
const DWG_WRITE_LIST = DWG_WRITE_VERSIONS.join(', ');
const DWG_DEFAULT = DWG_WRITE_VERSIONS[DWG_WRITE_VERSIONS.length - 1] as DwgVersion;

const HELP = `Usage:
  cad convert IN OUT [options]   convert a DWG or DXF drawing to PDF, PNG, JPG, SVG, DXF or DWG
  cad info FILE                  print what a drawing holds as JSON (format, version, code page,
                                 units, layers, layouts, entity counts, missing fonts, warnings)
  cad server status|start|stop   the resident engine: \`cad\` hands its commands to an engine
                                 process that keeps the code loaded and compiled (started by
                                 the first command; stops after CAD_SERVER_IDLE seconds idle)

The output format comes from OUT's extension: .pdf .png .jpg/.jpeg .svg .dxf .dwg
PDF, PNG, JPG and SVG outputs draw the pictures (PNG, JPEG), external references (DWG, DXF) and
PDF underlays the drawing names when a file of that name is beside it or in the --refs folder.

Options for convert:
  --layout NAME        draw this layout ('Model' = model space); default: the model, or the
                       first layout with content when the model is empty
  --all-layouts        every layout with content: one page each in a PDF; for PNG/JPG/SVG one
                       file per layout, named OUT-<layout>.<ext>
  --paper SIZE         PDF paper: A0, A1, A2, A3, A4 or fit (default: the layout's page setup)
  --orientation O      auto, portrait or landscape (default auto)
  --color C            color, gray or mono (default color)
  --width PX           PNG/JPG width in pixels; the drawing's extents fill it, no margin
  --dpi N              PNG/JPG resolution on the paper size (instead of --width)
  --background B       white or black (PNG/JPG/SVG; default white)
  --version V          DXF output: R12, 2000, 2004, 2007, 2010, 2013 or 2018 (default 2018);
                       DWG output: ${DWG_WRITE_LIST} (default ${DWG_DEFAULT});
                       what the version cannot hold is converted and listed in 'cad: note:' lines
  --binary             DXF output: binary DXF instead of text
  --pages 1-3,5        PDF input (to .dxf or .dwg): the pages to convert (default all)
  --refs DIR           another folder with the drawing's pictures and referenced drawings
  -h, --help           this help

Environment:
  CAD_FONT_DIR         folder(s) with SHX and TrueType fonts the drawings ask for (':'-separated)
  CAD_SERVER           0: every command runs in a process of its own (no resident engine)
  CAD_SERVER_IDLE      seconds without a command before the resident engine stops (default 900)

Exit status: 0 done, 1 the input could not be converted, 2 bad usage, 3 (server status) no engine.
`;

/** Bad usage: exit code 2. */
class UsageError extends Error {}
/** Bad input (file missing, unreadable, unwritable): exit code 1. */
class InputError extends Error {}

const EXTENSIONS: Record<string, OutputFormat> = { '.pdf': 'pdf', '.png': 'png', '.jpg': 'jpg', '.jpeg': 'jpg', '.svg': 'svg' };
const PAPERS = ['A0', 'A1', 'A2', 'A3', 'A4', 'fit'] as const;

interface Parsed {
  positional: string[];
  values: Map<string, string>;
  flags: Set<string>;
}

const VALUE_OPTIONS = new Set(['layout', 'paper', 'orientation', 'color', 'width', 'dpi', 'background', 'version', 'pages', 'refs']);
const FLAG_OPTIONS = new Set(['all-layouts', 'help', 'binary']);
const DXF_VERSIONS = ['R12', '2000', '2004', '2007', '2010', '2013', '2018'] as const;
/** Options that only make sense for a drawing (PDF/PNG/JPG/SVG) output. */
const RENDER_OPTIONS = ['layout', 'paper', 'orientation', 'color', 'width', 'dpi', 'background', 'refs'];

function parseArgs(args: string[], allowed: { values: Set<string>; flags: Set<string> }): Parsed {
  const parsed: Parsed = { positional: [], values: new Map(), flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      parsed.positional.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-h') {
      parsed.flags.add('help');
      continue;
    }
    if (!arg.startsWith('--') || arg === '-') {
      if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option '${arg}' (see cad --help)`);
      parsed.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (allowed.flags.has(name)) {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
      parsed.flags.add(name);
      continue;
    }
    if (!allowed.values.has(name)) throw new UsageError(`unknown option '--${name}' (see cad --help)`);
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = args[i + 1];
      if (value === undefined || (value.startsWith('--') && value.length > 2)) throw new UsageError(`option --${name} needs a value`);
      i++;
    }
    if (parsed.values.has(name)) throw new UsageError(`option --${name} given twice`);
    parsed.values.set(name, value);
  }
  return parsed;
}

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  choices: readonly T[],
  aliases: Record<string, T> = {},
): T | undefined {
  if (value === undefined) return undefined;
  const found = choices.find((c) => c.toLowerCase() === value.toLowerCase()) ?? aliases[value.toLowerCase()];
  if (!found) throw new UsageError(`--${name} must be one of ${choices.join(', ')} (got '${value}')`);
  return found;
}

function positiveNumber(name: string, value: string | undefined, max: number, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 1 || n > max || (integer && !Number.isInteger(n)))
    throw new UsageError(`--${name} must be a ${integer ? 'whole ' : ''}number from 1 to ${max} (got '${value}')`);
  return n;
}

function readInput(path: string): Uint8Array {
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new InputError(`${path} is a folder, not a drawing`);
    size = st.size;
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`cannot read ${path}: ${fsReason(err)}`);
  }
  if (size > 2 ** 31 - 1) throw new InputError(`${path} is too large (${(size / 2 ** 30).toFixed(1)} GiB)`);
  try {
    return readFileSync(path);
  } catch (err) {
    throw new InputError(`cannot read ${path}: ${fsReason(err)}`);
  }
}

function fsReason(err: unknown): string {
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'read-only file system';
    default:
      return err instanceof Error ? (err.message.split('\n')[0] ?? 'failed') : 'failed';
  }
}

/** Fails early (before the heavy work) when OUT cannot be written. */
function checkWritable(out: string): void {
  const dir = dirname(resolve(out));
  try {
    if (!statSync(dir).isDirectory()) throw new InputError(`cannot write ${out}: ${dir} is not a folder`);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`cannot write ${out}: ${fsReason(err)}`);
  }
  try {
    if (statSync(out).isDirectory()) throw new InputError(`cannot write ${out}: it is a folder`);
  } catch (err) {
    if (err instanceof InputError) throw err;
  }
}

function writeOutput(path: string, data: Uint8Array): void {
  try {
    writeFileSync(path, data);
  } catch (err) {
    throw new InputError(`cannot write ${path}: ${fsReason(err)}`);
  }
}

/** OUT-<layout>.ext, the layout name made safe for a file name (CJK kept). */
export function layoutFileName(out: string, layout: string): string {
  const ext = extname(out);
  const safe =
    [...layout]
      .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? '_' : c))
      .join('')
      .replace(/\s+/g, '_') || 'layout';
  return `${out.slice(0, out.length - ext.length)}-${safe}${ext}`;
}

/** Characters as they look and as code points: '한 (U+D55C), 국 (U+AD6D)'. */
const codePoints = (chars: readonly string[]): string =>
  chars.map((c) => `${c} (U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')})`).join(', ');

const kb = (n: number): string =>
  n < 10_240 ? `${n} bytes` : n < 10_485_760 ? `${Math.round(n / 1024)} KB` : `${(n / 1_048_576).toFixed(1)} MB`;

async function convertCommand(args: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const p = parseArgs(args, { values: VALUE_OPTIONS, flags: FLAG_OPTIONS });
  if (p.flags.has('help')) {
    out.write(HELP);
    return 0;
  }
  if (p.positional.length < 2) throw new UsageError('convert needs an input and an output file: cad convert IN OUT [options]');
  if (p.positional.length > 2) throw new UsageError(`unexpected argument '${p.positional[2]}' (one input and one output)`);
  const [input, output] = p.positional as [string, string];
  const ext = extname(output).toLowerCase();
  const v = p.values;
  if (ext === '.dxf') return dxfCommand(p, input, output, out, err);
  if (ext === '.dwg') return dwgCommand(p, input, output, out, err);
  if (v.has('version') || p.flags.has('binary')) throw new UsageError('--version and --binary are for a .dxf or .dwg output');
  const format = EXTENSIONS[ext];
  if (!format) throw new UsageError(`cannot tell the output format from '${basename(output)}': use .pdf, .png, .jpg, .svg, .dxf or .dwg`);
  if (v.has('width') && v.has('dpi')) throw new UsageError('give either --width or --dpi, not both');
  if (v.has('layout') && p.flags.has('all-layouts')) throw new UsageError('give either --layout or --all-layouts, not both');
  const { MAX_WIDTH, MAX_DPI } = await import('@xcad/cad/convert');
  const options: ConvertOptions = { format, name: basename(input) };
  const layout = v.get('layout');
  if (layout !== undefined) {
    if (!layout.trim()) throw new UsageError('--layout needs a layout name');
    options.layout = layout;
  }
  if (p.flags.has('all-layouts')) options.allLayouts = true;
  const paper = oneOf('paper', v.get('paper'), PAPERS);
  if (paper) options.paper = paper;
  const orientation = oneOf('orientation', v.get('orientation'), ['auto', 'portrait', 'landscape'] as const);
  if (orientation) options.orientation = orientation;
  const color = oneOf('color', v.get('color'), ['color', 'gray', 'mono'] as const, { grey: 'gray', colour: 'color', monochrome: 'mono' });
  if (color) options.color = color;
  const background = oneOf('background', v.get('background'), ['white', 'black'] as const);
  if (background) options.background = background;
  const width = positiveNumber('width', v.get('width'), MAX_WIDTH, true);
  if (width !== undefined) options.width = width;
  const dpi = positiveNumber('dpi', v.get('dpi'), MAX_DPI, false);
  if (dpi !== undefined) options.dpi = dpi;

  const refs = v.get('refs');
  if (refs !== undefined && !isFolder(refs)) throw new InputError(`--refs ${refs}: not a folder`);
  const bytes = readInput(input);
  checkWritable(output);
  options.companions = await folderCompanions([dirname(resolve(input)), ...(refs === undefined ? [] : [resolve(refs)])]);
  options.underlayPages = pdfPagesOf(options.companions);
  const { convertDrawing } = await import('@xcad/cad/convert');
  const result = await convertDrawing(bytes, options);
  const perLayout = options.allLayouts === true && format !== 'pdf';
  const used = new Set<string>();
  for (const o of result.outputs) {
    let path = perLayout ? layoutFileName(output, o.name ?? 'layout') : output;
    // Two layout names that differ only in characters a file name cannot hold.
    for (let n = 2; used.has(path); n++) path = layoutFileName(output, `${o.name ?? 'layout'}-${n}`);
    used.add(path);
    writeOutput(path, o.data);
    const what = o.layouts.length === 1 ? `layout ${o.layouts[0]}` : `${o.layouts.length} pages: ${o.layouts.join(', ')}`;
    out.write(`wrote ${path} (${what}; ${kb(o.data.length)})\n`);
  }
  if (result.missingFonts.length) err.write(`cad: note: fonts not found, substituted: ${result.missingFonts.join(', ')}\n`);
  if (result.missingCharacters.length) err.write(`cad: note: no font has these characters: ${codePoints(result.missingCharacters)}\n`);
  const { found, missing } = result.references;
  for (const f of found)
    err.write(`cad: note: ${f.kind === 'xref' ? 'external reference' : 'picture'} ${f.reference}: drawn from ${f.file}\n`);
  for (const m of missing)
    err.write(
      `cad: note: ${m.kind === 'xref' ? 'external reference' : 'picture'} ${m.reference}: ${m.reason === 'not-supplied' ? 'no file of that name beside the drawing' : `${m.file}: ${m.detail ?? m.reason}`}\n`,
    );
  return 0;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The files in `folders` (the drawing's own first), read only when the drawing names one: a
 * folder of a thousand drawings costs one listing, not a thousand reads.
 */
async function folderCompanions(folders: string[]): Promise<CompanionSource> {
  const { candidateNames } = await import('@xcad/cad/companions');
  const byName = new Map<string, string>();
  for (const folder of folders) {
    let names: string[] = [];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const n of names) if (!byName.has(n.toLowerCase())) byName.set(n.toLowerCase(), join(folder, n));
  }
  return {
    find(path, kind) {
      for (const name of candidateNames(path, kind)) {
        const full = byName.get(name);
        if (!full) continue;
        try {
          if (statSync(full).isFile()) return { name: basename(full), bytes: readFileSync(full) };
        } catch {
          // Unreadable: as if absent.
        }
      }
      return undefined;
    },
  };
}

/** cad convert IN OUT.dxf [--version V] [--binary] [--pages P]: DWG/DXF/PDF → DXF of the chosen version. */
async function dxfCommand(
  p: Parsed,
  input: string,
  output: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const unused = RENDER_OPTIONS.filter((o) => p.values.has(o));
  if (p.flags.has('all-layouts')) unused.push('all-layouts');
  if (unused.length) throw new UsageError(`--${unused[0]} is not used for a .dxf output (only --version, --binary and --pages)`);
  const version =
    oneOf('version', p.values.get('version'), DXF_VERSIONS, {
      r2000: '2000',
      r2004: '2004',
      r2007: '2007',
      r2010: '2010',
      r2013: '2013',
      r2018: '2018',
    }) ?? '2018';
  const binary = p.flags.has('binary');
  const bytes = readInput(input);
  checkWritable(output);
  const pages = p.values.get('pages');
  const isPdf = Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');
  if (pages !== undefined && !isPdf) throw new UsageError('--pages is for a PDF input');
  const result = isPdf
    ? await pdfToDxf(bytes, { version, binary, ...(pages === undefined ? {} : { pages }) })
    : await (await import('@xcad/cad/dxf-writer')).convertToDxf(bytes, basename(input), { version, binary });
  writeOutput(output, result.bytes);
  out.write(`wrote ${output} (DXF ${version}${binary ? ' binary' : ''}; ${kb(result.bytes.length)})\n`);
  for (const n of result.notes) err.write(`cad: note: ${n}\n`);
  return 0;
}

/** cad convert IN OUT.dwg [--version V] [--pages P]: DWG/DXF/PDF → DWG of the chosen release. */
async function dwgCommand(
  p: Parsed,
  input: string,
  output: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const unused = RENDER_OPTIONS.filter((o) => p.values.has(o));
  if (p.flags.has('all-layouts')) unused.push('all-layouts');
  if (p.flags.has('binary')) unused.push('binary');
  if (unused.length) throw new UsageError(`--${unused[0]} is not used for a .dwg output (only --version and --pages)`);
  const aliases = Object.fromEntries(DWG_VERSION_NAMES.map((n) => [`r${n}`, n])) as Record<string, DwgVersion>;
  const version = oneOf('version', p.values.get('version'), DWG_VERSION_NAMES, aliases) ?? DWG_DEFAULT;
  if (!DWG_WRITE_VERSIONS.includes(version))
    throw new UsageError(`DWG ${version} output is not supported yet: --version must be one of ${DWG_WRITE_LIST} for a .dwg output`);
  const bytes = readInput(input);
  checkWritable(output);
  const pages = p.values.get('pages');
  const isPdf = Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');
  if (pages !== undefined && !isPdf) throw new UsageError('--pages is for a PDF input');
  let result: { bytes: Uint8Array; notes: string[] };
  if (isPdf) {
    const [{ pdfToDrawing }, { writeDwg }] = await Promise.all([import('@xcad/cad/pdf'), import('@xcad/cad/dwg-writer')]);
    const read = await pdfToDrawing(bytes, pages === undefined ? {} : { pages });
    const written = writeDwg(read.drawing, { version });
    result = { bytes: written.bytes, notes: [...read.notes, ...written.notes] };
  } else result = await (await import('@xcad/cad/dwg-writer')).convertToDwg(bytes, basename(input), { version });
  writeOutput(output, result.bytes);
  out.write(`wrote ${output} (DWG ${version}; ${kb(result.bytes.length)})\n`);
  for (const n of result.notes) err.write(`cad: note: ${n}\n`);
  return 0;
}

/** PDF → drawing (its vectors and text, in mm) → DXF. */
async function pdfToDxf(
  bytes: Uint8Array,
  options: { version: (typeof DXF_VERSIONS)[number]; binary: boolean; pages?: string },
): Promise<{ bytes: Uint8Array; notes: string[] }> {
  const [{ pdfToDrawing }, { writeDxf }] = await Promise.all([import('@xcad/cad/pdf'), import('@xcad/cad/dxf-writer')]);
  const read = await pdfToDrawing(bytes, options.pages === undefined ? {} : { pages: options.pages });
  const written = writeDxf(read.drawing, { version: options.version, binary: options.binary });
  return { bytes: written.bytes, notes: [...read.notes, ...written.notes] };
}

const UNITS = [
  'unitless',
  'inches',
  'feet',
  'miles',
  'millimetres',
  'centimetres',
  'metres',
  'kilometres',
  'microinches',
  'mils',
  'yards',
  'angstroms',
  'nanometres',
  'microns',
  'decimetres',
  'decametres',
  'hectometres',
  'gigametres',
  'astronomical units',
  'light years',
  'parsecs',
  'US survey feet',
  'US survey inches',
  'US survey yards',
  'US survey miles',
];

async function infoCommand(args: string[], out: NodeJS.WritableStream): Promise<number> {
  const p = parseArgs(args, { values: new Set(), flags: new Set(['help']) });
  if (p.flags.has('help')) {
    out.write(HELP);
    return 0;
  }
  if (p.positional.length === 0) throw new UsageError('info needs a file: cad info FILE');
  if (p.positional.length > 1) throw new UsageError(`unexpected argument '${p.positional[1]}' (info takes one file)`);
  const input = p.positional[0] as string;
  const bytes = readInput(input);
  const [{ openDrawing }, { buildScenes }, { defaultFonts, attachUnderlays }, { detectDxf }] = await Promise.all([
    import('@xcad/cad/open'),
    import('@xcad/cad/display'),
    import('@xcad/cad/convert'),
    import('@xcad/cad/dxf'),
  ]);
  const { drawing, warnings, format } = await openDrawing(bytes, basename(input));
  // Pictures, xrefs and underlay PDFs beside the file are drawn as a conversion draws them; the
  // pictures and xrefs are listed as found or not.
  const { attachCompanions } = await import('@xcad/cad/companions');
  const beside = await folderCompanions([dirname(resolve(input))]);
  const references = await attachCompanions(drawing, beside, { name: basename(input) });
  await attachUnderlays(drawing, pdfPagesOf(beside), warnings);
  const fonts = await defaultFonts();
  const build = buildScenes(drawing, { layouts: 'all', fonts });
  const h = drawing.header;

  const counts: Record<string, number> = {};
  const count = (type: string): void => {
    counts[type] = (counts[type] ?? 0) + 1;
  };
  for (const e of drawing.modelSpace) count(e.type === 'UNKNOWN' || e.type === 'ACIS' || e.type === 'UNDERLAY' ? e.dxfType : e.type);
  for (const l of drawing.layouts)
    if (!l.isModel)
      for (const e of l.entities ?? []) count(e.type === 'UNKNOWN' || e.type === 'ACIS' || e.type === 'UNDERLAY' ? e.dxfType : e.type);
  const entityCounts = Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));

  const hex = (rgb: number): string => `#${rgb.toString(16).padStart(6, '0')}`;
  const info = {
    file: basename(input),
    format,
    ...(format === 'dxf' ? { dxf: detectDxf(bytes) } : {}),
    version: h.acadVersion || null,
    release: h.release || null,
    codePage: h.codePage ?? null,
    encoding: h.encoding,
    units: h.insUnits === undefined ? null : (UNITS[h.insUnits] ?? `code ${h.insUnits}`),
    // The header's $EXTMIN/$EXTMAX when written, else the extents of what the model draws.
    extents:
      h.extMin && h.extMax && h.extMin[0] <= h.extMax[0] && h.extMin[1] <= h.extMax[1]
        ? { min: h.extMin, max: h.extMax }
        : drawnExtents(build.scenes),
    layers: Object.values(drawing.layers).map((l) => ({
      name: l.name,
      on: l.on,
      frozen: l.frozen,
      color: l.color.rgb !== undefined ? hex(l.color.rgb) : (l.color.aci ?? 7),
      linetype: l.linetype,
    })),
    layouts: drawing.layouts.map((l) => ({
      name: l.name,
      isModel: l.isModel,
      entities: l.isModel ? drawing.modelSpace.length : (l.entities ?? []).filter((e) => e.type !== 'VIEWPORT').length,
      viewports: l.viewports.filter((vp) => vp.id !== 1).length,
      paper:
        l.plot?.paperWidth && l.plot.paperHeight
          ? { name: l.plot.paperName ?? null, width: l.plot.paperWidth, height: l.plot.paperHeight, rotation: (l.plot.rotation ?? 0) * 90 }
          : null,
    })),
    entityCounts,
    blocks: Object.values(drawing.blocks).filter((b) => !b.name.startsWith('*')).length,
    missingFonts: build.missingFonts,
    substitutedFonts: build.substitutedFonts,
    missingCharacters: build.missingCharacters,
    references,
    warnings: [...warnings, ...build.warnings.map((w) => w.message)],
  };
  out.write(`${JSON.stringify(info, null, 2)}\n`);
  return 0;
}

/** Runs the command; returns the exit code. Never throws. */
export async function main(
  args: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const fail = (code: number, message: string): number => {
    err.write(`cad: ${message.replace(/\s*\n\s*/g, ' ').trim()}\n`);
    return code;
  };
  try {
    const [command, ...rest] = args;
    if (command === undefined) throw new UsageError('missing command: cad convert IN OUT, or cad info FILE (see cad --help)');
    if (command === '--help' || command === '-h' || command === 'help') {
      out.write(HELP);
      return 0;
    }
    if (command === 'convert') return await convertCommand(rest, out, err);
    if (command === 'info') return await infoCommand(rest, out);
    if (command === 'server') {
      const { serverCommand } = await import('./resident/command');
      // The warm-up (every reader, back end and writer) loads only in the engine itself.
      const warmUp = async (): Promise<void> => (await import('./resident/warm-up')).warmUp();
      return await serverCommand(rest, out, err, main, warmUp);
    }
    throw new UsageError(
      command.startsWith('-')
        ? `unknown option '${command}' (see cad --help)`
        : `unknown command '${command}' (convert, info or server; see cad --help)`,
    );
  } catch (e) {
    if (e instanceof UsageError) return fail(2, e.message);
    if (e instanceof InputError) return fail(1, e.message);
    const name = e instanceof Error ? e.name : '';
    if (name === 'CadReadError' || name === 'CadConvertError' || name === 'CadLimitError') return fail(1, (e as Error).message);
    if (process.env.CAD_DEBUG) err.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    return fail(1, `internal error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} (set CAD_DEBUG=1 for details)`);
  }
}

/**
 * Run by bin/cad.cjs after the command: when the client could not hand the command to a resident
 * engine ($CAD_SERVER_FALLBACK), start one in the background for the next commands (decision 0024).
 * @public (bin/cad.cjs calls it on the bundle of this file)
 */
export async function afterCommand(args: string[]): Promise<void> {
  // `cad server ...` decides about the engine itself (status and stop must not start one).
  if (!process.env['CAD_SERVER_FALLBACK'] || args[0] === 'server') return;
  try {
    (await import('./resident/command')).startEngineAfterFallback();
  } catch {
    // The next command runs in a process of its own again: slower, not wrong.
  }
}

/** Model-space extents of the built display list, as [x, y, 0] corners; null when nothing is drawn. */
function drawnExtents(
  scenes: { isModel: boolean; bounds: { minX: number; minY: number; maxX: number; maxY: number } | null }[],
): { min: number[]; max: number[] } | null {
  const b = scenes.find((sc) => sc.isModel)?.bounds;
  return b ? { min: [b.minX, b.minY, 0], max: [b.maxX, b.maxY, 0] } : null;
}

/** The pages of the PDFs a drawing's underlays name, from the files beside it (found as its pictures and xrefs are). */
function pdfPagesOf(source: CompanionSource): NonNullable<ConvertOptions['underlayPages']> {
  return async (recorded, page) => {
    const file = source.find(recorded, 'underlay');
    if (!file) return null;
    const { pdfToDrawing } = await import('@xcad/cad/pdf');
    return (await pdfToDrawing(file.bytes, { pages: page })).drawing;
  };
}

import { TASK_TOOLS, type TInputKind, type TTaskType } from '@xcad/protocol';

// The four online conversion tools (spec §2 /tools/*, decision 0019): their routes and what files they
// take. Labels, how-tos and questions live in messages `tools.json` under `tool.<type>`.

export const TOOL_ROUTES: Readonly<Record<TTaskType, string>> = {
  cad2pdf: 'tools-cad2pdf',
  cad2jpg: 'tools-cad2jpg',
  cad2ver: 'tools-cad2ver',
  pdf2cad: 'tools-pdf2cad',
};

/** The order the hub and the 'other tools' strip list them in. */
export const TOOL_ORDER: readonly TTaskType[] = ['cad2pdf', 'cad2jpg', 'cad2ver', 'pdf2cad'];

export function toolPathOf(tool: TTaskType): string {
  return `/tools/${tool}`;
}

/**
 * The extensions a tool accepts, lower case without the dot: the file kinds of TASK_TOOLS, and the
 * pictures it takes beside its drawings ('jpeg' too for 'jpg').
 */
export function extensionsOf(tool: TTaskType): readonly string[] {
  const pictures = TASK_TOOLS[tool].companions.flatMap((kind) => (kind === 'jpg' ? ['jpg', 'jpeg'] : [kind]));
  return [...TASK_TOOLS[tool].inputs, ...pictures];
}

/** Whether a tool takes pictures (and other drawings) as what its drawings refer to. */
export function takesCompanions(tool: TTaskType): boolean {
  return TASK_TOOLS[tool].companions.length > 0;
}

/** The file input's `accept`: `.dwg,.dxf` or `.pdf`. */
export function acceptOf(tool: TTaskType): string {
  return extensionsOf(tool)
    .map((extension) => `.${extension}`)
    .join(',');
}

/** How the accepted drawings read in a message: `DWG/DXF`, `PDF`. */
export function kindsLabelOf(tool: TTaskType): string {
  return TASK_TOOLS[tool].inputs.map((extension: TInputKind) => extension.toUpperCase()).join('/');
}

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

/** The extensions a tool accepts, lower case without the dot (the file kinds of TASK_TOOLS). */
export function extensionsOf(tool: TTaskType): readonly TInputKind[] {
  return TASK_TOOLS[tool].inputs;
}

/** The file input's `accept`: `.dwg,.dxf` or `.pdf`. */
export function acceptOf(tool: TTaskType): string {
  return extensionsOf(tool)
    .map((extension) => `.${extension}`)
    .join(',');
}

/** How the accepted types read in a message: `DWG/DXF`, `PDF`. */
export function kindsLabelOf(tool: TTaskType): string {
  return extensionsOf(tool)
    .map((extension) => extension.toUpperCase())
    .join('/');
}

import { ZConversionOptions, type TTaskType } from '@xcad/protocol';
import type { TaskParams } from '@/lib/tools/options';

// "Print or export" in the viewer goes through the online conversion (decision 0019): the drawing is
// uploaded (only now, and the page says so) and converted by the server's engine, which draws
// exactly what the viewer shows. The options are the protocol's (ZConversionOptions).

export interface ExportChoice {
  format: 'pdf' | 'png';
  /** The layout on screen ('Model' for model space), or every layout. */
  scope: { kind: 'current'; layout: string } | { kind: 'all' };
  color: 'color' | 'gray' | 'mono';
  /** The viewer's background: a PNG keeps it (PDF pages are white). */
  background: 'white' | 'black';
}

export function exportTaskOf(choice: ExportChoice): { tasktype: TTaskType; params: TaskParams } {
  const scope = choice.scope.kind === 'all' ? { allLayouts: true } : { layout: choice.scope.layout };
  if (choice.format === 'pdf') {
    const options = ZConversionOptions.parse({ ...scope, paper: 'fit', orientation: 'auto', color: choice.color });
    return { tasktype: 'cad2pdf', params: { outputfileextension: 'pdf', parainfo: JSON.stringify(options) } };
  }
  const options = ZConversionOptions.parse({ ...scope, width: 3840, background: choice.background, color: choice.color });
  return { tasktype: 'cad2jpg', params: { outputfileextension: 'png', parainfo: JSON.stringify(options) } };
}

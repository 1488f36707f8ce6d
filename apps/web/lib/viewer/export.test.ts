import { ZConversionOptions } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { exportTaskOf } from './export';

describe('export through the server', () => {
  it('asks cad2pdf for the layout on screen, fitted to the page', () => {
    const task = exportTaskOf({ format: 'pdf', scope: { kind: 'current', layout: 'Layout1' }, color: 'mono', background: 'black' });
    expect(task.tasktype).toBe('cad2pdf');
    expect(task.params.outputfileextension).toBe('pdf');
    expect(ZConversionOptions.parse(JSON.parse(task.params.parainfo))).toEqual({
      layout: 'Layout1',
      paper: 'fit',
      orientation: 'auto',
      color: 'mono',
    });
  });

  it('asks cad2jpg for a PNG of every layout on the viewer background', () => {
    const task = exportTaskOf({ format: 'png', scope: { kind: 'all' }, color: 'color', background: 'black' });
    expect(task.tasktype).toBe('cad2jpg');
    expect(task.params.outputfileextension).toBe('png');
    expect(JSON.parse(task.params.parainfo)).toEqual({ allLayouts: true, width: 3840, background: 'black', color: 'color' });
  });
});

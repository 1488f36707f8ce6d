import { ZUploadParRequest } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { DWG_OUTPUT_VERSIONS } from '@xcad/protocol';
import { defaultOptionsOf, normalizePages, taskParamsOf, versionsOf, withCadFormat, type ToolOptions } from './options';

// What each tool's choices become on the wire; the protocol's own schema reads them back.

function params(options: ToolOptions) {
  const result = taskParamsOf(options);
  if (!result.ok) throw new Error(`refused: ${result.problem}`);
  return result.params;
}

/** uploadpar as the server reads it. */
function read(options: ToolOptions) {
  const { outputfileextension, fileversion, parainfo } = params(options);
  return ZUploadParRequest.parse({ filename: 'a.dwg', filecount: 1, tasktype: options.tool, outputfileextension, fileversion, parainfo });
}

describe('CAD to PDF', () => {
  it('fits the model on the paper in colour by default', () => {
    expect(read(defaultOptionsOf('cad2pdf'))).toMatchObject({
      outputfileextension: 'pdf',
      parainfo: { paper: 'fit', orientation: 'auto', color: 'color' },
    });
  });

  it('asks for every layout, a paper size, an orientation and black and white', () => {
    const parsed = read({ tool: 'cad2pdf', scope: 'all', paper: 'A3', orientation: 'landscape', color: 'mono' });
    expect(parsed.parainfo).toEqual({ allLayouts: true, paper: 'A3', orientation: 'landscape', color: 'mono' });
  });
});

describe('CAD to image', () => {
  it('sends the format as the output and either a width or a DPI, never both', () => {
    const byWidth = read({
      tool: 'cad2jpg',
      format: 'png',
      scope: 'model',
      sizeBy: 'width',
      width: 3840,
      dpi: 300,
      background: 'black',
      color: 'gray',
    });
    expect(byWidth.outputfileextension).toBe('png');
    expect(byWidth.parainfo).toEqual({ width: 3840, background: 'black', color: 'gray' });
    const byDpi = read({ ...(defaultOptionsOf('cad2jpg') as Extract<ToolOptions, { tool: 'cad2jpg' }>), sizeBy: 'dpi', dpi: 300 });
    expect(byDpi.outputfileextension).toBe('jpg');
    expect(byDpi.parainfo).toMatchObject({ dpi: 300 });
    expect(byDpi.parainfo).not.toHaveProperty('width');
  });
});

describe('CAD version and PDF to CAD', () => {
  it('sends the target version of cad2ver as fileversion, with no other options', () => {
    expect(params({ tool: 'cad2ver', version: 'R12', format: 'dxf' })).toEqual({
      outputfileextension: 'dxf',
      fileversion: 'R12',
      parainfo: '',
    });
    expect(read(defaultOptionsOf('cad2ver'))).toMatchObject({ outputfileextension: 'dwg', fileversion: '2004', parainfo: {} });
  });

  it('offers DWG only in the versions it is written in, and keeps a version when switching format where it can', () => {
    expect(versionsOf({ tool: 'cad2ver', version: '2004', format: 'dwg' })).toEqual(DWG_OUTPUT_VERSIONS);
    expect(versionsOf({ tool: 'cad2ver', version: '2004', format: 'dxf' })).toContain('R12');
    expect(withCadFormat({ tool: 'cad2ver', version: 'R12', format: 'dxf' }, 'dwg')).toEqual({
      tool: 'cad2ver',
      version: '2004',
      format: 'dwg',
    });
    expect(withCadFormat({ tool: 'cad2ver', version: '2000', format: 'dxf' }, 'dwg')).toEqual({
      tool: 'cad2ver',
      version: '2000',
      format: 'dwg',
    });
    expect(withCadFormat({ tool: 'cad2ver', version: '2000', format: 'dwg' }, 'dxf')).toEqual({
      tool: 'cad2ver',
      version: '2000',
      format: 'dxf',
    });
  });

  it('converts every page unless a range is chosen, and refuses a range it cannot read', () => {
    expect(params({ tool: 'pdf2cad', version: '2004', format: 'dwg', pageScope: 'all', pages: 'junk' })).toEqual({
      outputfileextension: 'dwg',
      fileversion: '2004',
      parainfo: '',
    });
    expect(read({ tool: 'pdf2cad', version: '2018', format: 'dxf', pageScope: 'range', pages: ' 1-3， 5 ' }).parainfo).toEqual({
      pages: '1-3,5',
    });
    expect(taskParamsOf({ tool: 'pdf2cad', version: '2004', format: 'dwg', pageScope: 'range', pages: '3-1' })).toEqual({
      ok: false,
      problem: 'pages',
    });
  });

  it('offers pdf2cad the versions of cad2ver and sends the one chosen (decision 0036)', () => {
    const pdf2cad = defaultOptionsOf('pdf2cad');
    const cad2ver = defaultOptionsOf('cad2ver');
    if (pdf2cad.tool !== 'pdf2cad' || cad2ver.tool !== 'cad2ver') throw new Error('tools');
    expect(versionsOf(pdf2cad)).toEqual(versionsOf(cad2ver));
    expect(versionsOf(withCadFormat(pdf2cad, 'dxf'))).toEqual(versionsOf(withCadFormat(cad2ver, 'dxf')));
    expect(versionsOf(withCadFormat(pdf2cad, 'dxf'))).toContain('R12');
    expect(params({ ...withCadFormat(pdf2cad, 'dxf'), version: 'R12' })).toEqual({
      outputfileextension: 'dxf',
      fileversion: 'R12',
      parainfo: '',
    });
    expect(withCadFormat({ ...pdf2cad, format: 'dxf', version: 'R12' }, 'dwg')).toMatchObject({ tool: 'pdf2cad', version: '2004' });
  });
});

describe('page ranges', () => {
  it('reads what people type', () => {
    expect(normalizePages('1-3,5')).toBe('1-3,5');
    expect(normalizePages('1 - 3 、 7～9；12')).toBe('1-3,7-9,12');
    expect(normalizePages('2,')).toBe('2');
  });

  it('refuses pages from 0, falling ranges, words and empty input', () => {
    for (const text of ['', '0', '0-2', '5-2', 'abc', '1--2', '1-2-3', '1,,2', '9'.repeat(65)])
      expect(normalizePages(text), text).toBeNull();
  });
});

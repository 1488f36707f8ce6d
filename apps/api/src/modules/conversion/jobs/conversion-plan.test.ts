import { DWG_WRITE_VERSIONS } from '@xcad/cad/dwg-writer';
import { SAVE_AS_HOWS } from '@xcad/cad/save-as';
import { MISSING_REASONS } from '@xcad/cad/companions';
import { DWG_OUTPUT_VERSIONS, FILE_CHANGE_HOWS, cadVersionsFor } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { acceptsInput, layoutImageName, outputNameOf, planConversion, stemOf, uniqueNames } from './conversion-plan';
import { JOB_MESSAGES } from './job-messages';
import { expectedTypesOf } from '../conversion-rules';

// Decision 0019: what a task asks of the engine, and the names of what it produces.

const task = (tasktype: string, output_ext: string, options: unknown = {}) => ({
  tasktype,
  output_ext,
  options: typeof options === 'string' ? options : JSON.stringify(options),
});

describe('planConversion', () => {
  it('maps cad2pdf and cad2jpg with their options onto the engine', () => {
    expect(planConversion(task('cad2pdf', 'pdf', { paper: 'A3', orientation: 'landscape', color: 'mono', allLayouts: true }))).toEqual({
      ok: true,
      tool: 'cad2pdf',
      ext: 'pdf',
      options: { format: 'pdf', paper: 'A3', orientation: 'landscape', color: 'mono', allLayouts: true },
    });
    expect(planConversion(task('cad2jpg', 'png', { width: 1200, background: 'black', layout: '布局1' }))).toEqual({
      ok: true,
      tool: 'cad2jpg',
      ext: 'png',
      options: { format: 'png', width: 1200, background: 'black', layout: '布局1' },
    });
    expect(planConversion(task('cad2jpg', 'jpg', '{}'))).toMatchObject({ ok: true, options: { format: 'jpg' } });
  });

  it('writes DXF for cad2ver (the version asked, 2018 by default) and pdf2cad (with its pages)', () => {
    expect(planConversion({ ...task('cad2ver', 'dxf'), file_version: 'R12' })).toMatchObject({
      ok: true,
      ext: 'dxf',
      cad: { format: 'dxf', version: 'R12', fromPdf: false },
    });
    expect(planConversion(task('cad2ver', 'dxf'))).toMatchObject({ ok: true, cad: { format: 'dxf', version: '2018' } });
    expect(planConversion(task('pdf2cad', 'dxf', { pages: '1-3' }))).toMatchObject({
      ok: true,
      ext: 'dxf',
      cad: { format: 'dxf', version: '2018', fromPdf: true, pages: '1-3' },
    });
    // pdf2cad takes the version asked as cad2ver does (decision 0036).
    expect(planConversion({ ...task('pdf2cad', 'dxf'), file_version: 'R12' })).toMatchObject({
      ok: true,
      cad: { format: 'dxf', version: 'R12', fromPdf: true },
    });
    expect(planConversion({ ...task('pdf2cad', 'dwg'), file_version: '2013' })).toMatchObject({
      ok: true,
      cad: { format: 'dwg', version: '2013', fromPdf: true },
    });
  });

  it('writes DWG in the versions the writer writes (2004 by default) and refuses the others with those versions named', () => {
    expect(planConversion({ ...task('cad2ver', 'dwg'), file_version: '2000' })).toMatchObject({
      ok: true,
      ext: 'dwg',
      cad: { format: 'dwg', version: '2000', fromPdf: false },
    });
    expect(planConversion(task('cad2ver', 'dwg'))).toMatchObject({ ok: true, cad: { format: 'dwg', version: '2004' } });
    expect(planConversion(task('pdf2cad', 'dwg', { pages: '2' }))).toMatchObject({
      ok: true,
      ext: 'dwg',
      cad: { format: 'dwg', version: '2004', fromPdf: true, pages: '2' },
    });
    const refused = planConversion({ ...task('cad2ver', 'dwg'), file_version: 'R12' });
    expect(refused).toEqual({ ok: false, reason: JOB_MESSAGES.dwgVersion('R12', DWG_OUTPUT_VERSIONS) });
    expect(refused.ok ? '' : refused.reason).toContain(DWG_OUTPUT_VERSIONS.join('、'));
  });

  it('offers for DWG exactly the versions the engine writes', () => {
    expect([...DWG_OUTPUT_VERSIONS]).toEqual([...DWG_WRITE_VERSIONS]);
    expect(cadVersionsFor('dwg')).toEqual(DWG_OUTPUT_VERSIONS);
  });

  it('refuses an output its tool does not make, and options that contradict each other or do not parse', () => {
    expect(planConversion(task('cad2pdf', 'png'))).toEqual({ ok: false, reason: JOB_MESSAGES.unsupported });
    expect(planConversion(task('cad2jpg', 'png', { width: 800, dpi: 150 }))).toEqual({ ok: false, reason: JOB_MESSAGES.badOptions });
    expect(planConversion(task('cad2pdf', 'pdf', { layout: 'A', allLayouts: true }))).toEqual({
      ok: false,
      reason: JOB_MESSAGES.badOptions,
    });
    expect(planConversion(task('cad2pdf', 'pdf', '{not json'))).toEqual({ ok: false, reason: JOB_MESSAGES.badOptions });
    expect(planConversion(task('cad2pdf', 'pdf', { scale: 2 }))).toEqual({ ok: false, reason: JOB_MESSAGES.badOptions });
  });
});

describe('inputs', () => {
  it('takes the kinds each tool reads', () => {
    expect(acceptsInput('cad2pdf', 'dwg')).toBe(true);
    expect(acceptsInput('cad2jpg', 'dxf')).toBe(true);
    expect(acceptsInput('cad2pdf', 'pdf')).toBe(false);
    expect(acceptsInput('cad2pdf', null)).toBe(false);
    // The same words as the upload's refusal (conversion-rules' expectedTypesOf).
    expect(JOB_MESSAGES.wrongInput(expectedTypesOf('cad2jpg'))).toBe('文件类型不正确，请上传DWG或DXF文件');
  });
});

describe('the change report on the wire (decision 0036)', () => {
  it("carries every way the engine's save-as report changes an object, the renderer's not-drawn and the missing references", () => {
    const references = MISSING_REASONS.map((reason) => `ref-${reason}`);
    expect([...FILE_CHANGE_HOWS].sort()).toEqual([...SAVE_AS_HOWS, 'not-drawn', ...references].sort());
  });
});

describe('names', () => {
  it('gives the output the input name with the new extension', () => {
    expect(outputNameOf('一层平面图.dwg', { ext: 'pdf' })).toBe('一层平面图.pdf');
    expect(outputNameOf('plan.v2.DXF', { ext: 'png' })).toBe('plan.v2.png');
    expect(outputNameOf('README', { ext: 'pdf' })).toBe('README.pdf');
  });

  it('names a DWG or DXF with the version it was written in (decision 0036)', () => {
    const toDwg = planConversion({ ...task('cad2ver', 'dwg'), file_version: '2004' });
    const toR12 = planConversion({ ...task('pdf2cad', 'dxf'), file_version: 'R12' });
    if (!toDwg.ok || !toR12.ok) throw new Error('both plans convert');
    expect(outputNameOf('acs_sample_AC1032.dwg', toDwg)).toBe('acs_sample_AC1032_2004.dwg');
    expect(outputNameOf('扫描图纸.pdf', toR12)).toBe('扫描图纸_R12.dxf');
    expect(stemOf('.dwg')).toBe('.dwg');
  });

  it('names layout images after their layout, safely', () => {
    expect(layoutImageName('住宅.dwg', '布局1', 1, 'png')).toBe('住宅_布局1.png');
    expect(layoutImageName('a.dxf', 'A/B:C*', 0, 'jpg')).toBe('a_A_B_C_.jpg');
    expect(layoutImageName('a.dxf', undefined, 2, 'jpg')).toBe('a_3.jpg');
  });

  it('numbers duplicates as Windows would', () => {
    expect(uniqueNames(['a.pdf', 'A.pdf', 'b.pdf', 'a.pdf'])).toEqual(['a.pdf', 'A(2).pdf', 'b.pdf', 'a(3).pdf']);
  });
});

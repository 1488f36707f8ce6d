import { describe, expect, it } from 'vitest';
import { INPUT_MESSAGES } from '../input';
import { DRAWING_MESSAGES, drawingFileName, parseDrawingListQuery } from './drawings';

describe('parseDrawingListQuery', () => {
  it('applies defaults and normalises values', () => {
    expect(parseDrawingListQuery({})).toEqual({
      ok: true,
      query: { category: undefined, format: undefined, access: undefined, q: '', page: 1, perPage: 12 },
    });
    expect(parseDrawingListQuery({ format: 'dxf', q: ' a\t\n  b ', page: '3', per_page: '48', category: 'blocks' })).toEqual({
      ok: true,
      query: { category: 'blocks', format: 'DXF', access: undefined, q: 'a b', page: 3, perPage: 48 },
    });
  });

  it('names what is wrong', () => {
    expect(parseDrawingListQuery({ per_page: '0' })).toEqual({ ok: false, message: DRAWING_MESSAGES.invalidPerPage });
    expect(parseDrawingListQuery({ page: '10001' })).toEqual({ ok: false, message: DRAWING_MESSAGES.invalidPage });
    expect(parseDrawingListQuery({ page: '1.5' })).toEqual({ ok: false, message: DRAWING_MESSAGES.invalidPage });
    expect(parseDrawingListQuery({ access: ['free', 'member'] })).toEqual({ ok: false, message: DRAWING_MESSAGES.repeated('access') });
    expect(parseDrawingListQuery({ category: 'A B' })).toEqual({ ok: false, message: DRAWING_MESSAGES.invalidCategory });
    for (const q of ['a\u0000b', 'a\u0007b', 'a\ud800'])
      expect(parseDrawingListQuery({ q })).toEqual({ ok: false, message: INPUT_MESSAGES.characters });
  });
});

describe('drawingFileName', () => {
  it('keeps Chinese titles and replaces characters file systems refuse', () => {
    expect(drawingFileName('带双车库的独栋住宅一层平面图', 'DXF')).toBe('带双车库的独栋住宅一层平面图.dxf');
    expect(drawingFileName('A/B: "图"?\u0001', 'DWG')).toBe('A_B_ _图___.dwg');
    expect(drawingFileName('   ', 'DWG')).toBe('drawing.dwg');
  });
});

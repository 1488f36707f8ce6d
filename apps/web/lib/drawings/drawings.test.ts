import { describe, expect, it } from 'vitest';
import { drawingListOf, formatBytes, hasFilters, listHref, listStateOf, paragraphsOf, summaryOf } from './drawings';

describe('listStateOf', () => {
  it('reads the filters of /dwglist with the API rules', () => {
    expect(listStateOf({})).toEqual({ category: undefined, format: undefined, access: undefined, q: '', page: 1 });
    expect(listStateOf({ category: 'architecture', format: 'dwg', access: 'member', q: '  住宅  平面 ', page: '2' })).toEqual({
      category: 'architecture',
      format: 'DWG',
      access: 'member',
      q: '住宅 平面',
      page: 2,
    });
  });

  it('answers null for what the API would refuse (the page is a 404)', () => {
    for (const params of [
      { format: 'pdf' },
      { access: 'vip' },
      { page: '0' },
      { page: 'x' },
      { category: '建筑' },
      { q: ['a', 'b'] },
      { q: '图'.repeat(51) },
    ]) {
      expect(listStateOf(params)).toBeNull();
    }
  });
});

describe('listHref', () => {
  const base = '/dwglist';
  const state = { category: 'architecture', format: 'DWG' as const, access: undefined, q: '平面', page: 3 };

  it('keeps the other filters, drops defaults and goes back to page 1 when a filter changes', () => {
    expect(listHref(base, state, { access: 'free' })).toBe('/dwglist?category=architecture&format=DWG&access=free&q=%E5%B9%B3%E9%9D%A2');
    expect(listHref(base, state, { format: undefined })).toBe('/dwglist?category=architecture&q=%E5%B9%B3%E9%9D%A2');
    expect(listHref(base, state, { page: 4 })).toBe('/dwglist?category=architecture&format=DWG&q=%E5%B9%B3%E9%9D%A2&page=4');
    expect(listHref('/en/dwglist', { q: '', page: 1 })).toBe('/en/dwglist');
  });

  it('tells whether any filter is on', () => {
    expect(hasFilters({ q: '', page: 5 })).toBe(false);
    expect(hasFilters({ q: '', page: 1, access: 'member' })).toBe(true);
  });
});

describe('presentation helpers', () => {
  it('formats sizes as people read them', () => {
    expect([formatBytes(512), formatBytes(7564), formatBytes(36_391), formatBytes(1_297_511)]).toEqual([
      '512 B',
      '7.4 KB',
      '36 KB',
      '1.2 MB',
    ]);
  });

  it('splits a description into paragraphs and summarises the first', () => {
    expect(paragraphsOf('第一段\n续行\n\n  第二段 \n\n\n')).toEqual(['第一段 续行', '第二段']);
    expect(summaryOf('短说明\n\n第二段')).toBe('短说明');
    expect(Array.from(summaryOf('长'.repeat(200))).length).toBe(120);
  });

  it('refuses an answer that is not a drawing list', () => {
    expect(drawingListOf({ total: 1 })).toBeNull();
    expect(drawingListOf({ total: 0, totalPages: 0, page: 1, perPage: 12, items: [], categories: [] })).toEqual({
      total: 0,
      totalPages: 0,
      page: 1,
      perPage: 12,
      items: [],
      categories: [],
    });
  });
});

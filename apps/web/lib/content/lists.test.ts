import { describe, expect, it } from 'vitest';
import { listPostsOf, orderBySlugs, pageNumberOf, paginationItems, searchQueryOf, termFrom, termsOf } from './lists';

describe('listPostsOf', () => {
  it('reads WordPress posts as plain text with the publication day', () => {
    const posts = listPostsOf([
      {
        id: 1019,
        title: { rendered: 'CAD&#25991;字 &amp; 字体' },
        excerpt: { rendered: '<p>讲解 <b>STYLE</b> 文字样式&hellip;</p>\n' },
        date: '2026-06-23T09:00:00',
      },
    ]);
    expect(posts).toEqual([{ id: 1019, title: 'CAD文字 & 字体', excerpt: '讲解 STYLE 文字样式…', date: '2026-06-23' }]);
  });

  it('drops items without an id or a title and refuses an answer that is not a list', () => {
    expect(listPostsOf([{ id: 0, title: { rendered: 'x' } }, { id: 5, title: { rendered: '  ' } }, null, { id: '7', title: 'ok' }])).toEqual([
      { id: 7, title: 'ok', excerpt: '', date: '' },
    ]);
    expect(listPostsOf({ code: 'rest_invalid_param' })).toBeNull();
  });
});

describe('terms', () => {
  it('reads a single tag and a list, and orders categories by the help centre slugs', () => {
    expect(termFrom({ id: 16, name: 'CAD看图', slug: 'cad-kantu', count: 2 })).toEqual({ id: 16, name: 'CAD看图', slug: 'cad-kantu' });
    expect(termFrom({ code: 'rest_term_invalid' })).toBeNull();
    const terms = termsOf([
      { id: 3, name: '注册激活', slug: 'activation' },
      { id: 2, name: '下载安装', slug: 'installation' },
      { id: 9, name: '其他', slug: 'other' },
    ]);
    expect(terms && orderBySlugs(terms, ['installation', 'activation', 'printing']).map((term) => term.id)).toEqual([2, 3]);
  });
});

describe('pageNumberOf', () => {
  it('takes 1 for no page and refuses anything that is not a positive whole number', () => {
    expect(pageNumberOf(undefined)).toBe(1);
    expect(pageNumberOf('3')).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'abc', '', '99999999', ['1', '2']]) expect(pageNumberOf(bad)).toBeNull();
  });
});

describe('searchQueryOf', () => {
  it('trims, collapses spaces and caps the query at 50 characters', () => {
    expect(searchQueryOf('  字体   问号 ')).toBe('字体 问号');
    expect(searchQueryOf(undefined)).toBe('');
    expect(searchQueryOf(['打印', 'x'])).toBe('打印');
    expect(Array.from(searchQueryOf('字'.repeat(80)))).toHaveLength(50);
  });
});

describe('paginationItems', () => {
  it('shows every page of a short list', () => {
    expect(paginationItems(2, 4)).toEqual([1, 2, 3, 4]);
    expect(paginationItems(1, 1)).toEqual([1]);
  });

  it('keeps the ends and the neighbourhood of the current page, with gaps', () => {
    expect(paginationItems(10, 20)).toEqual([1, null, 8, 9, 10, 11, 12, null, 20]);
    expect(paginationItems(1, 20)).toEqual([1, 2, 3, null, 20]);
  });
});

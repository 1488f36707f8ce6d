import { describe, expect, it } from 'vitest';
import { articleIdOf, articleOf, articlePagePath, articlePages, dayOf, relatedQueries, sitePath, summariesOf } from './posts';

// A /posts/{id}?_embed answer as the content API gives it (docs/decisions/0011-content-api.md).
const POST = {
  id: 1021,
  date: '2026-03-05T10:20:00',
  modified: '2026-03-08T09:00:00',
  slug: 'dwg-to-pdf',
  title: { rendered: 'DWG转PDF &amp; 打印' },
  content: { rendered: '<h2>步骤</h2><p>打开图纸。</p>', protected: false },
  excerpt: { rendered: '<p>把图纸转成PDF。</p>\n', protected: false },
  author: 1,
  categories: [12, 5],
  tags: [31, 32],
  tags_d: [
    { id: 31, name: 'PDF', slug: 'pdf' },
    { id: 32, name: '转换', slug: 'convert' },
  ],
  previous: { id: 1020, title: '测量距离和面积', slug: 'measure' },
  next: null,
  yoast_head_json: { title: 'DWG转PDF的方法', description: '', canonical: 'https://x/1021.html', keywords: 'PDF,转换' },
  _embedded: {
    author: [{ id: 1, name: '迅捷CAD编辑部' }],
    'wp:term': [
      [{ id: 12, name: '格式转换', slug: 'conversion', taxonomy: 'category', link: 'https://www.example.com/help.html' }],
      [{ id: 31, name: 'PDF', slug: 'pdf', taxonomy: 'post_tag', link: 'https://www.example.com/tag/31' }],
    ],
  },
};

describe('articleOf', () => {
  it('reads the fields an article page shows', () => {
    const article = articleOf(POST);
    expect(article).toMatchObject({
      id: 1021,
      title: 'DWG转PDF & 打印',
      html: '<h2>步骤</h2><p>打开图纸。</p>',
      excerpt: '把图纸转成PDF。',
      date: '2026-03-05',
      modified: '2026-03-08',
      author: '迅捷CAD编辑部',
      categoryIds: [12, 5],
      categories: [{ id: 12, name: '格式转换', path: '/help.html' }],
      tags: [
        { id: 31, name: 'PDF', path: '/tag/31' },
        { id: 32, name: '转换', path: '/tag/32' },
      ],
      previous: { id: 1020, title: '测量距离和面积' },
      next: null,
    });
  });

  it('takes the SEO head from yoast_head_json and falls back to the excerpt for an empty description', () => {
    expect(articleOf(POST)?.seo).toEqual({ title: 'DWG转PDF的方法', description: '把图纸转成PDF。', keywords: 'PDF,转换' });
  });

  it('works with a plain WordPress post (no tags_d, previous or yoast data)', () => {
    const { tags_d: _tags, previous: _previous, next: _next, yoast_head_json: _seo, ...plain } = POST;
    const article = articleOf(plain);
    expect(article?.tags).toEqual([{ id: 31, name: 'PDF', path: '/tag/31' }]);
    expect(article?.previous).toBeNull();
    expect(article?.seo.title).toBe('DWG转PDF & 打印');
    expect(article?.seo.keywords).toBe('PDF');
  });

  it('refuses answers that are not a post', () => {
    expect(articleOf({ code: 'rest_post_invalid_id', message: 'Invalid post ID.' })).toBeNull();
    expect(articleOf({ id: 5, title: { rendered: '' } })).toBeNull();
    expect(articleOf([])).toBeNull();
  });

  it('drops malformed neighbours and terms instead of linking them', () => {
    const article = articleOf({ ...POST, previous: { id: 'x', title: '坏' }, tags_d: [{ id: 0, name: '零' }, 'junk', { id: 9, name: '好' }] });
    expect(article?.previous).toBeNull();
    expect(article?.tags).toEqual([{ id: 9, name: '好', path: '/tag/9' }]);
  });
});

describe('summariesOf', () => {
  it('lists posts without the article itself or duplicates, up to the limit', () => {
    const body = [
      { id: 1021, title: { rendered: '本文' }, date: '2026-03-05T10:00:00' },
      { id: 1003, title: { rendered: 'A' }, date: '2026-02-01T10:00:00' },
      { id: 1003, title: { rendered: 'A' }, date: '2026-02-01T10:00:00' },
      { id: 1004, title: { rendered: 'B' }, date: '2026-02-02T10:00:00' },
      { id: 1005, title: { rendered: 'C' }, date: '2026-02-03T10:00:00' },
    ];
    expect(summariesOf(body, 1021, 2)).toEqual([
      { id: 1003, title: 'A', date: '2026-02-01' },
      { id: 1004, title: 'B', date: '2026-02-02' },
    ]);
    expect(summariesOf({ code: 'rest_invalid_param' }, 1, 5)).toEqual([]);
  });
});

describe('relatedQueries', () => {
  it('asks for the first tag, then the primary (lowest id) category', () => {
    expect(relatedQueries({ tags: [{ id: 31, name: 'PDF', path: '/tag/31' }], categoryIds: [12, 5] })).toEqual([{ tags: '31' }, { categories: '5' }]);
    expect(relatedQueries({ tags: [], categoryIds: [] })).toEqual([]);
  });
});

describe('helpers', () => {
  it('accepts article ids with or without .html only', () => {
    expect(articleIdOf('1021')).toBe(1021);
    expect(articleIdOf('1021.html')).toBe(1021);
    expect(articleIdOf('0')).toBeNull();
    expect(articleIdOf('12a')).toBeNull();
    expect(articleIdOf('1021.htm')).toBeNull();
  });

  it('keeps the path of absolute links and the day of dates', () => {
    expect(sitePath('https://www.example.com/help.html')).toBe('/help.html');
    expect(sitePath('/tag/3?x=1')).toBe('/tag/3?x=1');
    expect(sitePath(42)).toBe('');
    expect(dayOf('2026-03-05 10:20:00')).toBe('2026-03-05');
    expect(dayOf('soon')).toBe('');
  });
});

describe('articlePages', () => {
  it('splits on the WordPress page break and drops empty pages', () => {
    expect(articlePages('<p>一</p>\n<!--nextpage-->\n<p>二</p><!-- NextPage --><p>三</p>')).toEqual(['<p>一</p>', '<p>二</p>', '<p>三</p>']);
    expect(articlePages('<p>只有一页</p>')).toEqual(['<p>只有一页</p>']);
    expect(articlePages('<!--nextpage--><p>a</p><!--nextpage-->')).toEqual(['<p>a</p>']);
    expect(articlePages('')).toEqual(['']);
  });
  it('addresses page 1 as the article and later pages as /{id}/{page}', () => {
    expect(articlePagePath(1024, 1)).toBe('/1024.html');
    expect(articlePagePath(1024, 3)).toBe('/1024/3');
  });
});

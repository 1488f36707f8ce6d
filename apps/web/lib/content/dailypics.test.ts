import { describe, expect, it } from 'vitest';
import {
  contentPath,
  dailypicIndexHref,
  dailypicListOf,
  dailypicOf,
  dailypicQueryOf,
  dailypicTabOf,
  downloadNameOf,
  ratingOf,
  tagCounts,
  totalPagesOf,
} from './dailypics';

const ITEM = {
  ID: 3001,
  post_title: '独栋住宅一层平面图&amp;车库',
  excerpt: '一套完整的独栋住宅一层平面。',
  imgUrl: 'https://www.example.cn/content/images/dailypics/3001-house-floor-plan.webp',
  views: 12,
  downloads: '3',
  post_date: '2026-10-23 09:00:00',
  post_modified: '2026-10-24 09:00:00',
  meta: { size: '1.07 MB', filetype: 'DXF R2004', rating: '5', file: '/content/files/dailypics/skydxf_floorplan.dxf' },
  tags: [
    { id: 7, name: '建筑', slug: 't-1' },
    { id: 0, name: 'bad' },
    { id: 8, name: '平面图', slug: 't-2' },
  ],
};

describe('dailypicListOf', () => {
  it('reads the custom list answer as the pages show it: plain text, site paths, counters and meta', () => {
    const list = dailypicListOf({ total: 30, data: [ITEM, { ID: 'x' }, null] });
    expect(list).toEqual({
      total: 30,
      items: [
        {
          id: 3001,
          title: '独栋住宅一层平面图&车库',
          excerpt: '一套完整的独栋住宅一层平面。',
          image: '/content/images/dailypics/3001-house-floor-plan.webp',
          views: 12,
          downloads: 3,
          date: '2026-10-23',
          size: '1.07 MB',
          filetype: 'DXF R2004',
          rating: 5,
          file: '/content/files/dailypics/skydxf_floorplan.dxf',
          tags: [
            { id: 7, name: '建筑' },
            { id: 8, name: '平面图' },
          ],
        },
      ],
    });
    expect(dailypicListOf({ code: 'rest_invalid_param' })).toBeNull();
    expect(dailypicListOf([ITEM])).toBeNull();
  });

  it('defaults what is missing or malformed instead of trusting it', () => {
    const [item] = dailypicListOf({ total: 'many', data: [{ ID: 5, post_title: 'x', views: -4, meta: { rating: 'abc', file: 'javascript:alert(1)' } }] })?.items ?? [];
    expect(item).toMatchObject({ id: 5, views: 0, downloads: 0, rating: 0, file: '', image: '', date: '', tags: [] });
  });
});

describe('dailypicOf', () => {
  it('adds the description and the neighbours', () => {
    const picture = dailypicOf({
      ...ITEM,
      post_content: '<p>图纸内容</p>',
      previous: null,
      next: { ID: 3002, post_title: '样条曲线', imgUrl: '/content/images/dailypics/3002.webp' },
    });
    expect(picture).toMatchObject({ id: 3001, html: '<p>图纸内容</p>', modified: '2026-10-24', previous: null });
    expect(picture?.next).toEqual({ id: 3002, title: '样条曲线', image: '/content/images/dailypics/3002.webp' });
    expect(dailypicOf({ code: 'rest_post_invalid_id' })).toBeNull();
  });
});

describe('small rules', () => {
  it('keeps only same-site /content/ paths for images and files', () => {
    expect(contentPath('https://cdn.example.cn/content/files/a.dxf')).toBe('/content/files/a.dxf');
    expect(contentPath('/content/images/a.webp?x=1')).toBe('/content/images/a.webp');
    expect(contentPath('https://evil.example/steal')).toBe('');
    expect(contentPath(42)).toBe('');
  });

  it('rates in whole stars from 0 to 5', () => {
    expect([ratingOf('4'), ratingOf(4.6), ratingOf('9'), ratingOf(-1), ratingOf(undefined)]).toEqual([4, 5, 5, 0, 0]);
  });

  it('counts the tags of a set of pictures, most used first', () => {
    const items = dailypicListOf({ total: 2, data: [ITEM, { ...ITEM, ID: 3002, tags: [{ id: 8, name: '平面图' }] }] })?.items ?? [];
    expect(tagCounts(items)).toEqual([
      { id: 8, name: '平面图', count: 2 },
      { id: 7, name: '建筑', count: 1 },
    ]);
  });

  it('builds one URL per list: tab, search and page', () => {
    expect(dailypicIndexHref({})).toBe('/dailypic.html');
    expect(dailypicIndexHref({ tab: 'hot', page: 2 })).toBe('/dailypic.html?tab=hot&page=2');
    expect(dailypicIndexHref({ tab: 'hot', query: '填充', page: 1 })).toBe(`/dailypic.html?q=${encodeURIComponent('填充')}`);
    expect(dailypicTabOf('hot')).toBe('hot');
    expect(dailypicTabOf(['hot', 'new'])).toBe('new');
    expect(dailypicQueryOf('  平面   图  ')).toBe('平面 图');
    expect([...dailypicQueryOf('图'.repeat(40))]).toHaveLength(30);
    expect([totalPagesOf(0), totalPagesOf(12), totalPagesOf(13)]).toEqual([1, 1, 2]);
  });

  it('saves a download under the file name', () => {
    expect(downloadNameOf('/content/files/dailypics/skydxf_floorplan.dxf')).toBe('skydxf_floorplan.dxf');
    expect(downloadNameOf('/content/files/%E5%9B%BE.dxf')).toBe('图.dxf');
  });
});

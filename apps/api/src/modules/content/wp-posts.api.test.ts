import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';
import { addPost, addTerm } from './content.testing';

// decision 0011: /wp-json/wp/v2/posts as WordPress 6 answers it (FACTS.md "WordPress REST API").

let t: TestApp;
const ids = { help: 0, installation: 0, drawing: 0, tagInstall: 0, tagWindows: 0, tagLayout: 0 };
const ORIGIN = 'https://www.example.cn';

/** Twelve published guides: 1001..1012, one a day from 2026-03-01, alternating between two categories. */
const GUIDE_COUNT = 12;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_ORIGIN: ORIGIN });
  const db = t.database.db;
  ids.help = await addTerm(db, { taxonomy: 'category', slug: 'help', name: '软件帮助' });
  ids.installation = await addTerm(db, { taxonomy: 'category', slug: 'installation', name: '下载安装', parentId: ids.help });
  ids.drawing = await addTerm(db, { taxonomy: 'category', slug: 'drawing', name: '绘图编辑', parentId: ids.help });
  ids.tagInstall = await addTerm(db, { taxonomy: 'post_tag', slug: 'install', name: '安装' });
  ids.tagWindows = await addTerm(db, { taxonomy: 'post_tag', slug: 'windows', name: 'Windows' });
  ids.tagLayout = await addTerm(db, { taxonomy: 'post_tag', slug: 'layout', name: '布局' });
  for (let index = 1; index <= GUIDE_COUNT; index++) {
    const isInstallation = index % 2 === 1;
    await addPost(db, {
      id: 1000 + index,
      title: isInstallation ? `安装指南 第${index}篇` : `绘图技巧 第${index}篇`,
      slug: `guide-${index}`,
      excerpt: `第${index}篇的摘要`,
      content: `<p>正文 ${index}</p>`,
      date: `2026-03-${String(index).padStart(2, '0')}T09:30:00`,
      termIds: isInstallation ? [ids.installation, ids.tagInstall] : [ids.drawing, ids.tagWindows],
    });
  }
  await addPost(db, { id: 1100, title: '草稿', status: 'draft', date: '2026-04-01T00:00:00', termIds: [ids.drawing, ids.tagLayout] });
  await addPost(db, { id: 1200, type: 'page', slug: 'privacy', title: '隐私政策', date: '2026-01-01T00:00:00' });
  await addPost(db, { id: 1300, type: 'dailypic', title: '每日一图', date: '2026-01-02T00:00:00' });
});

afterAll(async () => {
  await t.close();
});

function get(url: string, host = 'api.test'): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { host } });
}

type Post = Record<string, unknown> & { id: number };

describe('GET /wp-json/wp/v2/posts: paging and headers', () => {
  it('answers ten posts by default, newest first, with the totals and links in headers', async () => {
    const response = await get('/wp-json/wp/v2/posts');
    expect(response.statusCode).toBe(200);
    const posts = response.json<Post[]>();
    expect(posts.map((post) => post.id)).toEqual([1012, 1011, 1010, 1009, 1008, 1007, 1006, 1005, 1004, 1003]);
    expect(response.headers['x-wp-total']).toBe(String(GUIDE_COUNT));
    expect(response.headers['x-wp-totalpages']).toBe('2');
    expect(response.headers['link']).toBe('<http://api.test/wp-json/wp/v2/posts?page=2>; rel="next"');
    expect(response.headers['access-control-expose-headers']).toBe('X-WP-Total, X-WP-TotalPages, Link');
  });

  it('links prev and next keeping the other parameters, on the host the client used', async () => {
    const response = await get('/wp-json/wp/v2/posts?per_page=5&page=2&order=asc', 'cms.example.org');
    expect(response.json<Post[]>().map((post) => post.id)).toEqual([1006, 1007, 1008, 1009, 1010]);
    expect(response.headers['x-wp-totalpages']).toBe('3');
    expect(response.headers['link']).toBe(
      '<http://cms.example.org/wp-json/wp/v2/posts?per_page=5&page=1&order=asc>; rel="prev", ' +
        '<http://cms.example.org/wp-json/wp/v2/posts?per_page=5&page=3&order=asc>; rel="next"',
    );
    const last = await get('/wp-json/wp/v2/posts?per_page=5&page=3');
    expect(last.json<Post[]>().map((post) => post.id)).toEqual([1002, 1001]);
    expect(last.headers['link']).toBe('<http://api.test/wp-json/wp/v2/posts?per_page=5&page=2>; rel="prev"');
  });

  it('takes offset instead of page', async () => {
    const response = await get('/wp-json/wp/v2/posts?per_page=2&offset=3');
    expect(response.json<Post[]>().map((post) => post.id)).toEqual([1009, 1008]);
    expect(response.headers['x-wp-total']).toBe(String(GUIDE_COUNT));
  });

  it('refuses a page past the end with rest_post_invalid_page_number', async () => {
    const response = await get('/wp-json/wp/v2/posts?per_page=5&page=4');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'rest_post_invalid_page_number',
      message: 'The page number requested is larger than the number of pages available.',
      data: { status: 400 },
    });
  });

  it('answers an empty list, not an error, when nothing matches', async () => {
    const response = await get('/wp-json/wp/v2/posts?search=nothing-like-this');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
    expect(response.headers['x-wp-total']).toBe('0');
    expect(response.headers['x-wp-totalpages']).toBe('0');
  });

  it('lists published posts only: no draft, page or daily picture', async () => {
    const response = await get('/wp-json/wp/v2/posts?per_page=100');
    const listed = response.json<Post[]>().map((post) => post.id);
    expect(listed).toHaveLength(GUIDE_COUNT);
    expect(listed).not.toContain(1100);
    expect(listed).not.toContain(1200);
    expect(listed).not.toContain(1300);
  });
});

describe('GET /wp-json/wp/v2/posts: bad parameters', () => {
  it.each([
    ['per_page=101', 'per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
    ['per_page=0', 'per_page', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
    ['per_page=ten', 'per_page', 'per_page is not of type integer.'],
    ['page=0', 'page', 'page must be greater than or equal to 1'],
    ['page=1.5', 'page', 'page is not of type integer.'],
    ['order=sideways', 'order', 'order is not one of asc and desc.'],
    ['orderby=bogus', 'orderby', 'orderby is not one of date, id, include, title, slug, and modified.'],
    ['categories=1,x', 'categories', 'categories[1] is not of type integer.'],
    ['status=draft', 'status', 'Status is forbidden.'],
  ])('%s answers 400 rest_invalid_param naming %s', async (query, param, message) => {
    const response = await get(`/wp-json/wp/v2/posts?${query}`);
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; message: string; data: { status: number; params: Record<string, string> } }>();
    expect(body.code).toBe('rest_invalid_param');
    expect(body.message).toBe(`Invalid parameter(s): ${param}`);
    expect(body.data.status).toBe(400);
    expect(body.data.params).toEqual({ [param]: message });
  });

  it('names every bad parameter at once', async () => {
    const body = (await get('/wp-json/wp/v2/posts?per_page=101&page=0&order=up')).json<{ message: string; data: { params: object } }>();
    expect(body.message).toBe('Invalid parameter(s): page, per_page, order');
    expect(Object.keys(body.data.params)).toEqual(['page', 'per_page', 'order']);
  });

  it('asks for include when ordering by include', async () => {
    const response = await get('/wp-json/wp/v2/posts?orderby=include');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ code: string }>().code).toBe('rest_orderby_include_missing_include');
  });

  it('never answers 500 to hostile parameters', async () => {
    const hostile = [
      'per_page[]=5&per_page[]=6',
      'page[]=1',
      'page=99999999999999999999999',
      'offset=99999999999999999999',
      'per_page=1e400',
      'include=99999999999999999999999,1',
      'categories=-1&tags=0',
      'search[]=a&search[]=b',
      `search=${encodeURIComponent('%_\\\'"; DROP TABLE content_post; --')}`,
      `search=${encodeURIComponent('图纸\u0000打不开😀')}`,
      `search=${'x'.repeat(5000)}`,
      `slug=${encodeURIComponent('\u0000')}`,
      '_fields[]=id&_embed[]=1',
      '_fields=title.rendered.x.y,..,',
      'orderby[]=date',
      'order=%E4%B8%AD',
    ];
    for (const query of hostile) {
      const response = await get(`/wp-json/wp/v2/posts?${query}`);
      expect(response.statusCode, query).toBeLessThan(500);
      expect(response.headers['content-type'], query).toMatch(/^application\/json/);
    }
    const huge = await get('/wp-json/wp/v2/posts?page=99999999999999999999999');
    expect(huge.json<{ code: string }>().code).toBe('rest_post_invalid_page_number');
    for (const path of ['/wp-json/wp/v2/posts/99999999999999999999999', '/wp-json/wp/v2/posts/9223372036854775808']) {
      expect((await get(path)).statusCode).toBe(404);
    }
  });
});

describe('GET /wp-json/wp/v2/posts/{id}', () => {
  it('answers the post in the WordPress shape with the extra fields of spec §3', async () => {
    const response = await get('/wp-json/wp/v2/posts/1003');
    expect(response.statusCode).toBe(200);
    const post = response.json<Post>();
    expect(post).toMatchObject({
      id: 1003,
      date: '2026-03-03T09:30:00',
      date_gmt: '2026-03-03T01:30:00',
      modified: '2026-03-03T09:30:00',
      modified_gmt: '2026-03-03T01:30:00',
      slug: 'guide-3',
      status: 'publish',
      type: 'post',
      link: `${ORIGIN}/1003.html`,
      title: { rendered: '安装指南 第3篇' },
      content: { rendered: '<p>正文 3</p>', protected: false },
      excerpt: { rendered: '<p>第3篇的摘要</p>\n', protected: false },
      author: 1,
      featured_media: 0,
      categories: [ids.installation],
      tags: [ids.tagInstall],
      meta: {},
      tags_d: [{ id: ids.tagInstall, name: '安装', slug: 'install' }],
      yoast_head_json: { title: '安装指南 第3篇', description: '第3篇的摘要', canonical: `${ORIGIN}/1003.html`, keywords: '安装' },
    });
  });

  it('gives previous and next within the same primary category, by date', async () => {
    const middle = (await get('/wp-json/wp/v2/posts/1005')).json<Post>();
    expect(middle['previous']).toEqual({ id: 1003, title: '安装指南 第3篇', slug: 'guide-3' });
    expect(middle['next']).toEqual({ id: 1007, title: '安装指南 第7篇', slug: 'guide-7' });
    const first = (await get('/wp-json/wp/v2/posts/1002')).json<Post>();
    expect(first['previous']).toBeNull();
    expect(first['next']).toMatchObject({ id: 1004 });
    // The draft 1100 in the same category is never a neighbour.
    const last = (await get('/wp-json/wp/v2/posts/1012')).json<Post>();
    expect(last['next']).toBeNull();
  });

  it.each([
    ['an unknown id', '/wp-json/wp/v2/posts/999999'],
    ['a draft', '/wp-json/wp/v2/posts/1100'],
    ['a page', '/wp-json/wp/v2/posts/1200'],
    ['a daily picture', '/wp-json/wp/v2/posts/1300'],
  ])('answers 404 rest_post_invalid_id for %s', async (_what, path) => {
    const response = await get(path);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
  });

  it('answers rest_no_route for an id that is not a number', async () => {
    const response = await get('/wp-json/wp/v2/posts/abc');
    expect(response.statusCode).toBe(404);
    expect(response.json<{ code: string }>().code).toBe('rest_no_route');
  });
});

describe('_fields and _embed', () => {
  it('keeps only the fields asked for, nested ones included', async () => {
    const response = await get('/wp-json/wp/v2/posts?per_page=2&_fields=id,title.rendered,excerpt');
    expect(response.json()).toEqual([
      { id: 1012, title: { rendered: '绘图技巧 第12篇' }, excerpt: { rendered: '<p>第12篇的摘要</p>\n', protected: false } },
      { id: 1011, title: { rendered: '安装指南 第11篇' }, excerpt: { rendered: '<p>第11篇的摘要</p>\n', protected: false } },
    ]);
    const one = await get('/wp-json/wp/v2/posts/1001?_fields=id,previous,next');
    expect(one.json()).toEqual({ id: 1001, previous: null, next: { id: 1003, title: '安装指南 第3篇', slug: 'guide-3' } });
  });

  it('embeds the author and the terms', async () => {
    const [post] = (await get('/wp-json/wp/v2/posts?per_page=1&_embed')).json<Post[]>();
    expect(post?.['_embedded']).toEqual({
      author: [expect.objectContaining({ name: '迅捷CAD' })],
      'wp:term': [
        [expect.objectContaining({ id: ids.drawing, name: '绘图编辑', slug: 'drawing', taxonomy: 'category' })],
        [expect.objectContaining({ id: ids.tagWindows, name: 'Windows', slug: 'windows', taxonomy: 'post_tag' })],
      ],
    });
    const plain = (await get('/wp-json/wp/v2/posts?per_page=1')).json<Post[]>();
    expect(plain[0]).not.toHaveProperty('_embedded');
  });
});

describe('filters and ordering', () => {
  it('finds posts of a tag looked up by slug (a tag page)', async () => {
    const [tag] = (await get('/wp-json/wp/v2/tags?slug=windows')).json<Array<{ id: number; count: number }>>();
    expect(tag).toMatchObject({ id: ids.tagWindows, count: 6 });
    const response = await get(`/wp-json/wp/v2/posts?tags=${tag?.id ?? 0}&per_page=3`);
    expect(response.json<Post[]>().map((post) => post.id)).toEqual([1012, 1010, 1008]);
    expect(response.headers['x-wp-total']).toBe('6');
  });

  it('filters categories by exact id, as WordPress does (children are not included)', async () => {
    expect((await get(`/wp-json/wp/v2/posts?categories=${ids.help}`)).json()).toEqual([]);
    const both = await get(`/wp-json/wp/v2/posts?categories=${ids.installation},${ids.drawing}&per_page=1`);
    expect(both.headers['x-wp-total']).toBe(String(GUIDE_COUNT));
    // A tag id given as a category matches nothing.
    expect((await get(`/wp-json/wp/v2/posts?categories=${ids.tagInstall}`)).json()).toEqual([]);
  });

  it('searches titles and content, ignoring case, and takes % literally', async () => {
    const byTitle = await get(`/wp-json/wp/v2/posts?search=${encodeURIComponent('第11篇')}`);
    expect(byTitle.json<Post[]>().map((post) => post.id)).toEqual([1011]);
    const byContent = await get(`/wp-json/wp/v2/posts?search=${encodeURIComponent('正文 12')}`);
    expect(byContent.json<Post[]>().map((post) => post.id)).toEqual([1012]);
    expect((await get('/wp-json/wp/v2/posts?search=%25')).json()).toEqual([]);
  });

  it('looks posts up by slug, always as a list', async () => {
    expect((await get('/wp-json/wp/v2/posts?slug=guide-4')).json<Post[]>().map((post) => post.id)).toEqual([1004]);
    expect((await get('/wp-json/wp/v2/posts?slug=guide-4,guide-5&orderby=id&order=asc')).json<Post[]>().map((post) => post.id)).toEqual([1004, 1005]);
    expect((await get('/wp-json/wp/v2/posts?slug=no-such-post')).json()).toEqual([]);
  });

  it('orders by title, by id and by the include list', async () => {
    const byTitle = (await get('/wp-json/wp/v2/posts?orderby=title&order=asc&per_page=3')).json<Post[]>();
    expect(byTitle.map((post) => (post['title'] as { rendered: string }).rendered)).toEqual(['安装指南 第11篇', '安装指南 第1篇', '安装指南 第3篇']);
    const byId = (await get('/wp-json/wp/v2/posts?orderby=id&order=asc&per_page=2')).json<Post[]>();
    expect(byId.map((post) => post.id)).toEqual([1001, 1002]);
    const byInclude = (await get('/wp-json/wp/v2/posts?include=1007,1002,1009&orderby=include&order=asc')).json<Post[]>();
    expect(byInclude.map((post) => post.id)).toEqual([1007, 1002, 1009]);
    const excluded = (await get('/wp-json/wp/v2/posts?exclude=1012,1011&per_page=1')).json<Post[]>();
    expect(excluded.map((post) => post.id)).toEqual([1010]);
  });
});

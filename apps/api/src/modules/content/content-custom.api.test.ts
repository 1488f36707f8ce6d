import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';
import { addPost, addTerm } from './content.testing';

// spec §7 "Blog backend": the site's custom routes beside the WordPress ones (decision 0011).

let t: TestApp;
const ids = { help: 0, installation: 0, drawing: 0, tagInstall: 0, tagUnused: 0, tagHouse: 0, tagPlan: 0 };
const ORIGIN = 'https://www.example.cn';
const PIC_META = { size: '1.2MB', filetype: 'DWG', rating: '4', file: '/content/drawings/villa.dwg' };

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_ORIGIN: ORIGIN });
  const db = t.database.db;
  ids.help = await addTerm(db, { taxonomy: 'category', slug: 'help', name: '软件帮助' });
  ids.installation = await addTerm(db, { taxonomy: 'category', slug: 'installation', name: '下载安装', parentId: ids.help });
  ids.drawing = await addTerm(db, { taxonomy: 'category', slug: 'drawing', name: '绘图编辑', parentId: ids.help });
  ids.tagInstall = await addTerm(db, { taxonomy: 'post_tag', slug: 'install', name: '安装', description: '安装迅捷CAD编辑器的常见问题' });
  ids.tagUnused = await addTerm(db, { taxonomy: 'post_tag', slug: 'unused', name: '未用' });
  ids.tagHouse = await addTerm(db, { taxonomy: 'post_tag', slug: 'house', name: '别墅' });
  ids.tagPlan = await addTerm(db, { taxonomy: 'post_tag', slug: 'plan', name: '平面图' });
  await addPost(db, {
    id: 101,
    title: '迅捷CAD编辑器的下载与安装',
    excerpt: '从官网下载安装包并完成安装的步骤。',
    date: '2026-03-01T10:00:00',
    modified: '2026-05-18T16:20:05',
    image: '/content/images/install-1.svg',
    content: '<p>第一步</p><img src="/content/images/install-step.png" alt="安装界面"><img src="/content/images/second.png">',
    termIds: [ids.installation, ids.tagInstall],
    meta: { seo_keywords: 'CAD下载,CAD安装' },
  });
  await addPost(db, { id: 102, title: '用LINE命令画直线', date: '2026-03-02T10:00:00', termIds: [ids.drawing] });
  await addPost(db, { id: 103, title: '激活码无效怎么办', date: '2026-03-03T10:00:00', termIds: [ids.installation] });
  await addPost(db, { id: 104, title: '草稿', status: 'draft', date: '2026-03-04T10:00:00', termIds: [ids.installation, ids.tagUnused] });
  const pictures: Array<[number, string, number, string, number[]]> = [
    [201, '别墅一层平面图', 50, '2026-04-01T08:00:00', [ids.tagHouse, ids.tagPlan]],
    [202, '办公楼立面图', 500, '2026-04-02T08:00:00', []],
    [203, '别墅屋顶详图', 5, '2026-04-03T08:00:00', [ids.tagHouse]],
    [204, '小区总平面图', 120, '2026-04-04T08:00:00', [ids.tagPlan]],
  ];
  for (const [id, title, views, date, termIds] of pictures) {
    await addPost(db, {
      id,
      type: 'dailypic',
      title,
      views,
      downloads: 3,
      date,
      // The oldest picture was edited last: "new" orders by modification.
      modified: id === 201 ? '2026-06-01T08:00:00' : date,
      image: `/content/images/pic-${id}.png`,
      termIds,
      meta: PIC_META,
    });
  }
});

afterAll(async () => {
  await t.close();
});

function get(url: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url });
}

type Item = Record<string, unknown> & { ID: number };
type List = { total: number; data: Item[] };

describe('newPosts', () => {
  it('answers {total, data} of the newest guides in the shape the web footer reads', async () => {
    const response = await get('/wp-json/wp/v2/newPosts/?paged=1&per_page=2');
    expect(response.statusCode).toBe(200);
    const body = response.json<List>();
    expect(body.total).toBe(3);
    expect(body.data.map((item) => item.ID)).toEqual([103, 102]);
    const oldest = (await get('/wp-json/wp/v2/newPosts?paged=2&per_page=2')).json<List>().data[0];
    expect(oldest).toEqual({
      ID: 101,
      post_title: '迅捷CAD编辑器的下载与安装',
      excerpt: '从官网下载安装包并完成安装的步骤。',
      post_date: '2026-03-01 10:00:00',
      post_modified: '2026-05-18 16:20:05',
      imgUrl: `${ORIGIN}/content/images/install-1.svg`,
      cate_id: ids.installation,
      categories: [{ term_id: ids.installation, name: '下载安装', slug: 'installation' }],
    });
    // apps/web/lib/content/latest-guides.ts reads data[].ID, post_title, excerpt and post_modified.
    expect(body.data[0]).toMatchObject({ ID: 103, post_title: '激活码无效怎么办', excerpt: '', post_modified: '2026-03-03 10:00:00' });
  });

  it('filters by category (with its subcategories) and by title', async () => {
    const installation = (await get(`/wp-json/wp/v2/newPosts/?cate_id=${ids.installation}`)).json<List>();
    expect(installation.data.map((item) => item.ID)).toEqual([103, 101]);
    const help = (await get(`/wp-json/wp/v2/newPosts/?cate_id=${ids.help}`)).json<List>();
    expect(help.total).toBe(3);
    const byTitle = (await get(`/wp-json/wp/v2/newPosts/?post_title=${encodeURIComponent('line')}`)).json<List>();
    expect(byTitle.data.map((item) => item.ID)).toEqual([102]);
    expect((await get('/wp-json/wp/v2/newPosts/?cate_id=999')).json()).toEqual({ total: 0, data: [] });
  });

  it('refuses bad paging as WordPress does and never answers 500', async () => {
    const response = await get('/wp-json/wp/v2/newPosts/?per_page=101');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ code: string; data: { params: object } }>()).toMatchObject({ code: 'rest_invalid_param', data: { params: { per_page: expect.any(String) } } });
    for (const query of ['paged[]=1', 'paged=99999999999999999999', 'cate_id=abc', `post_title=${encodeURIComponent('%\u0000😀')}`]) {
      expect((await get(`/wp-json/wp/v2/newPosts/?${query}`)).statusCode, query).toBeLessThan(500);
    }
    expect((await get('/wp-json/wp/v2/newPosts/?paged=99999999999999999999')).json()).toEqual({ total: 3, data: [] });
  });
});

describe('tags', () => {
  it('getAllTags lists tags in use only, most used first', async () => {
    const tags = (await get('/wp-json/wp/v2/getAllTags')).json<Array<{ slug: string; count: number }>>();
    expect(tags.map((tag) => [tag.slug, tag.count])).toEqual([['plan', 2], ['house', 2], ['install', 1]]);
    expect(tags.map((tag) => tag.slug)).not.toContain('unused');
  });

  it('getTheTagsList lists the tags of one post', async () => {
    expect((await get('/wp-json/wp/v2/getTheTagsList?id=201')).json()).toEqual([
      { id: ids.tagHouse, name: '别墅', slug: 'house', count: 2 },
      { id: ids.tagPlan, name: '平面图', slug: 'plan', count: 2 },
    ]);
    expect((await get('/wp-json/wp/v2/getTheTagsList?id=102')).json()).toEqual([]);
    const unknown = await get('/wp-json/wp/v2/getTheTagsList?id=104');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ code: string }>().code).toBe('rest_post_invalid_id');
  });

  it('get_tags_tdk gives the head data of a tag page', async () => {
    expect((await get(`/wp-json/wp/v2/get_tags_tdk?id=${ids.tagInstall}`)).json()).toEqual({
      id: ids.tagInstall,
      title: '安装',
      description: '安装迅捷CAD编辑器的常见问题',
      keywords: '安装',
    });
    expect((await get('/wp-json/wp/v2/get_tags_tdk?id=424242')).json<{ code: string }>().code).toBe('rest_term_invalid');
  });

  it('answers a missing id with rest_missing_callback_param', async () => {
    const response = await get('/wp-json/wp/v2/getTheTagsList');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): id', data: { status: 400, params: ['id'] } });
  });
});

describe('daily pictures', () => {
  it('get_dailypics pages the newest, nine by default, with counters and meta', async () => {
    const body = (await get('/wp-json/wp/v2/get_dailypics?paged=1')).json<List>();
    expect(body.total).toBe(4);
    expect(body.data.map((item) => item.ID)).toEqual([204, 203, 202, 201]);
    expect(body.data[3]).toMatchObject({
      ID: 201,
      post_title: '别墅一层平面图',
      imgUrl: `${ORIGIN}/content/images/pic-201.png`,
      views: 50,
      downloads: 3,
      post_modified: '2026-06-01 08:00:00',
      meta: PIC_META,
      tags: [{ id: ids.tagHouse, name: '别墅', slug: 'house' }, { id: ids.tagPlan, name: '平面图', slug: 'plan' }],
    });
    const second = (await get(`/wp-json/wp/v2/get_dailypics?paged=2&per_page=3&post_title=${encodeURIComponent('图')}`)).json<List>();
    expect(second.data.map((item) => item.ID)).toEqual([201]);
    const searched = (await get(`/wp-json/wp/v2/get_dailypics?post_title=${encodeURIComponent('别墅')}`)).json<List>();
    expect(searched.data.map((item) => item.ID)).toEqual([203, 201]);
  });

  it('get_dailypics_hot orders by views and get_dailypics_new by modification', async () => {
    const hot = (await get('/wp-json/wp/v2/get_dailypics_hot?paged=1&per_page=3')).json<List>();
    expect(hot.total).toBe(4);
    expect(hot.data.map((item) => item.ID)).toEqual([202, 204, 201]);
    const fresh = (await get('/wp-json/wp/v2/get_dailypics_new?paged=1&per_page=2')).json<List>();
    expect(fresh.data.map((item) => item.ID)).toEqual([201, 204]);
  });

  it('getDailypicTags lists the pictures of a tag', async () => {
    const body = (await get(`/wp-json/wp/v2/getDailypicTags?tag_id=${ids.tagHouse}&paged=1&per_page=9`)).json<List>();
    expect(body).toMatchObject({ total: 2 });
    expect(body.data.map((item) => item.ID)).toEqual([203, 201]);
  });

  it('get_dailypicsId answers one picture with its sanitised content and neighbours', async () => {
    const picture = (await get('/wp-json/wp/v2/get_dailypicsId?id=202')).json<Item>();
    expect(picture).toMatchObject({ ID: 202, post_title: '办公楼立面图', meta: PIC_META, post_content: '<p>办公楼立面图</p>' });
    expect(picture['previous']).toEqual({ ID: 201, post_title: '别墅一层平面图', imgUrl: `${ORIGIN}/content/images/pic-201.png` });
    expect(picture['next']).toMatchObject({ ID: 203 });
    expect((await get('/wp-json/wp/v2/get_dailypicsId?id=204')).json<Item>()['next']).toBeNull();
    // A guide is not a daily picture.
    expect((await get('/wp-json/wp/v2/get_dailypicsId?id=101')).statusCode).toBe(404);
  });
});

describe('counters', () => {
  it('counts every one of many concurrent views, by GET or POST', async () => {
    const before = (await get('/wp-json/wp/v2/get_dailypicsId?id=203')).json<{ views: number }>().views;
    const visits = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0
        ? get('/wp-json/wp/v2/update_post_views?id=203')
        : t.app.inject({ method: 'POST', url: '/wp-json/wp/v2/update_post_views', payload: { id: 203 } }),
    );
    const answers = (await Promise.all(visits)).map((response) => response.json<{ code: number; views: number }>());
    expect(answers.every((answer) => answer.code === 10000)).toBe(true);
    expect(new Set(answers.map((answer) => answer.views)).size).toBe(20);
    expect((await get('/wp-json/wp/v2/get_dailypicsId?id=203')).json<{ views: number }>().views).toBe(before + 20);
  });

  it('counts downloads, from a form body too', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/update_post_download',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=204',
    });
    expect(response.json()).toEqual({ code: 10000, downloads: 4 });
    expect((await get('/wp-json/wp/v2/update_post_download?id=204')).json()).toEqual({ code: 10000, downloads: 5 });
  });

  it('refuses unknown, draft and malformed ids without counting', async () => {
    for (const query of ['id=999', 'id=104']) {
      const response = await get(`/wp-json/wp/v2/update_post_views?${query}`);
      expect(response.statusCode).toBe(404);
      expect(response.json<{ code: string }>().code).toBe('rest_post_invalid_id');
    }
    expect((await get('/wp-json/wp/v2/update_post_views?id=abc')).statusCode).toBe(400);
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/update_post_views',
      headers: { 'content-type': 'application/json' },
      payload: '{"id":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json<{ code: string }>().code).toBe('rest_invalid_json');
  });
});

describe('post helpers', () => {
  it('get_first_image answers the first image of the content, else the featured image', async () => {
    expect((await get('/wp-json/wp/v2/get_first_image?id=101')).json()).toEqual({ id: 101, url: `${ORIGIN}/content/images/install-step.png` });
    expect((await get('/wp-json/wp/v2/get_first_image?id=201')).json()).toEqual({ id: 201, url: `${ORIGIN}/content/images/pic-201.png` });
    expect((await get('/wp-json/wp/v2/get_first_image?id=102')).json()).toEqual({ id: 102, url: '' });
  });

  it('get_post_meta answers the meta of a post', async () => {
    expect((await get('/wp-json/wp/v2/get_post_meta?id=201')).json()).toEqual(PIC_META);
    expect((await get('/wp-json/wp/v2/get_post_meta?id=101')).json()).toEqual({ seo_keywords: 'CAD下载,CAD安装' });
    expect((await get('/wp-json/wp/v2/get_post_meta?id=104')).statusCode).toBe(404);
  });

  it('uses the SEO meta of a post in yoast_head_json', async () => {
    const post = (await get('/wp-json/wp/v2/posts/101?_fields=yoast_head_json')).json();
    expect(post).toEqual({
      yoast_head_json: {
        title: '迅捷CAD编辑器的下载与安装',
        description: '从官网下载安装包并完成安装的步骤。',
        canonical: `${ORIGIN}/101.html`,
        keywords: 'CAD下载,CAD安装',
      },
    });
  });

  it('answers hostile parameters on every content route without a server error', async () => {
    const routes = [
      'posts', 'posts/101', 'pages', 'categories', 'categories/1', 'tags', 'tags/1', 'newPosts', 'getTheTagsList', 'getAllTags',
      'get_dailypics', 'get_dailypicsId', 'get_dailypics_hot', 'get_dailypics_new', 'getDailypicTags', 'update_post_views',
      'update_post_download', 'get_first_image', 'get_tags_tdk', 'get_post_meta',
    ];
    const names = ['id', 'page', 'paged', 'per_page', 'offset', 'cate_id', 'tag_id', 'post_title', 'search', 'slug', 'include', 'exclude', 'tags', 'categories', 'post', 'parent', 'hide_empty', 'orderby', 'order', '_fields', '_embed'];
    const values = ['%00', '-1', '99999999999999999999999', '1e999', '%F0%9F%98%80%E5%9B%BE', "'%3B--", '%25_%5C', 'a,b,,'];
    for (const route of routes) {
      for (const value of values) {
        const query = names.map((name) => `${name}=${value}`).join('&');
        for (const url of [`/wp-json/wp/v2/${route}?${query}`, `/wp-json/wp/v2/${route}?${names.map((name) => `${name}[]=${value}&${name}[]=1`).join('&')}`]) {
          const response = await get(url);
          expect(response.statusCode, url).toBeLessThan(500);
          expect(response.json<unknown>(), url).toBeDefined();
        }
      }
    }
  });

  it('answers rest_no_route for a route that does not exist', async () => {
    const response = await get('/wp-json/wp/v2/get_everything');
    expect(response.statusCode).toBe(404);
    expect(response.json<{ code: string }>().code).toBe('rest_no_route');
  });
});

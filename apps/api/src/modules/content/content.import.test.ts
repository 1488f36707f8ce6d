import { describe, expect, it } from 'vitest';
import {
  parseContentFile,
  parseTaxonomy,
  renderMarkdown,
  tagSlug,
  type ContentDocument,
} from './content.import';
import { ImportError, type ImportProblem } from '../../lib/import-error';
import { shanghaiDateToEpoch } from '../../lib/source-dates';

const CATEGORIES = new Set(['help', 'installation', 'basics']);
const EXCERPT = '从官网下载迅捷CAD编辑器安装包，按步骤完成安装、选择安装目录并首次启动，附安装后的基本检查方法。';

function file(frontMatter: string, body = '## 下载\n\n打开官网。\n', sourcePath = 'content/help/1001-install.md'): { sourcePath: string; type: 'post'; bytes: Uint8Array } {
  return { sourcePath, type: 'post', bytes: new TextEncoder().encode(`---\n${frontMatter}\n---\n${body}`) };
}

const GOOD = [
  'id: 1001',
  'title: 迅捷CAD编辑器的下载与安装',
  'slug: install-cad-editor',
  'date: 2026-03-02',
  'categories: [installation]',
  'tags: [安装, Windows, 2024]',
  `excerpt: ${EXCERPT}`,
].join('\n');

function parsed(input: ReturnType<typeof file>): ContentDocument {
  const result = parseContentFile(input, CATEGORIES);
  if (Array.isArray(result)) throw new Error(`unexpected problems: ${JSON.stringify(result)}`);
  return result;
}

function problems(input: ReturnType<typeof file>): ImportProblem[] {
  const result = parseContentFile(input, CATEGORIES);
  if (!Array.isArray(result)) throw new Error('the file was accepted');
  return result;
}

describe('shanghaiDateToEpoch', () => {
  it('places a calendar date at 09:00 in Shanghai (01:00 UTC)', () => {
    expect(new Date(shanghaiDateToEpoch('2026-03-02') * 1000).toISOString()).toBe('2026-03-02T01:00:00.000Z');
  });

  it('refuses a day that does not exist', () => {
    expect(() => shanghaiDateToEpoch('2026-02-30')).toThrow(/calendar date/);
  });
});

describe('tagSlug', () => {
  it('is stable, ASCII and different for different names', () => {
    expect(tagSlug('安装')).toBe(tagSlug('安装'));
    expect(tagSlug('安装')).toMatch(/^t-[0-9a-f]{10}$/);
    expect(tagSlug('安装')).not.toBe(tagSlug('激活'));
  });
});

describe('renderMarkdown', () => {
  it('renders GFM tables and keeps headings at the level written', () => {
    const html = renderMarkdown('## 快捷键\n\n| 命令 | 别名 |\n|---|:-:|\n| LINE | L |\n');
    expect(html).toContain('<h2>快捷键</h2>');
    expect(html).toContain('<table>');
    expect(html).toContain('<td align="center">L</td>');
  });

  it('keeps images and links', () => {
    const html = renderMarkdown('![界面](/content/images/ui.svg "主界面") 见[帮助](/help.html)');
    expect(html).toContain('<img src="/content/images/ui.svg" alt="界面" title="主界面" />');
    expect(html).toContain('<a href="/help.html">帮助</a>');
  });

  it('shows raw HTML as text instead of passing it through', () => {
    const html = renderMarkdown('正文 <script>alert(1)</script>\n\n<div onclick="x()">块</div>\n\n<img src=x onerror="alert(1)">');
    expect(html).not.toMatch(/<script|<div|<img/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;div onclick=');
  });

  it('drops javascript: links', () => {
    const html = renderMarkdown('[点我](javascript:alert(1))');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('点我');
  });
});

describe('parseContentFile', () => {
  it('reads a well-formed post', () => {
    const document = parsed(file(`${GOOD}\nmodified: 2026-05-18\norder: 3\nimage: /content/images/install-1.svg\nmeta:\n  size: 2.3MB\n  rating: 4`));
    expect(document).toMatchObject({
      id: 1001,
      type: 'post',
      slug: 'install-cad-editor',
      author: '迅捷CAD',
      categories: ['installation'],
      image: '/content/images/install-1.svg',
      menuOrder: 3,
      date: shanghaiDateToEpoch('2026-03-02'),
      modified: shanghaiDateToEpoch('2026-05-18'),
    });
    expect(document.tags.map((tag) => tag.name)).toEqual(['安装', 'Windows', '2024']);
    expect(document.meta).toEqual({ size: '2.3MB', rating: '4' });
    expect(document.contentHtml).toBe('<h2>下载</h2>\n<p>打开官网。</p>\n');
    expect(document.sourceHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stores the seo values written in the front matter as meta', () => {
    const document = parsed(file(`${GOOD}\nseo:\n  title: 下载安装迅捷CAD\n  description: 安装步骤\n  keywords: [CAD下载, CAD安装]`));
    expect(document.meta).toEqual({ seo_title: '下载安装迅捷CAD', seo_description: '安装步骤', seo_keywords: 'CAD下载,CAD安装' });
  });

  it('names the field of each problem', () => {
    const found = problems(file(['id: -3', 'title: 标题', 'slug: Install_CAD', 'date: 2026-13-01', 'categories: [installation]', `excerpt: ${EXCERPT}`, 'colour: red'].join('\n')));
    const fields = found.map((problem) => problem.field);
    expect(fields).toEqual(expect.arrayContaining(['id', 'slug', 'date', 'front matter']));
    expect(found.find((problem) => problem.field === 'front matter')?.message).toContain('colour');
    expect(found.every((problem) => problem.file === 'content/help/1001-install.md')).toBe(true);
  });

  it('requires a post excerpt of 40-120 characters', () => {
    const short = GOOD.replace(EXCERPT, '太短的摘要');
    expect(problems(file(short))).toEqual([{ file: 'content/help/1001-install.md', field: 'excerpt', message: 'must be 40-120 characters, has 5' }]);
    expect(problems(file(GOOD.replace(`excerpt: ${EXCERPT}`, ''))).map((problem) => problem.field)).toEqual(['excerpt']);
  });

  it('does not require an excerpt or a category of a page', () => {
    const page = { ...file('id: 9001\ntitle: 隐私政策\nslug: privacy\ndate: 2026-01-01'), type: 'page' as const };
    expect(parseContentFile(page, CATEGORIES)).toMatchObject({ type: 'page', excerpt: '', categories: [] });
  });

  it('refuses categories that taxonomy.yml does not have, and posts without one', () => {
    expect(problems(file(GOOD.replace('[installation]', '[install]')))[0]).toMatchObject({ field: 'categories', message: expect.stringContaining('"install"') });
    expect(problems(file(GOOD.replace('categories: [installation]', 'categories: []')))[0]).toMatchObject({ field: 'categories' });
  });

  it('refuses a modified date before the publish date', () => {
    expect(problems(file(`${GOOD}\nmodified: 2026-03-01`))[0]).toMatchObject({ field: 'modified' });
  });

  it('refuses a level-1 heading in the body (the page shows the title as #)', () => {
    expect(problems(file(GOOD, '# 标题\n\n正文\n'))[0]).toMatchObject({ field: 'body' });
  });

  it('refuses a file without front matter, and YAML that does not parse', () => {
    const bare = { sourcePath: 'content/help/x.md', type: 'post' as const, bytes: new TextEncoder().encode('## 只有正文\n') };
    expect(problems(bare)[0]).toMatchObject({ field: 'front matter' });
    expect(problems(file(`${GOOD}\ntitle: 重复的键`))[0]).toMatchObject({ field: 'front matter', message: expect.stringContaining('YAML') });
  });

  it('refuses seo keys written under meta', () => {
    expect(problems(file(`${GOOD}\nmeta:\n  seo_title: x`))[0]).toMatchObject({ field: 'meta.seo_title' });
  });
});

describe('parseTaxonomy', () => {
  it('orders parents before their children', () => {
    const categories = parseTaxonomy('categories:\n  - slug: basics\n    name: 零基础\n    parent: tutorials\n  - slug: tutorials\n    name: CAD教程\n');
    expect(categories.map((category) => category.slug)).toEqual(['tutorials', 'basics']);
  });

  it('refuses an unknown parent and a cycle', () => {
    expect(() => parseTaxonomy('categories:\n  - slug: a\n    name: 甲\n    parent: nowhere\n')).toThrow(ImportError);
    expect(() => parseTaxonomy('categories:\n  - slug: a\n    name: 甲\n    parent: b\n  - slug: b\n    name: 乙\n    parent: a\n')).toThrow(/cycle/);
  });
});

describe('renderMarkdown page breaks', () => {
  it('keeps a <!--nextpage--> line as the WordPress page break and renders each page apart', () => {
    const html = renderMarkdown('## 第一部分\n\n**加粗\n\n<!--nextpage-->\n\n## 第二部分\n\n正文 <!--nextpage--> 行内的不算');
    const pages = html.split('<!--nextpage-->');
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('<h2>第一部分</h2>');
    expect(pages[1]).toContain('<h2>第二部分</h2>');
    expect(pages[1]).toContain('&lt;!--nextpage--&gt; 行内的不算');
  });
});

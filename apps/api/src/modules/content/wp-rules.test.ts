import { describe, expect, it } from 'vitest';
import { createHtmlSanitizer } from './content.sanitize';
import { WpError } from './wp-error';
import { WpParams, integerOf, listOfWords } from './wp-params';
import { filterFields, isoShanghai, isoUtc, mysqlShanghai } from './wp-present';

// The pure rules under the content API: WordPress's parameter reading, `_fields`, dates, sanitising.

function problemsOf(read: (params: WpParams) => void, query: Record<string, unknown>): unknown {
  const params = new WpParams(query);
  read(params);
  try {
    params.check();
    return undefined;
  } catch (error) {
    return error instanceof WpError ? error.toBody() : error;
  }
}

describe('WpParams', () => {
  it('reads integers as WordPress does: numeric text yes, fractions and words no', () => {
    expect(['7', ' 7 ', '+7', '7.0', 7].map(integerOf)).toEqual([7, 7, 7, 7, 7]);
    expect(['7.5', 'seven', '', '0x10', '1e3', [7], null, 7.5].map(integerOf)).toEqual(Array(8).fill(undefined));
    expect(integerOf('99999999999999999999999')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('reads comma lists, repeated keys and PHP-style key[] lists the same way', () => {
    expect(new WpParams({ tags: '1, 2,,3' }).integerList('tags')).toEqual([1, 2, 3]);
    expect(new WpParams({ tags: ['1', '2'] }).integerList('tags')).toEqual([1, 2]);
    expect(new WpParams({ 'tags[]': ['4', '5'] }).integerList('tags')).toEqual([4, 5]);
  });

  it('lets the query string win over the body', () => {
    expect(new WpParams({ id: '1' }, { id: '2' }).integer('id')).toBe(1);
    expect(new WpParams(undefined, { id: '2' }).integer('id')).toBe(2);
  });

  it('reports every problem in one rest_invalid_param error', () => {
    const body = problemsOf(
      (params) => {
        params.integer('page', { minimum: 1 });
        params.integer('per_page', { minimum: 1, maximum: 100 });
        params.oneOf('order', ['asc', 'desc'], 'desc');
        params.boolean('hide_empty', false);
      },
      { page: '0', per_page: '500', order: 'up', hide_empty: 'maybe' },
    );
    expect(body).toMatchObject({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): page, per_page, order, hide_empty',
      data: {
        status: 400,
        params: {
          page: 'page must be greater than or equal to 1',
          per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
          order: 'order is not one of asc and desc.',
          hide_empty: 'hide_empty is not of type boolean.',
        },
        details: { page: { code: 'rest_out_of_bounds' }, order: { code: 'rest_not_in_enum' }, hide_empty: { code: 'rest_invalid_type' } },
      },
    });
  });

  it('lists enum values the WordPress way', () => {
    expect(listOfWords(['asc', 'desc'])).toBe('asc and desc');
    expect(listOfWords(['a', 'b', 'c'])).toBe('a, b, and c');
  });
});

describe('filterFields (_fields)', () => {
  const post = { id: 1, title: { rendered: 'T', raw: 'r' }, meta: { size: '1MB' }, tags: [1, 2] };

  it('keeps top-level and nested fields and ignores unknown ones', () => {
    expect(filterFields(post, ['id', 'title.rendered', 'nope', 'tags'])).toEqual({ id: 1, title: { rendered: 'T' }, tags: [1, 2] });
    expect(filterFields(post, ['title.rendered', 'title'])).toEqual({ title: { rendered: 'T', raw: 'r' } });
    expect(filterFields(post, ['id.deeper', 'tags.0.x'])).toEqual({});
  });
});

describe('dates', () => {
  it('gives Beijing time and UTC in the WordPress formats', () => {
    const epoch = Date.UTC(2026, 2, 1, 18, 5, 9) / 1000;
    expect(isoUtc(epoch)).toBe('2026-03-01T18:05:09');
    expect(isoShanghai(epoch)).toBe('2026-03-02T02:05:09');
    expect(mysqlShanghai(epoch)).toBe('2026-03-02 02:05:09');
  });
});

describe('createHtmlSanitizer', () => {
  const sanitize = createHtmlSanitizer('https://www.example.cn');

  it('keeps article markup and code blocks', () => {
    const html = '<h3>命令</h3><pre><code class="language-text evil">LINE</code></pre><ol><li><kbd>Ctrl</kbd>+<kbd>S</kbd></li></ol><figure><img src="/a.png" alt="a" width="300"><figcaption>图</figcaption></figure>';
    expect(sanitize(html)).toBe(
      '<h3>命令</h3><pre><code class="language-text">LINE</code></pre><ol><li><kbd>Ctrl</kbd>+<kbd>S</kbd></li></ol><figure><img src="/a.png" alt="a" width="300" /><figcaption>图</figcaption></figure>',
    );
  });

  it('drops scripts, handlers, styles, frames and unsafe URLs', () => {
    const html = '<p style="x" onmouseover="a()">文</p><svg onload="b()"><script>c()</script></svg><a href="data:text/html,x">d</a><a href="//evil.example">e</a><img src="vbscript:x">';
    expect(sanitize(html)).toBe('<p>文</p><a>d</a><a>e</a><img />');
  });

  it('marks external links rel=noopener and drops an authored rel', () => {
    expect(sanitize('<a href="http://other.example/" rel="opener">x</a>')).toBe('<a href="http://other.example/" rel="noopener">x</a>');
    expect(sanitize('<a href="/2.html" rel="opener">y</a>')).toBe('<a href="/2.html">y</a>');
  });
});

describe('page breaks survive sanitising', () => {
  it('sanitises each page on its own and keeps the breaks between them', () => {
    const sanitize = createHtmlSanitizer('http://127.0.0.1:3000');
    const html = sanitize('<p>一<b>未闭合</p><!-- nextpage --><script>x()</script><p>二</p><!--NEXTPAGE--><p>三</p><!-- 别的注释 -->');
    const pages = html.split('<!--nextpage-->').map((page) => page.trim());
    expect(pages).toEqual(['<p>一<b>未闭合</b></p>', '<p>二</p>', '<p>三</p>']);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.fn<typeof fetch>();

function answer(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'application/json' } });
}

const SAMPLE = {
  total: 2,
  data: [
    { ID: 5021, post_title: 'CAD怎么把DWG转换成PDF&#8230;', excerpt: '<p>三步完成&amp;批量导出</p>', post_modified: '2024-05-02 10:00:00' },
    { ID: '5019', post_title: 'CAD标注样式设置', excerpt: '', post_modified: '2024-05-01 09:00:00' },
    { ID: 'oops', post_title: 'dropped: no numeric id' },
  ],
};

// A fresh module per test: the "logged once" flag lives at module level.
async function load() {
  vi.resetModules();
  return import('./latest-guides');
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.stubEnv('API_ORIGIN', 'http://api.test:3001');
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('latestGuides', () => {
  it('asks the content API for the first page of the newest posts, revalidated every 300 s', async () => {
    fetchMock.mockResolvedValue(answer(JSON.stringify(SAMPLE)));
    const { latestGuides } = await load();
    await latestGuides(6);
    expect(fetchMock).toHaveBeenCalledWith('http://api.test:3001/wp-json/wp/v2/newPosts/?paged=1&per_page=6', {
      next: { revalidate: 300 },
    });
  });

  it('returns id and plain-text title of each valid article', async () => {
    fetchMock.mockResolvedValue(answer(JSON.stringify(SAMPLE)));
    const { latestGuides } = await load();
    const guides = await latestGuides(6);
    expect(guides.map((guide) => [guide.id, guide.title])).toEqual([
      [5021, 'CAD怎么把DWG转换成PDF…'],
      [5019, 'CAD标注样式设置'],
    ]);
    expect(guides[0]?.excerpt).toBe('三步完成&批量导出');
  });

  it('reads an answer with junk before the JSON', async () => {
    fetchMock.mockResolvedValue(answer(`\uFEFF<br />notice\n${JSON.stringify(SAMPLE)}`));
    const { latestGuides } = await load();
    expect(await latestGuides(6)).toHaveLength(2);
  });

  it.each([
    ['a network error', () => Promise.reject(new TypeError('fetch failed'))],
    ['an HTTP error', () => Promise.resolve(answer('{"code":"rest_no_route"}', 404))],
    ['a body that is not JSON', () => Promise.resolve(answer('<html>bad gateway</html>'))],
    ['JSON of the wrong shape', () => Promise.resolve(answer('{"total":0}'))],
  ])('returns [] on %s', async (_name, respond) => {
    fetchMock.mockImplementation(respond);
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { latestGuides } = await load();
    expect(await latestGuides(6)).toEqual([]);
    expect(errorLog).toHaveBeenCalledTimes(1);
  });

  it('logs an outage once, and again only after the API has recovered', async () => {
    const errorLog = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { latestGuides } = await load();
    fetchMock.mockRejectedValue(new TypeError('fetch failed'));
    await latestGuides(6);
    await latestGuides(6);
    expect(errorLog).toHaveBeenCalledTimes(1);
    fetchMock.mockResolvedValue(answer(JSON.stringify(SAMPLE)));
    await latestGuides(6);
    fetchMock.mockRejectedValue(new TypeError('fetch failed'));
    await latestGuides(6);
    expect(errorLog).toHaveBeenCalledTimes(2);
  });

  it('never returns more than asked for', async () => {
    fetchMock.mockResolvedValue(answer(JSON.stringify(SAMPLE)));
    const { latestGuides } = await load();
    expect(await latestGuides(1)).toHaveLength(1);
  });
});

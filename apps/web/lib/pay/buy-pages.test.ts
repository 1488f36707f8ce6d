import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderOf, resolveRoute, routeByName } from '../routes';
import { BUY_PAGES, BUY_ROUTES, benefitCellOf, benefitRowsOf, buyPathOf, featuresOf } from './buy-pages';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function messages(locale: string, namespace = 'buy'): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(webRoot, 'messages', locale, `${namespace}.json`), 'utf8')) as Record<string, unknown>;
}

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  if (Array.isArray(value)) return [`${prefix}[${value.length}]`, ...value.flatMap((item, index) => keysOf(item, `${prefix}[${index}]`))];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

describe('buy pages', () => {
  it.each(BUY_ROUTES)('%s is served at its spec path and has a page file', (route) => {
    expect(resolveRoute(buyPathOf(route))?.route.name).toBe(route);
    const def = routeByName(route);
    expect(existsSync(path.join(webRoot, 'app', '[locale]', `(${def.layout})`, folderOf(def), 'page.tsx'))).toBe(true);
  });

  it('sells the spec §6 products: editor and editor pro together, the converter on PC and as the phone app', () => {
    expect(BUY_PAGES['buy-cadeditor'].productIds).toEqual([211, 214]);
    expect(BUY_PAGES['buy-cadconverter']).toMatchObject({ productIds: [202], channel: 'pc' });
    expect(BUY_PAGES['buy-cadconverterapp']).toMatchObject({ productIds: [202], channel: 'app' });
    expect(BUY_PAGES['buy-cadholdall'].productIds).toEqual([204]);
    expect(BUY_PAGES['buy-cadresources'].productIds).toEqual([297]);
    expect(BUY_PAGES['buy-cadtuku'].productIds).toEqual([203]);
  });

  it.each(['buy', 'pay'])('has the same %s message keys in Chinese and English', (namespace) => {
    expect(keysOf(messages('en', namespace)).sort()).toEqual(keysOf(messages('zh-CN', namespace)).sort());
  });

  it.each(['zh-CN', 'en'])('has features and member benefits for every page in %s', (locale) => {
    const products = messages(locale).products as Record<string, Record<string, unknown>>;
    for (const route of BUY_ROUTES) {
      const copy = products[BUY_PAGES[route].key];
      expect(copy?.name, route).toEqual(expect.any(String));
      expect(featuresOf(copy?.features).length, route).toBeGreaterThanOrEqual(6);
      const rows = benefitRowsOf(copy?.benefits);
      expect(rows.length, route).toBeGreaterThanOrEqual(5);
      // A member gets at least everything a free user gets.
      for (const row of rows) expect(benefitCellOf(row.member).kind, `${route}: ${row.item}`).not.toBe('no');
    }
  });
});

describe('reading page copy', () => {
  it('keeps well-formed features and drops the rest', () => {
    expect(featuresOf([{ title: '标注', text: '线性、对齐、角度标注' }, { title: '', text: 'x' }, 'x', { title: 'a' }])).toEqual([
      { title: '标注', text: '线性、对齐、角度标注' },
    ]);
    expect(featuresOf('not a list')).toEqual([]);
  });

  it('shows yes and no as marks and anything else as text', () => {
    expect(benefitCellOf('yes')).toEqual({ kind: 'yes' });
    expect(benefitCellOf('no')).toEqual({ kind: 'no' });
    expect(benefitCellOf('每天3次')).toEqual({ kind: 'text', text: '每天3次' });
  });
});

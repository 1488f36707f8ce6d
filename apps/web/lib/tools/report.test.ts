import { FILE_CHANGE_HOWS, type TFileChange } from '@xcad/protocol';
import { createTranslator } from 'next-intl';
import { describe, expect, it } from 'vitest';
import en from '../../messages/en/tools.json';
import zh from '../../messages/zh-CN/tools.json';
import { changeParts, reportWordsOf } from './report';

// Decision 0036: the result page words each change of a converted file from its type and its code,
// in both languages, for every code the engine and the renderer report.

const LOCALES = { 'zh-CN': zh, en } as const;

function lineOf(locale: keyof typeof LOCALES, change: TFileChange): string {
  const messages = LOCALES[locale];
  const words = reportWordsOf(messages.workbench.report);
  if (words === null) throw new Error(`${locale}: the report's words are malformed`);
  const line: string = messages.workbench.report.change;
  const t = createTranslator({ locale, messages: { report: { change: line } } });
  return t('report.change', changeParts(change, words));
}

describe('the change report', () => {
  it.each(Object.keys(LOCALES) as (keyof typeof LOCALES)[])('%s has words for every way a change is made', (locale) => {
    const words = reportWordsOf(LOCALES[locale].workbench.report);
    expect(words).not.toBeNull();
    for (const how of FILE_CHANGE_HOWS) expect(words?.how[how], `${locale} ${how}`).toMatch(/\S/);
    // Nothing beyond the codes: a word for a code no one reports would be dead.
    expect(Object.keys(words?.how ?? {}).sort()).toEqual([...FILE_CHANGE_HOWS].sort());
  });

  it('says what became of the objects, in Chinese', () => {
    expect(lineOf('zh-CN', { type: 'MULTILEADER', count: 3, outcome: 'lowered', how: 'graphics' })).toBe(
      '多重引线 ×3：已转换为直线、文字和填充，外观不变',
    );
    expect(lineOf('zh-CN', { type: 'ACAD_PROXY_ENTITY', count: 2, outcome: 'dropped', how: 'no-graphics' })).toBe(
      '代理对象 ×2：暂不能转换，也没有可保留的代理图形，已略去',
    );
    expect(lineOf('en', { type: 'MESH', count: 1, outcome: 'lowered', how: 'polyface' })).toBe(
      'Mesh ×1: written as a polyface mesh that looks the same',
    );
  });

  it("keeps AutoCAD's name of a type it has no name for, and words an unknown code by its outcome", () => {
    expect(lineOf('zh-CN', { type: 'AEC_WALL', count: 12, outcome: 'dropped', how: 'not-drawn' })).toBe(
      'AEC_WALL ×12：暂时无法显示，未画入结果',
    );
    expect(lineOf('zh-CN', { type: 'SPLINE', count: 4, outcome: 'lowered', how: 'a-new-way' })).toBe('样条曲线 ×4：已转换为等效的对象');
    expect(lineOf('zh-CN', { type: 'constructor', count: 1, outcome: 'dropped', how: 'toString' })).toBe('constructor ×1：已略去');
  });
});

import type { TFileChange } from '@xcad/protocol';

// What a converted file's report says on the result page (decision 0036): each change as a short
// line, "多重引线 ×3：已转换为直线、文字和填充，外观不变". The object's name comes from
// the page's messages, with AutoCAD's own name for a type they do not name; the way it changed
// from its code, or from its outcome for a code the page does not know yet.

/** The `report` messages of the tools namespace that name types and ways. */
export interface ReportWords {
  readonly type: Readonly<Record<string, string>>;
  readonly how: Readonly<Record<string, string>>;
  readonly howFallback: Readonly<Record<TFileChange['outcome'], string>>;
}

/** The parts of one change's line: the object's name, how many, and what became of them. */
export function changeParts(change: TFileChange, words: ReportWords): { type: string; count: number; how: string } {
  const type = Object.hasOwn(words.type, change.type) ? (words.type[change.type] ?? change.type) : change.type;
  const how = Object.hasOwn(words.how, change.how) ? (words.how[change.how] ?? '') : '';
  return { type, count: change.count, how: how === '' ? words.howFallback[change.outcome] : how };
}

/** The words of the report as they reach the page (the messages of `tools.workbench.report`), checked. */
export function reportWordsOf(messages: unknown): ReportWords | null {
  if (typeof messages !== 'object' || messages === null) return null;
  const { type, how, howFallback } = messages as Record<string, unknown>;
  const isTexts = (value: unknown): value is Record<string, string> =>
    typeof value === 'object' && value !== null && Object.values(value).every((text) => typeof text === 'string');
  if (!isTexts(type) || !isTexts(how) || !isTexts(howFallback)) return null;
  const { lowered, dropped } = howFallback;
  if (lowered === undefined || dropped === undefined) return null;
  return { type, how, howFallback: { lowered, dropped } };
}

/** Page-range option parsing ('1-3,5', '4-', '-2'), 1-based, in document order, each page once. */

/** The pages a range names, or an error message (English, one line) when it is malformed or out of range. */
export function parsePageRange(range: string | undefined, pageCount: number): number[] | string {
  if (range === undefined || range.trim() === '') return Array.from({ length: pageCount }, (_, i) => i + 1);
  const pages = new Set<number>();
  for (const part of range.split(',')) {
    const m = /^\s*(\d*)\s*(-?)\s*(\d*)\s*$/.exec(part);
    if (!m || (!m[1] && !m[3])) return `bad page range '${range}' (use e.g. 1-3,5)`;
    const from = m[1] ? Number(m[1]) : 1;
    const to = m[2] ? (m[3] ? Number(m[3]) : pageCount) : from;
    if (from < 1 || to < from) return `bad page range '${part.trim()}'`;
    if (from > pageCount) return `page ${from} does not exist: the PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}`;
    for (let p = from; p <= Math.min(to, pageCount); p++) pages.add(p);
  }
  return [...pages].sort((a, b) => a - b);
}

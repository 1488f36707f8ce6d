import type { Page } from 'playwright-core';

// What the layout tests look for in a page (issue 28): a fixed element floating over the page's
// links, buttons or text, and a page wider than the window. Everything is measured in the browser
// (page.evaluate) at the scroll position the page is at.

/** One thing of the page a fixed element covers. */
export interface Covering {
  /** The fixed element (its test id, id or first class). */
  readonly floating: string;
  /** The covered element and the text it shows. */
  readonly target: string;
  readonly scrollY: number;
}

/** What the evaluation returns for one scroll position, or for a sweep. */
export interface Look {
  readonly coverings: Covering[];
  /** How many fixed elements that are not full-width bars were in sight (a sweep that saw none proves nothing). */
  readonly floatingSeen: number;
}

/**
 * Runs in the page. A fixed element narrower than the window (the side bar, a floating button)
 * must cover no link, button, field or text there. A full-width bar (a header, the consent bar) is
 * something the page scrolls under: it may cover content in passing, but not at the end of the page
 * it is anchored to (a bottom bar once the page is scrolled to its end, a top bar at its start),
 * else that content cannot be brought into sight at all. "Covered" means the fixed element is what
 * the browser hits at the middle of the overlap while the covered element is under it, so content
 * clipped away (an off-screen carousel slide) or hidden does not count.
 */
function lookForCoverings(): Look {
  const width = window.innerWidth;
  const height = window.innerHeight;
  const scrollY = Math.round(window.scrollY);
  const maxScroll = document.documentElement.scrollHeight - height;
  const isAtTop = scrollY <= 1;
  const isAtEnd = scrollY >= maxScroll - 1;

  const describe = (element: Element): string => {
    const testId = element.getAttribute('data-testid');
    const name = testId
      ? `[data-testid=${testId}]`
      : element.id
        ? `#${element.id}`
        : element.classList[0]
          ? `.${element.classList[0]}`
          : '';
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `<${element.tagName.toLowerCase()}${name}>${text ? ` "${text}"` : ''}`;
  };

  const isShown = (element: Element, style: CSSStyleDeclaration): boolean =>
    style.display !== 'none' &&
    style.visibility === 'visible' &&
    Number(style.opacity) > 0 &&
    style.pointerEvents !== 'none' &&
    element.getClientRects().length > 0;

  // The fixed elements in sight that this position must check.
  const floating: { element: Element; rect: DOMRect }[] = [];
  let floatingSeen = 0;
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    const style = getComputedStyle(element);
    if (style.position !== 'fixed' || !isShown(element, style)) continue;
    // A dialog (the login modal a personal page opens for a visitor) covers the page on purpose.
    if (
      element.matches('dialog, [role="dialog"], [aria-modal="true"]') ||
      element.querySelector('dialog, [role="dialog"], [aria-modal="true"]')
    )
      continue;
    const rect = element.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1 || rect.bottom <= 0 || rect.top >= height || rect.right <= 0 || rect.left >= width) continue;
    const isBar = rect.width >= width - 1;
    if (!isBar) floatingSeen += 1;
    const isTopBar = isBar && rect.top <= 0;
    const isBottomBar = isBar && rect.bottom >= height;
    if (!isBar || (isTopBar && isAtTop) || (isBottomBar && isAtEnd)) floating.push({ element, rect });
  }

  const coverings: Covering[] = [];
  if (floating.length === 0) return { coverings, floatingSeen };
  const insideFloating = (node: Node) => floating.some(({ element }) => element.contains(node));

  /** The overlap's middle, if `rect` overlaps a floating element by more than 2 px each way and that element is on top there. */
  const coveredBy = (rect: DOMRect, target: Element): Element | null => {
    for (const { element, rect: over } of floating) {
      const left = Math.max(rect.left, over.left, 0);
      const right = Math.min(rect.right, over.right, width);
      const top = Math.max(rect.top, over.top, 0);
      const bottom = Math.min(rect.bottom, over.bottom, height);
      if (right - left <= 2 || bottom - top <= 2) continue;
      const stack = document.elementsFromPoint((left + right) / 2, (top + bottom) / 2);
      const topmost = stack[0];
      if (topmost && element.contains(topmost) && stack.some((hit) => hit === target || target.contains(hit))) return element;
    }
    return null;
  };

  const report = (over: Element, target: Element) => {
    const entry = { floating: describe(over), target: describe(target), scrollY };
    if (!coverings.some((known) => known.floating === entry.floating && known.target === entry.target)) coverings.push(entry);
  };

  // Links, buttons and fields.
  const controls = document.body.querySelectorAll(
    'a[href], button, input, select, textarea, [role="button"], [role="tab"], [tabindex]:not([tabindex="-1"])',
  );
  for (const control of Array.from(controls)) {
    if (insideFloating(control)) continue;
    const over = coveredBy(control.getBoundingClientRect(), control);
    if (over) report(over, control);
  }

  // Text: each line box of each text node.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent?.trim() || insideFloating(node)) continue;
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(parent.tagName)) continue;
    const box = parent.getBoundingClientRect();
    if (!floating.some(({ rect }) => box.right > rect.left && box.left < rect.right && box.bottom > rect.top && box.top < rect.bottom))
      continue;
    range.selectNodeContents(node);
    for (const line of Array.from(range.getClientRects())) {
      const over = coveredBy(line, parent);
      if (over) {
        report(over, parent);
        break;
      }
    }
  }
  return { coverings, floatingSeen };
}

/**
 * Runs `fn` in the page from its source. A transpiler that keeps function names (tsx, esbuild's
 * keepNames) wraps inner functions in a `__name` helper the page does not have: it gets a stand-in.
 */
function inPage<T, A = undefined>(page: Page, fn: (arg: A) => T, arg?: A): Promise<Awaited<T>> {
  const source = `(() => { const __name = (target) => target; return (${fn.toString()})(${JSON.stringify(arg ?? null)}); })()`;
  return page.evaluate(source) as Promise<Awaited<T>>;
}

/** What fixed elements cover at the page's present scroll position. */
export async function coveringsNow(page: Page): Promise<Look> {
  return inPage(page, lookForCoverings);
}

/**
 * Scrolls to `y` at once and lets scroll-driven UI catch up (the side bar shows after 80 px, through a
 * frame and a React render): returns once the page's DOM has been still for 80 ms (at most 2 s).
 */
export async function scrollToY(page: Page, y: number): Promise<void> {
  await inPage(
    page,
    async (top: number) => {
      window.scrollTo({ top, behavior: 'instant' });
      await new Promise<void>((resolve) => {
        let quiet = setTimeout(finish, 80);
        const cap = setTimeout(finish, 2_000);
        const observer = new MutationObserver(() => {
          clearTimeout(quiet);
          quiet = setTimeout(finish, 80);
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        function finish() {
          observer.disconnect();
          clearTimeout(quiet);
          clearTimeout(cap);
          resolve();
        }
      });
    },
    y,
  );
}

/**
 * Walks the page from top to end a bit less than a window at a time (and the end itself), and
 * collects what fixed elements cover at each stop.
 */
export async function sweepCoverings(page: Page): Promise<Look> {
  const { height, scrollHeight } = await page.evaluate(() => ({
    height: window.innerHeight,
    scrollHeight: document.documentElement.scrollHeight,
  }));
  const end = Math.max(0, scrollHeight - height);
  const step = Math.max(200, Math.round(height * 0.7));
  const stops: number[] = [];
  for (let y = 0; y < end; y += step) stops.push(y);
  stops.push(end);
  const coverings: Covering[] = [];
  let floatingSeen = 0;
  for (const y of stops) {
    await scrollToY(page, y);
    const look = await coveringsNow(page);
    floatingSeen += look.floatingSeen;
    for (const covering of look.coverings) {
      if (!coverings.some((known) => known.floating === covering.floating && known.target === covering.target)) coverings.push(covering);
    }
  }
  return { coverings, floatingSeen };
}

/** The elements that stick out of the window's right edge when the page scrolls sideways (none when it does not). */
export async function sidewaysOverflow(page: Page): Promise<string[]> {
  return inPage(page, () => {
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const wide: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const rect = element.getBoundingClientRect();
      if (rect.right <= width + 1 || rect.width === 0) continue;
      // Only the outermost element that sticks out: its children are the same story.
      if (element.parentElement && element.parentElement.getBoundingClientRect().right > width + 1) continue;
      const testId = element.getAttribute('data-testid');
      wide.push(
        `<${element.tagName.toLowerCase()}${testId ? `[data-testid=${testId}]` : element.classList[0] ? `.${element.classList[0]}` : ''}> right ${Math.round(rect.right)}px`,
      );
      if (wide.length >= 5) break;
    }
    return [`the page is ${document.documentElement.scrollWidth}px wide in a ${width}px window`, ...wide];
  });
}

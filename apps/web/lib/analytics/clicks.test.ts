import { ZAnalyticsEvent } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { clickEventOf, type ClickTarget } from './clicks';

// Menu and button clicks declared in the markup (data-track-module / -tab / -name).

/** A tiny element tree: enough of the DOM for closest() with the selectors clicks.ts uses. */
class FakeElement implements ClickTarget {
  parent: FakeElement | null = null;
  constructor(
    readonly tagName: string,
    readonly attributes: Record<string, string> = {},
    readonly textContent: string | null = null,
  ) {}
  child(element: FakeElement): FakeElement {
    element.parent = this;
    return element;
  }
  getAttribute(name: string): string | null {
    return this.attributes[name] ?? null;
  }
  private matches(selector: string): boolean {
    return selector.split(',').some((part) => {
      const one = part.trim();
      const attribute = /^(\w*)\[([\w-]+)(?:="([^"]*)")?\]$/.exec(one);
      if (attribute) {
        const [, tag, name, value] = attribute;
        if (tag && tag.toUpperCase() !== this.tagName) return false;
        return name! in this.attributes && (value === undefined || this.attributes[name!] === value);
      }
      return one.toUpperCase() === this.tagName;
    });
  }
  closest(selector: string): FakeElement | null {
    if (this.matches(selector)) return this;
    return this.parent?.closest(selector) ?? null;
  }
}

const PAGE = 'https://www.xunjiecad.com/buy.html';

function headerMenu() {
  const header = new FakeElement('HEADER', { 'data-track-module': 'header' });
  const item = header.child(new FakeElement('LI', { 'data-track-tab': 'tools' }));
  const link = item.child(new FakeElement('A', { href: '/tools/cad2pdf', 'data-track-name': 'cad2pdf' }, ' CAD转PDF  在线转换 '));
  const span = link.child(new FakeElement('SPAN', {}, 'CAD转PDF'));
  const plain = item.child(new FakeElement('A', { href: '/en/help.html?x=1' }, '帮助'));
  const external = header.child(new FakeElement('A', { href: 'https://www.xunjiepdf.com/app?x=1' }, 'PDF'));
  return { header, link, span, plain, external };
}

describe('click events from the markup', () => {
  it('reports the module, the menu tab and the entry’s own name, from a click on its child', () => {
    const { span } = headerMenu();
    const event = clickEventOf(span, PAGE);
    expect(event).toEqual({
      event: 'click',
      module: 'header',
      tab_name: 'tools',
      name: 'cad2pdf',
      click_type: 'link',
      title: 'CAD转PDF 在线转换',
    });
    expect(
      ZAnalyticsEvent.safeParse({
        software_name: 'web',
        software_version: 'online',
        channel: '',
        platform: 'WEB',
        uid: 'u',
        device_id: 'd',
        page: '/',
        time: 1,
        ...event,
      }).success,
    ).toBe(true);
  });

  it('names an unnamed link by its path on this site and by origin and path elsewhere', () => {
    const { plain, external } = headerMenu();
    expect(clickEventOf(plain, PAGE)).toMatchObject({ name: '/en/help.html', tab_name: 'tools' });
    expect(clickEventOf(external, PAGE)).toMatchObject({ name: 'https://www.xunjiepdf.com/app' });
  });

  it('names a button by its label and reports it as a button', () => {
    const region = new FakeElement('SECTION', { 'data-track-module': 'tools', 'data-track-tab': 'cad2pdf' });
    const button = region.child(new FakeElement('BUTTON', { 'aria-label': '关闭', 'data-track-action': 'close' }, '×'));
    expect(clickEventOf(button, PAGE)).toEqual({
      event: 'click',
      module: 'tools',
      tab_name: 'cad2pdf',
      name: '关闭',
      click_type: 'button',
      title: '关闭',
      action_name: 'close',
    });
  });

  it('ignores clicks outside a tracked region and on things that are not links or buttons', () => {
    const page = new FakeElement('MAIN');
    expect(clickEventOf(page.child(new FakeElement('A', { href: '/x' }, 'x')), PAGE)).toBeNull();
    const { header } = headerMenu();
    expect(clickEventOf(header.child(new FakeElement('P', {}, '文字')), PAGE)).toBeNull();
    expect(clickEventOf(header.child(new FakeElement('BUTTON', {}, '   ')), PAGE)).toBeNull();
  });
});

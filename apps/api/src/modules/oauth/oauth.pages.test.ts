import { describe, expect, it } from 'vitest';
import { loginExpiredPage, qqCancelledPage, qqDevAuthorizePage, qqSignedInPage, type HtmlPage } from './oauth.pages';

const HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>';

function nonceOf(page: HtmlPage): string {
  const match = /style-src 'nonce-([^']+)'/.exec(page.csp);
  if (match?.[1] === undefined) throw new Error(`no style nonce in ${page.csp}`);
  return match[1];
}

describe('QQ popup pages', () => {
  it('escape everything they echo', () => {
    const page = qqDevAuthorizePage({
      state: HOSTILE,
      redirectUri: HOSTILE,
      nickname: HOSTILE,
      action: '/api/dev/qq/authorize',
      formOrigins: ["'self'"],
      error: HOSTILE,
    });
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('load nothing from elsewhere and run no script the policy does not name', () => {
    for (const page of [loginExpiredPage(), qqCancelledPage(), qqSignedInPage('0123456789abcdef', 'https://www.example.com')]) {
      expect(page.csp).toContain("default-src 'none'");
      expect(page.csp).toContain("frame-ancestors 'none'");
      expect(page.html).not.toMatch(/\s(src|href)=/);
      const nonce = nonceOf(page);
      expect(page.csp).toContain(`script-src 'nonce-${nonce}'`);
      const scripts = page.html.match(/<script[^>]*>/g) ?? [];
      expect(scripts).toEqual([`<script nonce="${nonce}">`]);
    }
  });

  it('use a fresh nonce per answer', () => {
    expect(nonceOf(qqCancelledPage())).not.toBe(nonceOf(qqCancelledPage()));
  });

  it('give the dev authorisation page no script at all and a form limited to the given origins', () => {
    const page = qqDevAuthorizePage({
      state: 's',
      redirectUri: 'r',
      nickname: 'QQ测试用户',
      action: '/api/dev/qq/authorize',
      formOrigins: ["'self'", 'https://www.example.com'],
    });
    expect(page.csp).toContain("script-src 'none'");
    expect(page.csp).toContain("form-action 'self' https://www.example.com");
    expect(page.html).not.toContain('<script');
    expect(page.html).toContain('QQ登录（开发环境）');
    expect(page.html).toContain('value="QQ测试用户"');
    expect(page.html).toMatch(/<button[^>]*data-testid="qq-dev-authorize"[^>]*>授权并登录<\/button>/);
    expect(page.html).toMatch(/<button[^>]*>取消<\/button>/);
  });

  it('tell the opener which login finished, only to the site origin, and close', () => {
    const page = qqSignedInPage('0123456789abcdef', 'https://www.example.com/some/path');
    expect(page.html).toContain('登录成功，窗口即将关闭');
    expect(page.html).toContain('window.opener.postMessage({"type":"xcad-login","logintag":"0123456789abcdef"},"https://www.example.com")');
    expect(page.html).toContain('window.close()');
  });
});

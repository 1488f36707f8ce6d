import { describe, expect, it } from 'vitest';
import { devCodeOf, devOpenidOf, QqDevProvider, WechatDevProvider } from './dev.provider';

const ORIGIN = 'http://192.168.1.20:3000';

describe('dev WeChat provider', () => {
  const provider = new WechatDevProvider(ORIGIN);

  it('draws a QR of the scan-login page on the public origin (spec §2 /scanlogin/{logintag})', () => {
    expect(provider.qrtype).toBe('link');
    expect(provider.authorizeUrl({ logintag: '0123456789abcdef0123456789abcdef', state: 's' })).toBe(
      'http://192.168.1.20:3000/scanlogin/0123456789abcdef0123456789abcdef',
    );
  });

  it('exchanges a dev code; a hand-typed openid gets the default test nickname', async () => {
    expect(await provider.exchangeCode('dev-wx-tester-1')).toEqual({
      ok: true,
      profile: { provider: 'wechat', openid: 'wx-tester-1', unionid: null, nickname: '微信测试用户', avatarUrl: '' },
    });
  });
});

describe('dev QQ provider', () => {
  const provider = new QqDevProvider(ORIGIN);

  it('sends the popup to the local authorisation page with the state and the registered callback', () => {
    const url = new URL(provider.authorizeUrl({ logintag: 'tag', state: 'St4te' }));
    expect(`${url.origin}${url.pathname}`).toBe('http://192.168.1.20:3000/api/dev/qq/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      state: 'St4te',
      redirect_uri: 'http://192.168.1.20:3000/api/oauth/qq/callback',
    });
  });

  it('gives back the nickname typed on the page, the same user for the same name', async () => {
    const code = devCodeOf(devOpenidOf('QQ测试用户'));
    const first = await provider.exchangeCode(code);
    expect(first).toMatchObject({ ok: true, profile: { provider: 'qq', nickname: 'QQ测试用户' } });
    const again = await provider.exchangeCode(code);
    const other = await provider.exchangeCode(devCodeOf(devOpenidOf('另一个用户')));
    expect(first.ok && again.ok && first.profile.openid === again.profile.openid).toBe(true);
    expect(other.ok && first.ok && other.profile.openid !== first.profile.openid).toBe(true);
  });

  it.each(['', 'dev-', 'real-code-from-qq', 'dev-has spaces', `dev-${'a'.repeat(129)}`])('refuses %j as not a dev code', async (code) => {
    expect(await provider.exchangeCode(code)).toMatchObject({ ok: false, reason: 'refused' });
  });
});

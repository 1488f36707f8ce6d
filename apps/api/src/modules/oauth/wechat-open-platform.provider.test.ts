import { describe, expect, it, vi } from 'vitest';
import { fakeProvider, type FakeAnswer } from './fake-provider.testing';
import { WECHAT_ACCESS_TOKEN_URL, WECHAT_USERINFO_URL, WechatOpenPlatformProvider } from './wechat-open-platform.provider';

const config = { appId: 'wx0123456789abcdef', appSecret: 'secret-of-the-app', publicOrigin: 'https://www.example.com' };

// The shapes WeChat documents for /sns/oauth2/access_token and /sns/userinfo.
const TOKEN = {
  access_token: 'ACCESS_TOKEN_1',
  expires_in: 7200,
  refresh_token: 'REFRESH_TOKEN_1',
  openid: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
  scope: 'snsapi_login',
  unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
};
const USER = {
  openid: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
  nickname: '张三',
  sex: 1,
  province: 'PROVINCE',
  city: 'CITY',
  country: 'COUNTRY',
  headimgurl:
    'https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46',
  privilege: [],
  unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
};

function providerAnswering(token: FakeAnswer, user: FakeAnswer = { json: USER }, timeoutMs?: number) {
  const fake = fakeProvider({ [WECHAT_ACCESS_TOKEN_URL]: token, [WECHAT_USERINFO_URL]: user });
  return {
    fake,
    provider: new WechatOpenPlatformProvider(config, { fetch: fake.fetch, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
  };
}

describe('WeChat Open Platform website login', () => {
  it('shows the qrconnect page for the logintag, returning to /weixin-login-callback in the frame', () => {
    const { provider } = providerAnswering({ json: TOKEN });
    expect(provider.qrtype).toBe('iframe');
    expect(provider.authorizeUrl({ logintag: 'ab12cd34ef56ab12cd34ef56ab12cd34', state: 'St4te_-x' })).toBe(
      'https://open.weixin.qq.com/connect/qrconnect?appid=wx0123456789abcdef' +
        '&redirect_uri=https%3A%2F%2Fwww.example.com%2Fweixin-login-callback%3Flogintag%3Dab12cd34ef56ab12cd34ef56ab12cd34' +
        '&response_type=code&scope=snsapi_login&state=St4te_-x&self_redirect=true#wechat_redirect',
    );
  });

  it('buys a token with the code, then reads the user with that token', async () => {
    const { fake, provider } = providerAnswering({ json: TOKEN });
    const result = await provider.exchangeCode('CODE_FROM_WECHAT');
    expect(result).toEqual({
      ok: true,
      profile: { provider: 'wechat', openid: USER.openid, unionid: USER.unionid, nickname: '张三', avatarUrl: USER.headimgurl },
    });
    const [tokenCall, userCall] = fake.calls;
    expect(Object.fromEntries(tokenCall?.searchParams ?? [])).toEqual({
      appid: config.appId,
      secret: config.appSecret,
      code: 'CODE_FROM_WECHAT',
      grant_type: 'authorization_code',
    });
    expect(Object.fromEntries(userCall?.searchParams ?? [])).toEqual({ access_token: 'ACCESS_TOKEN_1', openid: USER.openid });
  });

  it('keeps the token unionid when userinfo has none, and null when neither has one', async () => {
    const withTokenUnion = await providerAnswering({ json: TOKEN }, { json: { ...USER, unionid: undefined } }).provider.exchangeCode('C');
    expect(withTokenUnion.ok && withTokenUnion.profile.unionid).toBe(TOKEN.unionid);
    const withoutUnion = await providerAnswering(
      { json: { ...TOKEN, unionid: undefined } },
      { json: { ...USER, unionid: undefined } },
    ).provider.exchangeCode('C');
    expect(withoutUnion.ok && withoutUnion.profile.unionid).toBeNull();
  });

  it('makes odd nicknames and avatars displayable', async () => {
    const odd = await providerAnswering(
      { json: TOKEN },
      { json: { ...USER, nickname: '<img src=x>一二三四五六七八九十一二三四五六七八九十多余\u0007', headimgurl: 'javascript:alert(1)' } },
    ).provider.exchangeCode('C');
    expect(odd.ok && odd.profile.nickname).toBe('img src=x一二三四五六七八九十一');
    expect(odd.ok && odd.profile.avatarUrl).toBe('');
    const empty = await providerAnswering({ json: TOKEN }, { json: { ...USER, nickname: ' <> ', headimgurl: '' } }).provider.exchangeCode(
      'C',
    );
    expect(empty.ok && empty.profile.nickname).toBe('微信用户');
  });

  it('reports an errcode of the token call as refused, without asking for the user', async () => {
    const { fake, provider } = providerAnswering({ json: { errcode: 40029, errmsg: 'invalid code' } });
    const result = await provider.exchangeCode('USED_CODE');
    expect(result).toEqual({ ok: false, reason: 'refused', detail: 'sns/oauth2/access_token: errcode 40029: invalid code' });
    expect(fake.calls).toHaveLength(1);
  });

  it('reports an errcode of the userinfo call as refused', async () => {
    const result = await providerAnswering({ json: TOKEN }, { json: { errcode: 40003, errmsg: 'invalid openid' } }).provider.exchangeCode(
      'C',
    );
    expect(result).toMatchObject({ ok: false, reason: 'refused', detail: 'sns/userinfo: errcode 40003: invalid openid' });
  });

  it('refuses a userinfo answer about another openid', async () => {
    const result = await providerAnswering({ json: TOKEN }, { json: { ...USER, openid: 'someone-else' } }).provider.exchangeCode('C');
    expect(result).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it.each<[string, FakeAnswer, string]>([
    ['malformed JSON', { text: '{"access_token": ' }, 'malformed'],
    ['a token answer without openid', { json: { access_token: 'T' } }, 'malformed'],
    ['a JSON array', { json: [TOKEN] }, 'malformed'],
    ['HTTP 500', { status: 500, text: 'Internal Server Error' }, 'unavailable'],
    ['a network error', { networkError: 'getaddrinfo ENOTFOUND api.weixin.qq.com' }, 'unavailable'],
  ])('reports %s as a typed failure that names no secret', async (_name, answer, reason) => {
    const result = await providerAnswering(answer).provider.exchangeCode('CODE');
    expect(result).toMatchObject({ ok: false, reason });
    expect(JSON.stringify(result)).not.toContain(config.appSecret);
  });

  it('gives up after its timeout', async () => {
    const started = Date.now();
    const result = await providerAnswering({ json: TOKEN }, { hang: true }, 50).provider.exchangeCode('C');
    expect(result).toEqual({ ok: false, reason: 'unavailable', detail: 'sns/userinfo: no answer within 50 ms' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('waits 5 s by default', async () => {
    vi.useFakeTimers();
    try {
      const { provider } = providerAnswering({ hang: true });
      let isSettled = false;
      const pending = provider.exchangeCode('C').finally(() => (isSettled = true));
      await vi.advanceTimersByTimeAsync(4_999);
      expect(isSettled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await expect(pending).resolves.toEqual({
        ok: false,
        reason: 'unavailable',
        detail: 'sns/oauth2/access_token: no answer within 5000 ms',
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

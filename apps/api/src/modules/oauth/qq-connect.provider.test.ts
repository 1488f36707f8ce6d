import { describe, expect, it } from 'vitest';
import { fakeProvider, type FakeAnswer } from './fake-provider.testing';
import { QQ_ME_URL, QQ_TOKEN_URL, QQ_USER_INFO_URL, QqConnectProvider } from './qq-connect.provider';

const config = { appId: '101234567', appKey: 'app-key-of-qq', publicOrigin: 'https://www.example.com' };

// The shapes wiki.connect.qq.com documents for token (fmt=json), me (unionid=1) and get_user_info.
const TOKEN = { access_token: 'FE04************************CCE2', expires_in: 7776000, refresh_token: '88E4************************BE14' };
const ME = { client_id: '101234567', openid: '4B9C8F7A6D5E4F3A2B1C0D9E8F7A6B5C', unionid: 'UID_1A2B3C' };
const USER = {
  ret: 0,
  msg: '',
  is_lost: 0,
  nickname: 'QQ小明',
  gender: '男',
  figureurl: 'http://qzapp.qlogo.cn/qzapp/101234567/4B9C/30',
  figureurl_qq_1: 'http://thirdqq.qlogo.cn/g?b=oidb&k=abc&s=40',
  figureurl_qq_2: 'http://thirdqq.qlogo.cn/g?b=oidb&k=abc&s=100',
};

function providerAnswering(answers: { token?: FakeAnswer; me?: FakeAnswer; user?: FakeAnswer }, timeoutMs?: number) {
  const fake = fakeProvider({
    [QQ_TOKEN_URL]: answers.token ?? { json: TOKEN },
    [QQ_ME_URL]: answers.me ?? { json: ME },
    [QQ_USER_INFO_URL]: answers.user ?? { json: USER },
  });
  return { fake, provider: new QqConnectProvider(config, { fetch: fake.fetch, ...(timeoutMs === undefined ? {} : { timeoutMs }) }) };
}

describe('QQ Connect', () => {
  it('authorises at graph.qq.com with the state, returning to /api/oauth/qq/callback', () => {
    const url = new URL(providerAnswering({}).provider.authorizeUrl({ logintag: 'ab12cd34ef56ab12', state: 'St4te_-x' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://graph.qq.com/oauth2.0/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: '101234567',
      redirect_uri: 'https://www.example.com/api/oauth/qq/callback',
      state: 'St4te_-x',
      scope: 'get_user_info',
    });
  });

  it('buys a token, asks whose it is, then reads the user', async () => {
    const { fake, provider } = providerAnswering({});
    const result = await provider.exchangeCode('QQ_CODE');
    expect(result).toEqual({
      ok: true,
      profile: { provider: 'qq', openid: ME.openid, unionid: 'UID_1A2B3C', nickname: 'QQ小明', avatarUrl: USER.figureurl_qq_2 },
    });
    const [token, me, user] = fake.calls.map((call) => Object.fromEntries(call.searchParams));
    expect(token).toEqual({
      grant_type: 'authorization_code',
      client_id: '101234567',
      client_secret: 'app-key-of-qq',
      code: 'QQ_CODE',
      redirect_uri: 'https://www.example.com/api/oauth/qq/callback',
      fmt: 'json',
    });
    expect(me).toEqual({ access_token: TOKEN.access_token, unionid: '1', fmt: 'json' });
    expect(user).toEqual({ access_token: TOKEN.access_token, oauth_consumer_key: '101234567', openid: ME.openid });
  });

  it('falls back to the small avatar, and to no unionid', async () => {
    const result = await providerAnswering({
      me: { json: { ...ME, unionid: undefined } },
      user: { json: { ...USER, figureurl_qq_2: '' } },
    }).provider.exchangeCode('C');
    expect(result).toMatchObject({ ok: true, profile: { unionid: null, avatarUrl: USER.figureurl_qq_1 } });
  });

  it('reports the token error answer as refused', async () => {
    const { fake, provider } = providerAnswering({ token: { json: { error: 100019, error_description: 'code to access token error' } } });
    expect(await provider.exchangeCode('USED')).toEqual({
      ok: false,
      reason: 'refused',
      detail: 'oauth2.0/token: error 100019: code to access token error',
    });
    expect(fake.calls).toHaveLength(1);
  });

  it('refuses a token that was issued to another app', async () => {
    const result = await providerAnswering({ me: { json: { ...ME, client_id: '100000001' } } }).provider.exchangeCode('C');
    expect(result).toMatchObject({ ok: false, reason: 'refused' });
  });

  it('reports get_user_info with ret != 0 as refused', async () => {
    const result = await providerAnswering({
      user: { json: { ret: -1, msg: 'client request params is not valid' } },
    }).provider.exchangeCode('C');
    expect(result).toEqual({ ok: false, reason: 'refused', detail: 'user/get_user_info: ret -1: client request params is not valid' });
  });

  it.each<[string, { token?: FakeAnswer; me?: FakeAnswer; user?: FakeAnswer }, string]>([
    ['malformed token JSON', { token: { text: 'access_token=FE04&expires_in=7776000' } }, 'malformed'],
    ['a token answer without access_token', { token: { json: { expires_in: 1 } } }, 'malformed'],
    ['a me answer without openid', { me: { json: { client_id: '101234567' } } }, 'malformed'],
    ['a user answer without ret', { user: { json: { nickname: 'x' } } }, 'malformed'],
    ['HTTP 500 from me', { me: { status: 500, text: '' } }, 'unavailable'],
    ['HTTP 502 from get_user_info', { user: { status: 502, text: '<html>Bad Gateway</html>' } }, 'unavailable'],
  ])('reports %s as a typed failure that names no secret', async (_name, answers, reason) => {
    const result = await providerAnswering(answers).provider.exchangeCode('C');
    expect(result).toMatchObject({ ok: false, reason });
    expect(JSON.stringify(result)).not.toContain(config.appKey);
    expect(JSON.stringify(result)).not.toContain(TOKEN.access_token);
  });

  it('gives up after its timeout', async () => {
    const result = await providerAnswering({ me: { hang: true } }, 30).provider.exchangeCode('C');
    expect(result).toEqual({ ok: false, reason: 'unavailable', detail: 'oauth2.0/me: no answer within 30 ms' });
  });
});

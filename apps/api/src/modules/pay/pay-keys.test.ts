import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPem } from './pay-keys';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const pkcs1 = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const spki = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const pkcs8Base64 = privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
const pkcs1Base64 = privateKey.export({ type: 'pkcs1', format: 'der' }).toString('base64');
const spkiBase64 = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

// A self-signed certificate made for this test (openssl req -x509 -newkey rsa:2048), and its key.
const CERTIFICATE = [
  '-----BEGIN CERTIFICATE-----',
  'MIIDGzCCAgOgAwIBAgIUZVilj9JsQi6VojXwiwaUIgiEp9wwDQYJKoZIhvcNAQEL',
  'BQAwHTEbMBkGA1UEAwwSeGNhZCB0ZXN0IHBsYXRmb3JtMB4XDTI2MTEyMjA2MTY0',
  'MVoXDTM2MTExOTA2MTY0MVowHTEbMBkGA1UEAwwSeGNhZCB0ZXN0IHBsYXRmb3Jt',
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAyWSOVF/e9JSnZgKh22GZ',
  'oW4DgcIry5KMa4AwDehv45CFQujga+KwbINs1sdIzvhHqECWA/NRKfRRHT4ELdRu',
  'D59gUyp+gyoAHK5Lmh+Q9uN64I1NrnWw2SbTXH4fahsNspROndMVxiGRNjIQIS87',
  'uDDWxEYEplSjVaY3XTjAdJWJKGjxOqkFnh4eeI3NLSWElrVDnVMtP9Ybx7pJrYUX',
  'OG1idQtkpc8NOmhmcQesm4IbmXNDYeotz18Tcs4CMlp034NM62a9BhNpNR6Zn80g',
  '8zYY9Tqmx6sRAuvMQ//8VhCtm4S84NxuTlxQZv4Nk6TbtQCTZzfh+UCc7Q21fURc',
  'EwIDAQABo1MwUTAdBgNVHQ4EFgQU6cJ1kFOtOBI80FJVT3/YLxm5PTswHwYDVR0j',
  'BBgwFoAU6cJ1kFOtOBI80FJVT3/YLxm5PTswDwYDVR0TAQH/BAUwAwEB/zANBgkq',
  'hkiG9w0BAQsFAAOCAQEAhdSfMBkRtIL5ZlI1zY2JH1wcuq/HYtg9Z1rPsQcbQty4',
  're3VqJthRAF1IqsGic2UeaaBPNcAtoVKINPgSnfMN/cbC21gNRVboto8NlecVzyu',
  'mjoxT+FNJYxQQlmqukoDG7PZ/UVpaw9FFSkSOXvrKHBzbs6UQfBnhhY1kWhLIPpX',
  'RRmXWig5LKM63hxLVZmD51pfYfYlZbv720PPkIJDuFGs+rvlQ3cVAp7gfjSpAeUl',
  'WLN+DTg3Gv2HFlY4Np7ditkTh01Kz4tYiRqiacWTiq8QS+HB4nJx2LDr8X9ql+OT',
  '0f6+KMr0xjw+Kg0uCpSRVLSKbm31Q2sTufN2u1zJcg==',
  '-----END CERTIFICATE-----',
].join('\n');
const CERTIFICATE_KEY = [
  '-----BEGIN PUBLIC KEY-----',
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAyWSOVF/e9JSnZgKh22GZ',
  'oW4DgcIry5KMa4AwDehv45CFQujga+KwbINs1sdIzvhHqECWA/NRKfRRHT4ELdRu',
  'D59gUyp+gyoAHK5Lmh+Q9uN64I1NrnWw2SbTXH4fahsNspROndMVxiGRNjIQIS87',
  'uDDWxEYEplSjVaY3XTjAdJWJKGjxOqkFnh4eeI3NLSWElrVDnVMtP9Ybx7pJrYUX',
  'OG1idQtkpc8NOmhmcQesm4IbmXNDYeotz18Tcs4CMlp034NM62a9BhNpNR6Zn80g',
  '8zYY9Tqmx6sRAuvMQ//8VhCtm4S84NxuTlxQZv4Nk6TbtQCTZzfh+UCc7Q21fURc',
  'EwIDAQAB',
  '-----END PUBLIC KEY-----',
].join('\n');

const dir = mkdtempSync(join(tmpdir(), 'pay-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileWith(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Whether `privatePem` and `publicPem` are the two halves of the test key pair. */
function pairs(privatePem: string, publicPem: string): boolean {
  const data = Buffer.from('迅捷CAD 年度会员');
  return verify('sha256', data, publicPem, sign('sha256', data, privatePem));
}

describe('loadPem: the shapes keys come in', () => {
  it('keeps PKCS#8 PEM text as it is', () => {
    expect(loadPem(pkcs8, 'private')).toBe(pkcs8);
    expect(loadPem(spki, 'public')).toBe(spki);
  });

  it('turns PKCS#1 "RSA PRIVATE KEY" PEM into PKCS#8', () => {
    expect(loadPem(pkcs1, 'private')).toBe(pkcs8);
  });

  it('reads PEM pasted into a one-line variable with literal \\n escapes', () => {
    const oneLine = pkcs8.trim().replace(/\n/g, '\\n');
    expect(oneLine).not.toContain('\n');
    expect(loadPem(oneLine, 'private')).toBe(pkcs8);
    expect(loadPem(spki.replace(/\n/g, '\\r\\n'), 'public')).toBe(spki);
  });

  it("reads a path to a PEM file, as WeChat Pay's tool saves apiclient_key.pem", () => {
    expect(loadPem(fileWith('apiclient_key.pem', pkcs8), 'private')).toBe(pkcs8);
    expect(loadPem(`  ${fileWith('pub_key.pem', spki)}\n`, 'public')).toBe(spki);
  });

  it("wraps the bare base64 Alipay's key tool prints (PKCS#8 / SPKI, or its PKCS1 setting)", () => {
    expect(loadPem(pkcs8Base64, 'private')).toBe(pkcs8);
    expect(loadPem(pkcs1Base64, 'private')).toBe(pkcs8);
    expect(loadPem(spkiBase64, 'public')).toBe(spki);
    // Copied from a console that wrapped the line.
    expect(loadPem(spkiBase64.replace(/(.{76})/g, '$1\n'), 'public')).toBe(spki);
    expect(loadPem(fileWith('alipayPublicKey_RSA2.txt', `${spkiBase64}\n`), 'public')).toBe(spki);
  });

  it('gives keys that sign and verify as the originals do', () => {
    expect(pairs(loadPem(pkcs1Base64, 'private'), loadPem(spkiBase64, 'public'))).toBe(true);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(pairs(loadPem(pkcs8, 'private'), loadPem(other, 'public'))).toBe(false);
  });

  it('accepts the platform key as an X.509 certificate and returns its public key', () => {
    expect(loadPem(CERTIFICATE, 'public')).toBe(`${CERTIFICATE_KEY}\n`);
  });
});

describe('loadPem: mistakes are named, never echoed', () => {
  it('refuses text that is no key, a missing file and a short base64-looking path', () => {
    expect(() => loadPem('changeme', 'private')).toThrow('private key is neither PEM text, nor the path of a readable file, nor base64');
    expect(() => loadPem('/etc/xcad/missing_key.pem', 'private')).toThrow('neither PEM text, nor the path of a readable file');
    expect(() => loadPem('/etc/keys/alipay', 'public')).toThrow('public key is neither PEM text');
  });

  it('refuses a file that holds something else', () => {
    const path = fileWith('notes.txt', 'merchant id 1900000109\n');
    expect(() => loadPem(path, 'private')).toThrow(`private key file ${path} holds neither PEM nor base64`);
  });

  it('refuses a private key where a public key belongs', () => {
    expect(() => loadPem(pkcs8, 'public')).toThrow('public key expected, but a private key was given');
    expect(() => loadPem(pkcs1, 'public')).toThrow('public key expected, but a private key was given');
  });

  it('refuses a public key where the private key belongs, without quoting it', () => {
    let message = '';
    try {
      loadPem(spkiBase64, 'private');
    } catch (error) {
      message = error instanceof Error ? error.message : '';
    }
    expect(message).toMatch(/^private key cannot be read: /);
    expect(message).not.toContain(spkiBase64.slice(40, 80));
  });

  it('refuses damaged base64 and PEM with a cut body', () => {
    expect(() => loadPem(pkcs8Base64.slice(0, 600), 'private')).toThrow(/^private key cannot be read: /);
    const lines = pkcs8.split('\n');
    const cut = [...lines.slice(0, 5), ...lines.slice(-2)].join('\n');
    expect(() => loadPem(cut, 'private')).toThrow(/^private key cannot be read: /);
  });

  it('refuses a key that is not RSA', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    expect(() => loadPem(ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'private')).toThrow(
      'private key must be RSA (SHA256withRSA), not ec',
    );
    expect(() => loadPem(ec.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'public')).toThrow(
      'public key must be RSA (SHA256withRSA), not ec',
    );
  });
});

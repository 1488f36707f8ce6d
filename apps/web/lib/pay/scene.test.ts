import { describe, expect, it } from 'vitest';
import { needsBrowserGuide, paySceneOf } from './scene';

// Decision 0043: the pay scene from real user agents.

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const WECHAT_ANDROID =
  'Mozilla/5.0 (Linux; Android 13; V2148A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64';
const WECHAT_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.44(0x18002c2d) NetType/WIFI Language/zh_CN';
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const WECHAT_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.138 Safari/537.36 NetType/WIFI MicroMessenger/7.0.20.1781(0x6700143B) WindowsWechat(0x63090a13)';

describe('paySceneOf', () => {
  it('pays in place inside WeChat, on a phone or on the desktop client', () => {
    expect(paySceneOf(WECHAT_ANDROID)).toBe('wechat');
    expect(paySceneOf(WECHAT_IPHONE)).toBe('wechat');
    expect(paySceneOf(WECHAT_WINDOWS)).toBe('wechat');
  });

  it('opens the payment app from a phone browser', () => {
    expect(paySceneOf(IPHONE_SAFARI)).toBe('mobile');
    expect(paySceneOf(ANDROID_CHROME)).toBe('mobile');
  });

  it('shows QR codes on a desktop browser', () => {
    expect(paySceneOf(WINDOWS_CHROME)).toBe('desktop');
    expect(paySceneOf('')).toBe('desktop');
  });

  it('guides Alipay out of WeChat only', () => {
    expect(needsBrowserGuide('wechat', 'alipay')).toBe(true);
    expect(needsBrowserGuide('wechat', 'wxpay')).toBe(false);
    expect(needsBrowserGuide('mobile', 'alipay')).toBe(false);
  });
});

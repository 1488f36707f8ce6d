import { describe, expect, it } from 'vitest';
import {
  CAPTCHA_DEFAULTS,
  CAROUSEL_DEFAULTS,
  FORM_LIMITS,
  HEADERS,
  LANGUAGE_COOKIE_DAYS,
  LAYOUT,
  LOADING_BAR,
  LOGIN_FLOW_DELAYS,
  MACHINE_ID,
  MEMBERSHIP,
  MEMBERSHIP_LEVELS,
  PAGE,
  PAY_PACKAGES,
  POPUPS,
  PRODUCT,
  PRODUCTS,
  PRODUCT_IDS,
  ROOT_FONT,
  SMS_RESEND_WAIT_SECONDS,
  TEXT_LIMITS,
  TIMINGS,
  TOAST,
  UPLOAD,
  VIEWPORT,
  X_PRODUCT,
  productById,
  rootFontSizePx,
  toastDurationMs,
} from './constants';

describe('spec §9 constants', () => {
  it('has the three pay packages with their prices and realIds', () => {
    const byId = Object.fromEntries(PAY_PACKAGES.map((p) => [p.id, p]));
    expect(byId['lifetime']).toMatchObject({ price: 88, realId: 305, months: null });
    expect(byId['year']).toMatchObject({ price: 68, realId: 304, months: 12 });
    expect(byId['month']).toMatchObject({ price: 48, realId: 532, months: 1 });
    expect(PAY_PACKAGES).toHaveLength(3);
  });

  it('identifies the software as product 211, version 5.0, xunjiecadeditor', () => {
    expect(PRODUCT).toEqual({ id: 211, version: '5.0', softname: 'xunjiecadeditor' });
  });

  it('lists the six products of §6 with their internal keys of §3', () => {
    expect(PRODUCTS.map((p) => [p.id, p.key])).toEqual([
      [211, 'bianjiqi'],
      [214, 'bianjiqipro'],
      [202, 'zhuanhuanqi'],
      [297, 'jiaocheng'],
      [204, 'gongjuxiang'],
      [203, 'tuku'],
    ]);
    expect(PRODUCT_IDS).toEqual([211, 214, 202, 297, 204, 203]);
    for (const product of PRODUCTS) expect(product.name).toMatch(/[\u4e00-\u9fff]/);
    expect(new Set(PRODUCTS.map((p) => p.name)).size).toBe(6);
    expect(productById(202)?.key).toBe('zhuanhuanqi');
    expect(productById(999)).toBeUndefined();
  });

  it('sends X-Product 141 and expects machine-id 20-201', () => {
    expect(HEADERS).toEqual({ product: 'X-Product', domain: 'X-Domain', machineId: 'machine-id' });
    expect(X_PRODUCT).toBe('141');
    expect(MACHINE_ID).toBe('20-201');
  });

  it('has the form limits and the captcha defaults', () => {
    expect(SMS_RESEND_WAIT_SECONDS).toBe(60);
    expect(FORM_LIMITS).toEqual({
      phoneLength: 11,
      smsCodeLength: 4,
      accountMaxLength: 30,
      passwordMinLength: 6,
      passwordMaxLength: 20,
      imageCodeMaxLength: 4,
    });
    expect(CAPTCHA_DEFAULTS).toEqual({ width: 90, height: 40, fontSize: 16, length: 4 });
  });

  it('has the network timings', () => {
    expect(TIMINGS).toEqual({
      httpTimeoutMs: 60_000,
      taskPollIntervalMs: 2_000,
      wechatPollIntervalMs: 1_000,
      wechatSessionCacheSeconds: 60,
      healthTimeoutMs: 1_000,
    });
    expect(LOGIN_FLOW_DELAYS).toEqual({
      autoLoginAfterSetPasswordMs: 3_000,
      autoLoginAfterRegisterMs: 1_000,
      notRegisteredNoticeMs: 3_000,
    });
  });

  it('has the upload parameters', () => {
    expect(UPLOAD.conversionChunkBytes).toBe(52_428_800);
    expect(UPLOAD.fileChunkBytes).toBe(2_097_152);
    expect(UPLOAD.limitsize).toBe(51_200);
    expect(UPLOAD.isshare).toBe(0);
    expect(UPLOAD.downtype).toBe(2);
  });

  it('has the membership thresholds and levels', () => {
    expect(MEMBERSHIP).toEqual({ lifelongThresholdSeconds: 315_360_000, clockSkewToleranceSeconds: 60 });
    expect(MEMBERSHIP.lifelongThresholdSeconds).toBe(10 * 365 * 24 * 3600);
    expect(Object.values(MEMBERSHIP_LEVELS)).toEqual(['普通用户', '高级会员', '会员已过期']);
  });

  it('has the page and layout figures', () => {
    expect(PAGE).toEqual({
      reloadGuardMs: 60_000,
      notFoundRedirectSeconds: 60,
      rootRedirectStatus: 302,
      deviceIdStorageKey: '_g_uuid',
    });
    expect(TOAST).toEqual({ baseMs: 1_000, perCharMs: 200 });
    expect(LOADING_BAR).toEqual({ durationMs: 5_000, throttleMs: 200 });
    expect(LAYOUT).toEqual({
      footerGuideCount: 6,
      backToTopShowAfterPx: 200,
      backToTopAnimationMs: 1_000,
      sideBarShowAfterPx: 80,
      menuHoverHideDelayMs: 500,
    });
    expect(ROOT_FONT).toEqual({ designWidthPx: 750, maxFontSizePx: 100 });
    expect(VIEWPORT).toEqual({ initialScale: 1, maximumScale: 1 });
    expect(LANGUAGE_COOKIE_DAYS).toBe(365);
  });

  it('has the carousel defaults', () => {
    expect(CAROUSEL_DEFAULTS).toEqual({
      autoplay: true,
      intervalMs: 3_000,
      initialIndex: 0,
      trigger: 'hover',
      loop: true,
      direction: 'horizontal',
      arrow: 'hover',
      throttleMs: 300,
    });
  });

  it('has the text limits and the popup sizes', () => {
    expect(TEXT_LIMITS).toEqual({ short: 12, long: 80, ellipsis: '...' });
    expect(POPUPS).toEqual({
      qqLogin: { width: 720, height: 650 },
      humanChat: { width: 620, height: 700 },
      weixinCallbackBox: { width: 183, height: 183 },
    });
  });
});

describe('toastDurationMs', () => {
  it('lasts 1000 ms plus 200 ms per character', () => {
    expect(toastDurationMs('')).toBe(1_000);
    expect(toastDurationMs('ok')).toBe(1_400);
    expect(toastDurationMs('登录成功')).toBe(1_800);
    expect(toastDurationMs('该账号已被注册')).toBe(2_400);
  });

  it('counts an emoji as one character', () => {
    expect(toastDurationMs('👍')).toBe(1_200);
  });
});

describe('rootFontSizePx', () => {
  it('is 100 px above 750 px of width', () => {
    expect(rootFontSizePx(1440)).toBe(100);
    expect(rootFontSizePx(751)).toBe(100);
  });

  it('is width / 750 * 100 up to 750 px', () => {
    expect(rootFontSizePx(750)).toBe(100);
    expect(rootFontSizePx(375)).toBe(50);
    expect(rootFontSizePx(600)).toBe(80);
    expect(rootFontSizePx(320)).toBeCloseTo(42.6667, 4);
  });
});

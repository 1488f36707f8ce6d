import type { TPayScene } from '@xcad/protocol';

// Decision 0043: how the cashier pays depends on where the page runs, read from the user agent
// (as WeChat's and Alipay's own documentation detect it): WeChat's browser says MicroMessenger
// (JSAPI pays in place; Alipay cannot open there), a phone or tablet browser opens the payment app
// (WeChat Pay H5, Alipay WAP), anything else is a desktop showing QR codes.

const WECHAT = /MicroMessenger/i;
const PHONE = /Android|iPhone|iPad|iPod|Mobile|HarmonyOS|OpenHarmony|Windows Phone/i;

export function paySceneOf(userAgent: string): TPayScene {
  if (WECHAT.test(userAgent)) return 'wechat';
  if (PHONE.test(userAgent)) return 'mobile';
  return 'desktop';
}

/** Inside WeChat's browser Alipay cannot be used: the cashier shows the open-in-browser guide. */
export function needsBrowserGuide(scene: TPayScene, paytype: 'wxpay' | 'alipay'): boolean {
  return scene === 'wechat' && paytype === 'alipay';
}

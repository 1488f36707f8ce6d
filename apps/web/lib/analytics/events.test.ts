import { ZAnalyticsEvent, type TAnalyticsEventInput, type TOrderCreated, type TOrderDetails } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import type { CashierPurchase } from '@/lib/pay/cashier';
import { initialSnapshot, type RunSnapshot } from '@/lib/tools/upload';
import {
  addPaymentInfoEvent,
  checkoutEvent,
  conversionEvents,
  downloadEvent,
  loginEvent,
  purchaseEvent,
  qrLoginFailure,
  reasonOf,
} from './events';

// Decision 0022: what the flows report, checked against the catalogue the collector validates with.

const COMMON = {
  software_name: 'web',
  software_version: 'online',
  channel: '',
  platform: 'WEB',
  uid: 'u',
  device_id: 'd',
  page: '/',
  time: Date.parse('2026-11-22T10:00:00+08:00'),
} as const;

function expectValid(event: TAnalyticsEventInput) {
  const parsed = ZAnalyticsEvent.safeParse({ ...COMMON, ...event });
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
}

describe('sign-in', () => {
  it('reports the method, a masked account and the result', () => {
    const ok = loginEvent({ method: 'sms', account: '13812345678' }, { ok: true });
    expect(ok).toEqual({ event: 'login', method: 'sms', login_id: '138****5678', result: 'success' });
    const failed = loginEvent(
      { method: 'password', account: '13812345678' },
      { ok: false, reason: reasonOf({ code: 10063, message: '账号异常，请联系客服' }) },
    );
    expect(failed).toMatchObject({ result: 'fail', reason: '10063 账号异常，请联系客服' });
    expect(loginEvent({ method: 'wechat' }, { ok: true })).not.toHaveProperty('login_id');
    [ok, failed, loginEvent({ method: 'qq' }, { ok: false, reason: '' })].forEach(expectValid);
  });

  it('counts a QR or popup that ended in a refusal as a failed attempt, an unused one as none', () => {
    expect(qrLoginFailure({ status: 'illegal', message: '账号异常，请联系客服' })).toBe('账号异常，请联系客服');
    expect(qrLoginFailure({ status: 'expired', message: '登录服务暂不可用' })).toBe('登录服务暂不可用');
    expect(qrLoginFailure({ status: 'expired', message: '' })).toBeNull();
    expect(qrLoginFailure({ status: 'pending', message: '' })).toBeNull();
  });
});

describe('purchase funnel', () => {
  const pkg: CashierPurchase = { kind: 'package', productid: 211, packageid: 304, title: '迅捷CAD编辑器 12个月', price: 68 };
  const bundle: CashierPurchase = { kind: 'bundle', packageids: [305, 306], title: '编辑器+转换器', price: 128 };
  const order: TOrderCreated = {
    code: 10000,
    message: 'ok',
    orderno: 'XC2026112210000012345678',
    payurl: 'http://x/pay',
    amount: 68,
    paytype: 'wxpay',
    expiretime: 0,
    scene: 'desktop',
    jsapi: null,
  };
  const details: TOrderDetails = {
    orderno: order.orderno,
    state: 'paid',
    amount: 68,
    paytype: 'alipay',
    subject: '迅捷CAD编辑器 12个月会员',
    items: [],
    createtime: 0,
    expiretime: 0,
    paidtime: 1,
    transactionid: 'T1',
    invoice: 'none',
    refund: 0,
  };

  it('checkout names the product and the package chosen', () => {
    expect(checkoutEvent(pkg)).toMatchObject({ event: 'checkout', name: '211', sub_item: '304', title: pkg.title });
    expect(checkoutEvent(bundle)).toMatchObject({ name: 'bundle', sub_item: '305+306' });
    expectValid(checkoutEvent(pkg));
  });

  it('add_payment_info carries the order, its pay type and amount in yuan', () => {
    const event = addPaymentInfoEvent(pkg, order);
    expect(event).toMatchObject({
      sku: '304',
      payment_type: 'wechat',
      transaction_id: order.orderno,
      currency: 'CNY',
      value: 68,
      item_id: '304',
      item_price: 68,
      item_quantity: 1,
    });
    expectValid(event);
  });

  it('purchase carries the paid order’s own number, amount and pay type', () => {
    const event = purchaseEvent(bundle, details);
    expect(event).toMatchObject({
      event: 'purchase',
      sku: '305+306',
      payment_type: 'alipay',
      transaction_id: order.orderno,
      value: 68,
      item_name: '编辑器+转换器',
    });
    expectValid(event);
  });
});

describe('conversion', () => {
  const files = [
    { name: '总平面图.DWG', size: 1_000 },
    { name: 'b.dxf', size: 500 },
  ];
  const ended = (
    phase: RunSnapshot['phase'],
    change: (file: RunSnapshot['files'][number]) => Partial<RunSnapshot['files'][number]>,
    error: string | null = null,
  ): RunSnapshot => {
    const snapshot = initialSnapshot(files);
    return { ...snapshot, phase, error, files: snapshot.files.map((file) => ({ ...file, ...change(file) })) };
  };

  it('reports a finished task and each uploaded file', () => {
    const events = conversionEvents(
      'cad2pdf',
      ended('done', (file) => ({ sentBytes: file.size, stage: 'done' })),
      5230.4,
    );
    expect(events[0]).toEqual({
      event: 'task',
      action_name: 'convert',
      name: 'cad2pdf',
      extension: 'dwg,dxf',
      result: 'success',
      elapsed_ms: 5230,
      size: 1500,
    });
    expect(events.slice(1)).toEqual([
      { event: 'file', io: 'upload', action_name: 'cad2pdf', name: '总平面图.DWG', extension: 'dwg', size: 1000, result: 'success' },
      { event: 'file', io: 'upload', action_name: 'cad2pdf', name: 'b.dxf', extension: 'dxf', size: 500, result: 'success' },
    ]);
    events.forEach(expectValid);
  });

  it('reports a failed task with its reason, and files that never arrived as failed uploads', () => {
    const events = conversionEvents(
      'cad2jpg',
      ended(
        'failed',
        (file) => (file.index === 0 ? { sentBytes: 1000, stage: 'failed', reason: '文件已损坏' } : { stage: 'uploading' }),
        '文件已损坏',
      ),
      100,
    );
    expect(events[0]).toMatchObject({ result: 'fail', reason: '文件已损坏' });
    expect(events[1]).toMatchObject({ result: 'success' });
    expect(events[2]).toMatchObject({ result: 'fail', reason: '文件已损坏' });
    events.forEach(expectValid);
  });

  it('reports a cancelled task as cancel, and nothing for a run still going', () => {
    const events = conversionEvents(
      'pdf2cad',
      ended('cancelled', () => ({ stage: 'cancelled' })),
      50,
    );
    expect(events[0]).toMatchObject({ result: 'cancel' });
    expect(events[0]).not.toHaveProperty('reason');
    expect(events[1]).toMatchObject({ result: 'cancel' });
    events.forEach(expectValid);
    expect(
      conversionEvents(
        'cad2pdf',
        ended('uploading', () => ({})),
        1,
      ),
    ).toEqual([]);
  });
});

describe('downloads', () => {
  it('reports a download by file name with its extension, size and time', () => {
    const event = downloadEvent({
      name: 'xunjiecad_setup.exe',
      actionName: 'software:editor',
      size: 87_300_000.4,
      durationMs: 12.6,
      result: 'success',
    });
    expect(event).toEqual({
      event: 'file',
      io: 'download',
      action_name: 'software:editor',
      name: 'xunjiecad_setup.exe',
      extension: 'exe',
      size: 87_300_000,
      duration: 13,
      result: 'success',
    });
    expectValid(event);
    const failed = downloadEvent({ name: 'tag123', actionName: 'conversion', result: 'fail', reason: '链接已过期' });
    expect(failed).toMatchObject({ size: 0, result: 'fail', reason: '链接已过期' });
    expectValid(failed);
    expectValid(downloadEvent({ io: 'share', name: '平面图.pdf', actionName: 'share', result: 'success' }));
  });
});

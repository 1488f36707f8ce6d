import type { TPayType } from '@xcad/protocol';

// Small marks of the two ways to pay, drawn here (a green chat-bubble tick for WeChat Pay, a blue
// tile for Alipay) so the cashier needs no third-party images. Decorative: the name is beside them.

const PAY_TYPE_COLORS: Readonly<Record<TPayType, string>> = { wxpay: '#07c160', alipay: '#1677ff' };

export function PayTypeIcon({ paytype, size = 20 }: { readonly paytype: TPayType; readonly size?: number }) {
  if (paytype === 'wxpay') {
    return (
      <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true">
        <rect width="24" height="24" rx="6" fill={PAY_TYPE_COLORS.wxpay} />
        <path d="M6.5 12.4l3.3 3.1 7.7-7.4" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  }
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true">
      <rect width="24" height="24" rx="6" fill={PAY_TYPE_COLORS.alipay} />
      <path
        d="M6 8.2h12M12 5.5v5.2M7.6 11.4h8.6c-.9 3.3-3.6 6-8.6 7.3M10 13.6c2.2 1.5 5 3.1 8 4.2"
        fill="none"
        stroke="#fff"
        strokeWidth="1.9"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

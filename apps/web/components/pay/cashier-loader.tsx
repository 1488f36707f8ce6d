'use client';

import dynamic from 'next/dynamic';

// The cashier's code (QR renderer, sign-in form, polling) loads on the first 立即购买, so the buy
// pages answer taps before any of it has been downloaded.
export const LazyCashier = dynamic(() => import('./cashier-modal').then((module) => module.CashierModal), { ssr: false });

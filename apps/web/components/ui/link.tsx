'use client';

import NextLink from 'next/link';
import { useRouter } from 'next/navigation';
import type { ComponentProps, FocusEvent, MouseEvent, TouchEvent } from 'react';

type LinkProps = ComponentProps<typeof NextLink>;

/**
 * The site's internal link: next/link without viewport prefetching. A page carries dozens of
 * links (header, side bar, footer, lists); prefetching every one on load costs a phone hundreds
 * of milliseconds of main-thread work before the page answers a tap (Lighthouse TBT, decision 0015).
 * The route is prefetched instead when the visitor shows the intent to follow the link: the
 * pointer enters it, a finger touches it or the keyboard focuses it - a head start of 100-300 ms
 * that makes the navigation itself as fast as with viewport prefetching.
 */
export default function Link({ onMouseEnter, onTouchStart, onFocus, href, prefetch, ...rest }: LinkProps) {
  const router = useRouter();
  const target = typeof href === 'string' ? href : null;
  const intent = () => {
    if (target !== null && prefetch !== false && target.startsWith('/')) router.prefetch(target);
  };
  return (
    <NextLink
      {...rest}
      href={href}
      prefetch={false}
      onMouseEnter={(event: MouseEvent<HTMLAnchorElement>) => {
        intent();
        onMouseEnter?.(event);
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        intent();
        onTouchStart?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        intent();
        onFocus?.(event);
      }}
    />
  );
}

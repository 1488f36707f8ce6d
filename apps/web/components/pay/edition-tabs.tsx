'use client';

import { useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { TPayProduct } from '@xcad/protocol';
import { ProductPlans } from './product-plans';
import styles from './pay.module.css';

// /buy/cadeditor.html sells two editions, the editor (211) and the editor pro (214): one tab each.

export interface Edition {
  readonly product: TPayProduct;
  readonly label: string;
  readonly text: string;
}

export function EditionTabs({ editions, label }: { readonly editions: readonly Edition[]; readonly label: string }) {
  const baseId = useId();
  const [active, setActive] = useState(0);
  const current = editions[active] ?? editions[0];
  if (!current) return null;

  function onKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = (active + (event.key === 'ArrowRight' ? 1 : editions.length - 1)) % editions.length;
    setActive(next);
    document.getElementById(`${baseId}-tab-${next}`)?.focus();
  }

  return (
    <div className={styles.editions}>
      <div className={styles.tabs} role="tablist" aria-label={label}>
        {editions.map((edition, index) => (
          <button
            key={edition.product.productid}
            id={`${baseId}-tab-${index}`}
            type="button"
            role="tab"
            className={styles.tab}
            aria-selected={index === active}
            aria-controls={`${baseId}-panel`}
            tabIndex={index === active ? 0 : -1}
            data-testid={`edition-${edition.product.productid}`}
            onKeyDown={onKey}
            onClick={() => setActive(index)}
          >
            {edition.label}
          </button>
        ))}
      </div>
      <div id={`${baseId}-panel`} role="tabpanel" aria-labelledby={`${baseId}-tab-${active}`}>
        <p className={styles.editionText}>{current.text}</p>
        <ProductPlans key={current.product.productid} product={current.product} />
      </div>
    </div>
  );
}

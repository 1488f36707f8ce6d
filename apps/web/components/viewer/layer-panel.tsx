'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { swatchCss } from '@/lib/viewer/colors';
import type { PackedLayer } from '@/lib/viewer/types';
import { ViewerIcon } from './viewer-icons';
import styles from './viewer.module.css';

// The layer panel: every layer with its colour swatch and an on/off switch, all on / all off, and
// a search box for drawings with many layers. A side panel on desktop, a bottom sheet on phones.

const FILTER_FROM = 12;

export function LayerPanel({
  layers,
  visible,
  onChange,
  onClose,
}: {
  readonly layers: readonly PackedLayer[];
  readonly visible: readonly boolean[];
  readonly onChange: (next: boolean[]) => void;
  readonly onClose: () => void;
}) {
  const t = useTranslations('viewer.layers');
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = layers
    .map((layer, index) => ({ layer, index }))
    .filter(({ layer }) => !needle || layer.name.toLowerCase().includes(needle));
  const setAll = (on: boolean) => onChange(layers.map((_, i) => (shown.some((s) => s.index === i) ? on : (visible[i] ?? true))));
  return (
    <aside className={styles.layers} aria-labelledby="viewer-layers-title" data-testid="viewer-layers-panel">
      <header className={styles.panelHead}>
        <h2 id="viewer-layers-title">{t('title', { count: layers.length })}</h2>
        <button type="button" className={styles.iconButton} onClick={onClose} aria-label={t('close')}>
          <ViewerIcon name="close" />
        </button>
      </header>
      {layers.length >= FILTER_FROM && (
        <input
          className={styles.filter}
          type="search"
          value={filter}
          placeholder={t('filter')}
          aria-label={t('filter')}
          onChange={(event) => setFilter(event.currentTarget.value)}
        />
      )}
      <div className={styles.panelActions}>
        <button type="button" className={styles.linkButton} onClick={() => setAll(true)} data-testid="viewer-layers-all-on">
          {t('allOn')}
        </button>
        <button type="button" className={styles.linkButton} onClick={() => setAll(false)} data-testid="viewer-layers-all-off">
          {t('allOff')}
        </button>
      </div>
      <ul className={styles.layerList}>
        {shown.map(({ layer, index }) => (
          <li key={`${index}-${layer.name}`}>
            <label className={styles.layerRow}>
              <input
                type="checkbox"
                checked={visible[index] ?? true}
                aria-label={t('toggle', { name: layer.name })}
                data-testid="viewer-layer"
                data-layer={layer.name}
                onChange={(event) => {
                  const next = [...visible];
                  next[index] = event.currentTarget.checked;
                  onChange(next);
                }}
              />
              <span className={styles.swatch} style={{ background: swatchCss(layer.color) }} aria-hidden="true" />
              <span className={styles.layerName}>{layer.name}</span>
            </label>
          </li>
        ))}
        {shown.length === 0 && <li className={styles.empty}>{t('none')}</li>}
      </ul>
    </aside>
  );
}

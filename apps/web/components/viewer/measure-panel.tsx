'use client';

import { useTranslations } from 'next-intl';
import type { MeasureState } from '@/lib/viewer/controller';
import { formatAngle, formatArea, formatLength, formatNumber, unitSymbol, type MeasureMode } from '@/lib/viewer/measure';
import { ViewerIcon } from './viewer-icons';
import styles from './viewer.module.css';

// The measure tool's panel: the mode (distance, area, angle, coordinates), what to click, and the
// numbers in the drawing's units ($INSUNITS). Each result carries its raw value for tests and
// screen readers' exactness (data-value).

const MODES: readonly MeasureMode[] = ['distance', 'area', 'angle', 'point'];

export function MeasurePanel({
  mode,
  dock,
  state,
  insunits,
  onMode,
  onClear,
  onClose,
}: {
  readonly mode: MeasureMode;
  /** The edge of the drawing the panel keeps to. */
  readonly dock: 'top' | 'bottom';
  readonly state: MeasureState | null;
  readonly insunits: number;
  readonly onMode: (mode: MeasureMode) => void;
  readonly onClear: () => void;
  readonly onClose: () => void;
}) {
  const t = useTranslations('viewer.measure');
  const unit = unitSymbol(insunits);
  const result = state?.result ?? null;
  const rows: { key: string; label: string; text: string; value: number }[] = [];
  if (result?.mode === 'distance') {
    rows.push({ key: 'length', label: t('length'), text: formatLength(result.length, insunits), value: result.length });
    rows.push({ key: 'dx', label: t('dx'), text: formatLength(result.dx, insunits), value: result.dx });
    rows.push({ key: 'dy', label: t('dy'), text: formatLength(result.dy, insunits), value: result.dy });
    rows.push({ key: 'direction', label: t('direction'), text: formatAngle(result.angle), value: result.angle });
  } else if (result?.mode === 'area') {
    rows.push({ key: 'area', label: t('area'), text: formatArea(result.area, insunits), value: result.area });
    rows.push({ key: 'perimeter', label: t('perimeter'), text: formatLength(result.perimeter, insunits), value: result.perimeter });
  } else if (result?.mode === 'angle') {
    rows.push({ key: 'angle', label: t('angle'), text: formatAngle(result.degrees), value: result.degrees });
  } else if (result?.mode === 'point') {
    rows.push({ key: 'x', label: t('x'), text: formatNumber(result.x), value: result.x });
    rows.push({ key: 'y', label: t('y'), text: formatNumber(result.y), value: result.y });
  }
  return (
    <section
      className={styles.measure}
      aria-labelledby="viewer-measure-title"
      data-testid="viewer-measure-panel"
      data-mode={mode}
      data-dock={dock}
      data-has-result={rows.length > 0}
    >
      <header className={styles.panelHead}>
        <h2 id="viewer-measure-title">{t('title')}</h2>
        <button type="button" className={styles.iconButton} onClick={onClose} aria-label={t('close')}>
          <ViewerIcon name="close" />
        </button>
      </header>
      <div className={styles.segmented} role="radiogroup" aria-label={t('title')}>
        {MODES.map((m) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={m === mode}
            className={styles.segment}
            onClick={() => onMode(m)}
            data-testid={`viewer-measure-${m}`}
          >
            {t(`mode.${m}`)}
          </button>
        ))}
      </div>
      <p className={styles.measureHelp}>{t(`help.${mode}`)}</p>
      {rows.length > 0 && (
        <dl className={styles.measureResult} aria-live="polite" data-testid="viewer-measure-result">
          {rows.map((row) => (
            <div key={row.key}>
              <dt>{row.label}</dt>
              <dd data-testid={`viewer-measure-${row.key}`} data-value={row.value}>
                {row.text}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <p className={styles.measureUnits}>
        {t('units', { unit: unit || t('unitless') })}
        {state && state.points.length > 0 && ` · ${t(`space.${state.space}`)}`}
      </p>
      {state && state.points.length > 0 && (
        <button type="button" className={styles.linkButton} onClick={onClear}>
          {t('clear')}
        </button>
      )}
    </section>
  );
}

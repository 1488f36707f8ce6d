'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import {
  BACKGROUNDS,
  COLOR_MODES,
  IMAGE_DPIS,
  IMAGE_WIDTHS,
  ORIENTATIONS,
  PAPERS,
  versionsOf,
  withCadFormat,
  type CadOutputOptions,
  type OptionsOf,
  type ToolOptions,
} from '@/lib/tools/options';
import styles from './tools.module.css';

// The settings column of a tool page (decision 0019): a row of choices per setting. Small sets are
// buttons in a group (radio inputs), longer lists are a select.

interface Choice<V extends string | number> {
  readonly value: V;
  readonly label: string;
}

function Segmented<V extends string>({
  legend,
  name,
  value,
  choices,
  isDisabled,
  onChange,
}: {
  readonly legend: string;
  readonly name: string;
  readonly value: V;
  readonly choices: readonly Choice<V>[];
  readonly isDisabled: boolean;
  readonly onChange: (value: V) => void;
}) {
  const id = useId();
  return (
    <fieldset className={styles.field} disabled={isDisabled}>
      <legend className={styles.fieldLabel}>{legend}</legend>
      <div className={styles.segmented}>
        {choices.map((choice) => (
          <label key={choice.value} className={styles.segment} data-checked={choice.value === value || undefined}>
            <input
              type="radio"
              name={`${id}-${name}`}
              value={choice.value}
              checked={choice.value === value}
              onChange={() => onChange(choice.value)}
              data-testid={`tool-option-${name}-${choice.value}`}
            />
            <span>{choice.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Select<V extends string | number>({
  label,
  name,
  value,
  choices,
  isDisabled,
  onChange,
}: {
  readonly label: string;
  readonly name: string;
  readonly value: V;
  readonly choices: readonly Choice<V>[];
  readonly isDisabled: boolean;
  readonly onChange: (value: V) => void;
}) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.fieldLabel} htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={styles.select}
        value={String(value)}
        disabled={isDisabled}
        data-testid={`tool-option-${name}`}
        onChange={(event) => {
          const chosen = choices.find((choice) => String(choice.value) === event.currentTarget.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={String(choice.value)}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

interface FieldsProps<T extends ToolOptions['tool']> {
  readonly options: OptionsOf<T>;
  readonly isDisabled: boolean;
  readonly onChange: (options: OptionsOf<T>) => void;
}

function useChoices() {
  const t = useTranslations('tools.options');
  return {
    t,
    scope: (['model', 'all'] as const).map((value) => ({ value, label: t(`scope.${value}`) })),
    color: COLOR_MODES.map((value) => ({ value, label: t(`color.${value}`) })),
    cadFormats: (['dwg', 'dxf'] as const).map((value) => ({ value, label: t(`format.${value}`) })),
  };
}

function Cad2PdfFields({ options, isDisabled, onChange }: FieldsProps<'cad2pdf'>) {
  const { t, scope, color } = useChoices();
  return (
    <>
      <Segmented
        legend={t('scope.label')}
        name="scope"
        value={options.scope}
        choices={scope}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, scope: value })}
      />
      <Select
        label={t('paper.label')}
        name="paper"
        value={options.paper}
        choices={PAPERS.map((value) => ({ value, label: t(`paper.${value}`) }))}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, paper: value })}
      />
      <Segmented
        legend={t('orientation.label')}
        name="orientation"
        value={options.orientation}
        choices={ORIENTATIONS.map((value) => ({ value, label: t(`orientation.${value}`) }))}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, orientation: value })}
      />
      <Segmented
        legend={t('color.label')}
        name="color"
        value={options.color}
        choices={color}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, color: value })}
      />
    </>
  );
}

function Cad2JpgFields({ options, isDisabled, onChange }: FieldsProps<'cad2jpg'>) {
  const { t, scope, color } = useChoices();
  return (
    <>
      <Segmented
        legend={t('format.label')}
        name="format"
        value={options.format}
        choices={(['jpg', 'png'] as const).map((value) => ({ value, label: t(`format.${value}`) }))}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, format: value })}
      />
      <Segmented
        legend={t('scope.label')}
        name="scope"
        value={options.scope}
        choices={scope}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, scope: value })}
      />
      <Segmented
        legend={t('size.label')}
        name="size"
        value={options.sizeBy}
        choices={(['width', 'dpi'] as const).map((value) => ({ value, label: t(`size.${value}`) }))}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, sizeBy: value })}
      />
      {options.sizeBy === 'width' ? (
        <Select
          label={t('size.width')}
          name="width"
          value={options.width}
          choices={IMAGE_WIDTHS.map((value) => ({ value, label: t('size.widthValue', { value }) }))}
          isDisabled={isDisabled}
          onChange={(value) => onChange({ ...options, width: value })}
        />
      ) : (
        <Select
          label={t('size.dpi')}
          name="dpi"
          value={options.dpi}
          choices={IMAGE_DPIS.map((value) => ({ value, label: t('size.dpiValue', { value }) }))}
          isDisabled={isDisabled}
          onChange={(value) => onChange({ ...options, dpi: value })}
        />
      )}
      <Segmented
        legend={t('background.label')}
        name="background"
        value={options.background}
        choices={BACKGROUNDS.map((value) => ({ value, label: t(`background.${value}`) }))}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, background: value })}
      />
      <Segmented
        legend={t('color.label')}
        name="color"
        value={options.color}
        choices={color}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, color: value })}
      />
    </>
  );
}

/** The target version and format of cad2ver and pdf2cad: the same choices on both (decision 0036). */
function CadOutputFields<T extends CadOutputOptions>({
  options,
  isDisabled,
  onChange,
}: {
  readonly options: T;
  readonly isDisabled: boolean;
  readonly onChange: (options: T) => void;
}) {
  const { t, cadFormats } = useChoices();
  return (
    <>
      <Select
        label={t('version.label')}
        name="version"
        value={options.version}
        choices={versionsOf(options).map((value) => ({ value, label: t('version.value', { version: value }) }))}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, version: value })}
      />
      <Segmented
        legend={t('format.label')}
        name="format"
        value={options.format}
        choices={cadFormats}
        isDisabled={isDisabled}
        onChange={(value) => onChange(withCadFormat(options, value))}
      />
    </>
  );
}

function Pdf2CadFields({ options, isDisabled, onChange, pagesError }: FieldsProps<'pdf2cad'> & { readonly pagesError: string }) {
  const { t } = useChoices();
  const pagesId = useId();
  return (
    <>
      <CadOutputFields options={options} isDisabled={isDisabled} onChange={onChange} />
      <Segmented
        legend={t('pages.label')}
        name="pages"
        value={options.pageScope}
        choices={(['all', 'range'] as const).map((value) => ({ value, label: t(`pages.${value}`) }))}
        isDisabled={isDisabled}
        onChange={(value) => onChange({ ...options, pageScope: value })}
      />
      {options.pageScope === 'range' && (
        <div className={styles.field}>
          <label className="visually-hidden" htmlFor={pagesId}>
            {t('pages.input')}
          </label>
          <input
            id={pagesId}
            className={styles.textInput}
            value={options.pages}
            placeholder={t('pages.placeholder')}
            inputMode="text"
            maxLength={64}
            disabled={isDisabled}
            aria-invalid={pagesError !== '' || undefined}
            aria-describedby={pagesError === '' ? undefined : `${pagesId}-error`}
            data-testid="tool-option-pages-input"
            onChange={(event) => onChange({ ...options, pages: event.currentTarget.value })}
          />
          {pagesError !== '' && (
            <p id={`${pagesId}-error`} className={styles.fieldError} role="alert">
              {pagesError}
            </p>
          )}
        </div>
      )}
    </>
  );
}

export function ToolOptionsFields({
  options,
  isDisabled,
  pagesError,
  onChange,
}: {
  readonly options: ToolOptions;
  readonly isDisabled: boolean;
  /** The page range's problem, '' when there is none. */
  readonly pagesError: string;
  readonly onChange: (options: ToolOptions) => void;
}) {
  switch (options.tool) {
    case 'cad2pdf':
      return <Cad2PdfFields options={options} isDisabled={isDisabled} onChange={onChange} />;
    case 'cad2jpg':
      return <Cad2JpgFields options={options} isDisabled={isDisabled} onChange={onChange} />;
    case 'cad2ver':
      return <CadOutputFields options={options} isDisabled={isDisabled} onChange={onChange} />;
    case 'pdf2cad':
      return <Pdf2CadFields options={options} isDisabled={isDisabled} onChange={onChange} pagesError={pagesError} />;
  }
}

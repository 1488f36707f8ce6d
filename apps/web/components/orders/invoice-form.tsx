'use client';

import { endpoints, formatYuan, INVOICE_TITLE_TYPES } from '@xcad/protocol';
import type { TInvoice, TInvoiceTitleType, TOrderDetails } from '@xcad/protocol';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { cardClass } from '@/components/ui/card';
import { boundField, FieldError, FieldLabel, FormError, TextInputField } from '@/components/ui/form';
import { CheckIcon, ChevronDownIcon } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { apiClient } from '@/lib/api/client';
import { isSessionRefused } from '@/lib/auth/session-refused';
import {
  firstInvalidField,
  hasVatError,
  initialInvoiceValues,
  invoiceRefusalOf,
  isFieldShown,
  parseInvoiceForm,
  validateInvoiceField,
  VAT_FIELDS,
} from '@/lib/orders/invoice-form';
import type { InvoiceField, InvoiceFieldErrors, InvoiceFormValues } from '@/lib/orders/invoice-form';
import { formatBeijingDate, formatBeijingTime } from '@/lib/orders/orders';
import formPage from '@/components/ui/form-page.module.css';
import styles from './invoice.module.css';

// The invoice application (decision 0018): an order of the user's paid ones, the title, the tax id for a
// company, the e-mail, and the special VAT details folded under 'more'. Each field is checked on
// blur and on submit with ZInvoiceApplyRequest, the schema the API parses the application with.

type TextField = Exclude<InvoiceField, 'orderno' | 'titletype'>;

/** Who is asking: the browser's session, sent with the application. */
export interface Signed {
  readonly account: string;
  readonly usertoken: string;
}

export interface InvoiceFormProps {
  readonly choices: readonly TOrderDetails[];
  readonly initialOrderNo: string;
  readonly signed: Signed;
  readonly onSubmitted: (invoice: TInvoice) => void;
  /** The server says the order can no longer be invoiced: it leaves the choices. */
  readonly onOrderGone: (orderno: string) => void;
  readonly onSessionRefused: () => void;
}

/** Marks a form as live once React has attached it: before hydration a blur or a submit has no handler. */
function markLive(form: HTMLFormElement | null): void {
  form?.setAttribute('data-ready', '');
}

export function InvoiceForm({ choices, initialOrderNo, signed, onSubmitted, onOrderGone, onSessionRefused }: InvoiceFormProps) {
  const t = useTranslations('orders.invoice.form');
  const success = useTranslations('orders.invoice.success');
  const { href } = useSiteLocale();
  const baseId = useId();
  const idOf = (field: InvoiceField) => `${baseId}-${field}`;
  const errorIdOf = (field: InvoiceField) => `${baseId}-error-${field}`;

  const [values, setValues] = useState<InvoiceFormValues>(() => initialInvoiceValues(initialOrderNo));
  const [errors, setErrors] = useState<InvoiceFieldErrors>({});
  const [formError, setFormError] = useState('');
  const [isMoreOpen, setIsMoreOpen] = useState(false);
  const [isSending, setIsSending] = useState(false);
  const [submitted, setSubmitted] = useState<TInvoice | null>(null);
  const doneHeading = useRef<HTMLHeadingElement>(null);

  // The chosen order left the choices (applied for elsewhere): the form moves to the next one.
  const orderno = choices.some((order) => order.orderno === values.orderno) ? values.orderno : (choices[0]?.orderno ?? '');
  const current: InvoiceFormValues = { ...values, orderno };
  const chosen = choices.find((order) => order.orderno === orderno);

  useEffect(() => {
    if (submitted !== null) doneHeading.current?.focus();
  }, [submitted]);

  const setFieldError = (field: InvoiceField, message: string) => setErrors((previous) => ({ ...previous, [field]: message }));

  function change(field: InvoiceField, value: string) {
    const next = { ...current, [field]: value };
    setValues(next);
    // A field already showing a problem is re-checked as it is corrected.
    if (errors[field]) setFieldError(field, validateInvoiceField(next, field));
    if (formError) setFormError('');
  }

  function chooseTitleType(titletype: TInvoiceTitleType) {
    const next = { ...current, titletype };
    setValues(next);
    // The title's rule and the tax id's presence follow the type: re-judge what was already judged.
    setErrors((previous) => {
      const updated: InvoiceFieldErrors = { ...previous, titletype: '' };
      if (previous.title) updated.title = validateInvoiceField(next, 'title');
      if (previous.taxno) updated.taxno = validateInvoiceField(next, 'taxno');
      return updated;
    });
  }

  function blur(field: InvoiceField) {
    setFieldError(field, validateInvoiceField(current, field));
  }

  function focusField(field: InvoiceField) {
    // A field under 'more' is rendered once the section opens.
    requestAnimationFrame(() => document.getElementById(idOf(field))?.focus());
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSending) return;
    const parsed = parseInvoiceForm(current);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      setFormError(t('errorSummary'));
      if (hasVatError(parsed.errors)) setIsMoreOpen(true);
      const first = firstInvalidField(parsed.errors);
      if (first) focusField(first);
      return;
    }
    setErrors({});
    setFormError('');
    setIsSending(true);
    try {
      const client = await apiClient();
      const answer = await client.call(endpoints.invoiceapply, { ...parsed.application, ...signed });
      setSubmitted(answer.invoice);
      onSubmitted(answer.invoice);
    } catch (error) {
      if (isSessionRefused(error)) {
        onSessionRefused();
        return;
      }
      const refusal = invoiceRefusalOf(error, t('failed'));
      if (refusal.field !== null && isFieldShown(refusal.field, current.titletype)) {
        setFieldError(refusal.field, refusal.message);
        if (VAT_FIELDS.includes(refusal.field)) setIsMoreOpen(true);
        focusField(refusal.field);
      } else {
        setFormError(refusal.message);
      }
      if (refusal.isOrderGone) onOrderGone(current.orderno);
    } finally {
      setIsSending(false);
    }
  }

  function startAgain() {
    setValues((previous) => ({
      ...initialInvoiceValues(choices[0]?.orderno ?? ''),
      titletype: previous.titletype,
      title: previous.title,
      taxno: previous.taxno,
      email: previous.email,
    }));
    setErrors({});
    setFormError('');
    setSubmitted(null);
  }

  if (submitted !== null) {
    return (
      <section className={cardClass(formPage.formCard, styles.done)} data-testid="invoice-success" aria-labelledby={`${baseId}-done`}>
        <span className={styles.doneIcon} aria-hidden="true">
          <CheckIcon size={28} />
        </span>
        <h2 id={`${baseId}-done`} className={styles.doneTitle} ref={doneHeading} tabIndex={-1}>
          {success('title')}
        </h2>
        <p className={styles.doneBody}>{success('body', { email: submitted.email })}</p>
        <div className={styles.doneActions}>
          {choices.length > 0 && (
            <button type="button" className={formPage.primary} data-testid="invoice-again" onClick={startAgain}>
              {success('again')}
            </button>
          )}
          <Link className={choices.length > 0 ? formPage.secondary : formPage.primary} href={href('/personal-buy.html')}>
            {success('records')}
          </Link>
        </div>
      </section>
    );
  }

  const invalid = (field: InvoiceField) => (errors[field] ? true : undefined);
  const describedBy = (field: InvoiceField, ...more: string[]) => [...more, errorIdOf(field)].join(' ');
  const isCompany = current.titletype === 'company';

  const textInput = (
    field: TextField,
    label: string,
    extra: {
      isRequired: boolean;
      placeholder: string;
      hint?: ReactNode;
      type?: 'text' | 'email' | 'tel';
      inputMode?: 'text' | 'email' | 'tel' | 'numeric';
      autoComplete: string;
      maxLength: number;
    },
  ) => (
    <TextInputField
      {...boundField({ idOf, errorIdOf, values: current, errors, change, blur }, field)}
      label={label}
      isRequired={extra.isRequired}
      optionalText={t('optional')}
      hint={extra.hint}
      errorTestId={`field-error-${field}`}
      fieldClassName={formPage.field}
      inputClassName={formPage.input}
      data-testid={`invoice-field-${field}`}
      type={extra.type ?? 'text'}
      inputMode={extra.inputMode}
      placeholder={extra.placeholder}
      autoComplete={extra.autoComplete}
      maxLength={extra.maxLength}
    />
  );

  return (
    <form
      ref={markLive}
      className={cardClass(formPage.formCard)}
      onSubmit={(event) => void submit(event)}
      noValidate
      data-testid="invoice-form"
      aria-labelledby={`${baseId}-title`}
    >
      <div className={formPage.cardHeader}>
        <h2 id={`${baseId}-title`} className={formPage.cardTitle}>
          {t('heading')}
        </h2>
        <p className={formPage.requiredNote}>{t('requiredNote')}</p>
      </div>

      <div className={formPage.field}>
        <FieldLabel htmlFor={idOf('orderno')} text={t('order')} isRequired optionalText={t('optional')} />
        <select
          id={idOf('orderno')}
          className={`${formPage.input} ${formPage.select}`}
          data-testid="invoice-order"
          name="orderno"
          value={orderno}
          aria-invalid={invalid('orderno')}
          aria-describedby={describedBy('orderno', `${idOf('orderno')}-summary`)}
          aria-required
          onChange={(event) => change('orderno', event.target.value)}
          onBlur={() => blur('orderno')}
        >
          {choices.map((order) => (
            <option key={order.orderno} value={order.orderno}>
              {t('orderOption', {
                subject: order.subject,
                amount: formatYuan(order.amount),
                date: formatBeijingDate(order.paidtime ?? order.createtime),
              })}
            </option>
          ))}
        </select>
        {chosen && (
          <dl id={`${idOf('orderno')}-summary`} className={styles.orderSummary} data-testid="invoice-order-summary">
            <div>
              <dt>{t('orderNo')}</dt>
              <dd className={styles.mono}>{chosen.orderno}</dd>
            </div>
            <div>
              <dt>{t('orderAmount')}</dt>
              <dd className={styles.summaryAmount}>{formatYuan(chosen.amount)}</dd>
            </div>
            <div>
              <dt>{t('orderPaid')}</dt>
              <dd>{formatBeijingTime(chosen.paidtime ?? chosen.createtime)}</dd>
            </div>
          </dl>
        )}
        <FieldError id={errorIdOf('orderno')} testId="field-error-orderno" message={errors.orderno} />
      </div>

      <fieldset className={formPage.field}>
        <legend className={formPage.legend}>
          <FieldLabel text={t('titletype')} isRequired optionalText={t('optional')} />
        </legend>
        <div className={styles.chips}>
          {INVOICE_TITLE_TYPES.map((type, index) => (
            <label key={type} className={styles.chip}>
              <input
                type="radio"
                name="titletype"
                value={type}
                id={index === 0 ? idOf('titletype') : undefined}
                className="visually-hidden"
                data-testid={`invoice-titletype-${type}`}
                checked={current.titletype === type}
                aria-describedby={errorIdOf('titletype')}
                onChange={() => chooseTitleType(type)}
              />
              <span>{t(`titletypes.${type}`)}</span>
            </label>
          ))}
        </div>
        <FieldError id={errorIdOf('titletype')} testId="field-error-titletype" message={errors.titletype} />
      </fieldset>

      {textInput('title', t('title'), {
        isRequired: true,
        placeholder: isCompany ? t('titlePlaceholderCompany') : t('titlePlaceholderPersonal'),
        autoComplete: isCompany ? 'organization' : 'name',
        maxLength: 100,
      })}

      {isCompany &&
        textInput('taxno', t('taxno'), {
          isRequired: true,
          placeholder: t('taxnoPlaceholder'),
          hint: t('taxnoHint'),
          autoComplete: 'off',
          maxLength: 24,
        })}

      {textInput('email', t('email'), {
        isRequired: true,
        placeholder: t('emailPlaceholder'),
        hint: t('emailHint'),
        type: 'email',
        inputMode: 'email',
        autoComplete: 'email',
        maxLength: 100,
      })}

      {isCompany && (
        <div className={styles.more} data-open={isMoreOpen || undefined}>
          <button
            type="button"
            className={styles.moreToggle}
            aria-expanded={isMoreOpen}
            aria-controls={`${baseId}-more`}
            data-testid="invoice-more"
            onClick={() => setIsMoreOpen((open) => !open)}
          >
            <span>{t('more')}</span>
            <ChevronDownIcon size={16} className={styles.moreChevron} />
          </button>
          {isMoreOpen && (
            <div id={`${baseId}-more`} className={styles.moreBody}>
              <p className={styles.moreHint}>{t('moreHint')}</p>
              <div className={styles.moreGrid}>
                {textInput('address', t('address'), {
                  isRequired: false,
                  placeholder: t('addressPlaceholder'),
                  autoComplete: 'street-address',
                  maxLength: 100,
                })}
                {textInput('phone', t('phone'), {
                  isRequired: false,
                  placeholder: t('phonePlaceholder'),
                  type: 'tel',
                  inputMode: 'tel',
                  autoComplete: 'tel',
                  maxLength: 24,
                })}
                {textInput('bank', t('bank'), { isRequired: false, placeholder: t('bankPlaceholder'), autoComplete: 'off', maxLength: 50 })}
                {textInput('bankaccount', t('bankaccount'), {
                  isRequired: false,
                  placeholder: t('bankaccountPlaceholder'),
                  inputMode: 'numeric',
                  autoComplete: 'off',
                  maxLength: 30,
                })}
              </div>
            </div>
          )}
        </div>
      )}

      <div className={formPage.footer}>
        <FormError testId="invoice-error">{formError}</FormError>
        <button
          type="submit"
          className={formPage.primary}
          data-testid="invoice-submit"
          disabled={isSending}
          aria-busy={isSending || undefined}
        >
          {isSending && <Spinner size={16} tone="light" />}
          {isSending ? t('submitting') : t('submit')}
        </button>
      </div>
    </form>
  );
}

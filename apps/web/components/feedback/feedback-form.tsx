'use client';

import {
  FEEDBACK_LIMITS,
  FEEDBACK_PRODUCTS,
  endpoints,
  validateScreenshotFiles,
  type ImageType,
  type TComplaintCategory,
  type TFeedbackCategory,
  type TFeedbackProduct,
} from '@xcad/protocol';
import Image from 'next/image';
import { cardClass } from '@/components/ui/card';
import { boundField, FieldError, FieldHint, FieldLabel, FormError, formClasses, TextInputField } from '@/components/ui/form';
import Link from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent, FormEvent, ReactNode } from 'react';
import { useToast } from '@/components/app/app-state';
import { useSession } from '@/components/auth/session-provider';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { CheckIcon, CloseIcon, CopyIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { apiClient } from '@/lib/api/client';
import {
  CATEGORIES,
  TEXT_FIELDS,
  base64Of,
  contentLength,
  imageTypeOf,
  initialValues,
  kindOf,
  refusalOf,
  validateField,
  validateForm,
} from '@/lib/feedback/feedback-form';
import type { FieldErrors, FormField, FormValues, FormVariant, TextField } from '@/lib/feedback/feedback-form';
import formPage from '@/components/ui/form-page.module.css';
import styles from './feedback.module.css';

// The feedback (/意见反馈.html, /jianyi.html) and complaint (/complaint.html) form (decision 0013):
// labelled fields, each checked on blur and on submit with the API's own rules and messages,
// screenshots checked by their bytes before they are sent, then a thank-you with the ticket number.

interface Screenshot {
  readonly id: number;
  readonly file: File;
  readonly url: string;
  readonly type: ImageType;
}

const MAX_MB = FEEDBACK_LIMITS.screenshotMaxBytes / 1024 / 1024;

/** Copy keys that differ between the three pages. */
const COPY = {
  feedback: {
    title: 'feedbackTitle',
    content: 'content',
    contentPlaceholder: 'contentPlaceholder',
    submit: 'submit',
    thanks: 'feedbackTitle',
    body: 'feedbackBody',
  },
  jianyi: {
    title: 'jianyiTitle',
    content: 'jianyiContent',
    contentPlaceholder: 'jianyiContentPlaceholder',
    submit: 'jianyiSubmit',
    thanks: 'jianyiTitle',
    body: 'feedbackBody',
  },
  complaint: {
    title: 'complaintTitle',
    content: 'complaintContent',
    contentPlaceholder: 'complaintContentPlaceholder',
    submit: 'complaintSubmit',
    thanks: 'complaintTitle',
    body: 'complaintBody',
  },
} as const;

function ImageAddIcon() {
  return (
    <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" className={styles.addIcon}>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <circle cx="8.5" cy="10" r="1.6" />
      <path d="m4 17 5-4.5 3.5 3 3-2.5L20 17" />
      <path d="M19 2v5M16.5 4.5h5" />
    </svg>
  );
}

/** Marks a form as live once React has attached it: before hydration a blur or a submit has no handler. */
function markLive(form: HTMLFormElement | null): void {
  form?.setAttribute('data-ready', '');
}

export function FeedbackForm({ variant }: { readonly variant: FormVariant }) {
  const t = useTranslations('feedback');
  const kind = kindOf(variant);
  const copy = COPY[variant];
  const session = useSession();
  const toast = useToast();
  const { href } = useSiteLocale();
  const baseId = useId();
  const idOf = (field: FormField) => `${baseId}-${field}`;
  const errorIdOf = (field: FormField) => `${baseId}-error-${field}`;

  const [values, setValues] = useState<FormValues>(() => initialValues(variant));
  // Until the contact is edited, it shows the signed-in user's mobile (if the account has one).
  const [isContactEdited, setIsContactEdited] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [screenshots, setScreenshots] = useState<readonly Screenshot[]>([]);
  const [formError, setFormError] = useState('');
  const [isSending, setIsSending] = useState(false);
  const [ticketNo, setTicketNo] = useState('');
  const thanksHeading = useRef<HTMLHeadingElement>(null);
  const shown = useRef<readonly Screenshot[]>([]);
  const nextShotId = useRef(1);

  const accountMobile = session.user?.bindmobile ?? '';
  const isPrefilled = !isContactEdited && accountMobile !== '';
  const current: FormValues = isPrefilled ? { ...values, contact: accountMobile } : values;

  // Object URLs of the thumbnails live as long as the thumbnails.
  useEffect(() => {
    shown.current = screenshots;
  }, [screenshots]);
  useEffect(() => () => shown.current.forEach((shot) => URL.revokeObjectURL(shot.url)), []);

  useEffect(() => {
    if (ticketNo !== '') thanksHeading.current?.focus();
  }, [ticketNo]);

  const setFieldError = (field: FormField, message: string) => setErrors((previous) => ({ ...previous, [field]: message }));

  function change(field: TextField, value: string) {
    if (field === 'contact') setIsContactEdited(true);
    setValues((previous) => ({ ...previous, contact: current.contact, [field]: value }));
    // A field already showing a problem is re-checked as it is corrected.
    if (errors[field]) setFieldError(field, validateField(kind, field, value));
    if (formError) setFormError('');
  }

  function blur(field: TextField) {
    setFieldError(field, validateField(kind, field, current[field]));
  }

  function focusField(field: FormField) {
    document.getElementById(idOf(field))?.focus();
  }

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const files = Array.from(input.files ?? []);
    // The same file may be chosen again after it was removed.
    input.value = '';
    if (files.length === 0) return;
    const typed = await Promise.all(files.map(async (file) => ({ file, type: await imageTypeOf(file) })));
    const problem = validateScreenshotFiles([
      ...screenshots.map(({ file, type }) => ({ size: file.size, type })),
      ...typed.map(({ file, type }) => ({ size: file.size, type })),
    ]);
    setFieldError('screenshots', problem);
    if (problem !== '') return;
    const added = typed.map(({ file, type }) => ({
      id: nextShotId.current++,
      file,
      url: URL.createObjectURL(file),
      type: type as ImageType,
    }));
    setScreenshots((previous) => [...previous, ...added]);
  }

  function remove(id: number) {
    const removed = screenshots.find((shot) => shot.id === id);
    if (removed) URL.revokeObjectURL(removed.url);
    setScreenshots((previous) => previous.filter((shot) => shot.id !== id));
    setFieldError('screenshots', '');
  }

  async function send(): Promise<string> {
    const client = await apiClient();
    const common = {
      content: current.content,
      contact: current.contact,
      screenshots: await Promise.all(screenshots.map((shot) => base64Of(shot.file))),
      pagepath: window.location.pathname,
      usertoken: session.user?.usertoken,
    };
    if (kind === 'feedback') {
      const answer = await client.call(endpoints.feedbacksubmit, {
        ...common,
        category: current.category as TFeedbackCategory,
        product: current.product as TFeedbackProduct,
      });
      return answer.ticketno;
    }
    const answer = await client.call(endpoints.complaintsubmit, {
      ...common,
      category: current.category as TComplaintCategory,
      orderno: current.orderno,
      contactname: current.contactname,
    });
    return answer.ticketno;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSending) return;
    const found: FieldErrors = { ...validateForm(kind, current), ...(errors.screenshots ? { screenshots: errors.screenshots } : {}) };
    setErrors(found);
    const firstInvalid = [...TEXT_FIELDS[kind], 'screenshots' as const].find((field) => found[field]);
    if (firstInvalid !== undefined) {
      setFormError(t('form.errorSummary'));
      focusField(firstInvalid);
      return;
    }
    setFormError('');
    setIsSending(true);
    try {
      setTicketNo(await send());
    } catch (error) {
      const refusal = refusalOf(error, kind, t('form.failed'));
      if (refusal.field === null) {
        setFormError(refusal.message);
      } else {
        setFieldError(refusal.field, refusal.message);
        focusField(refusal.field);
      }
    } finally {
      setIsSending(false);
    }
  }

  function startAgain() {
    screenshots.forEach((shot) => URL.revokeObjectURL(shot.url));
    setScreenshots([]);
    setValues(initialValues(variant));
    setIsContactEdited(false);
    setErrors({});
    setFormError('');
    setTicketNo('');
  }

  async function copyTicket() {
    try {
      await navigator.clipboard.writeText(ticketNo);
      toast.success(t('thanks.copied'));
    } catch {
      toast.error(t('thanks.copyFailed'));
    }
  }

  if (ticketNo !== '') {
    return (
      <section className={cardClass(formPage.formCard, styles.thanks)} data-testid="feedback-thanks" aria-labelledby={`${baseId}-thanks`}>
        <span className={styles.thanksIcon} aria-hidden="true">
          <CheckIcon size={30} />
        </span>
        <h2 id={`${baseId}-thanks`} className={styles.thanksTitle} ref={thanksHeading} tabIndex={-1}>
          {t(`thanks.${copy.thanks}`)}
        </h2>
        <p className={styles.thanksBody}>{t(`thanks.${copy.body}`)}</p>
        <div className={styles.ticket}>
          <span className={styles.ticketLabel}>{t('thanks.ticket')}</span>
          <strong className={styles.ticketNo} data-testid="ticket-no">
            {ticketNo}
          </strong>
          <button type="button" className={styles.copy} onClick={() => void copyTicket()}>
            <CopyIcon size={15} />
            {t('thanks.copy')}
          </button>
        </div>
        <p className={styles.ticketHint}>{t('thanks.ticketHint')}</p>
        <div className={styles.thanksActions}>
          <Link className={formPage.primary} href={href('/')}>
            {t('thanks.home')}
          </Link>
          <Link className={formPage.secondary} href={href('/help.html')}>
            {t('thanks.help')}
          </Link>
          <button type="button" className={styles.link} data-testid="feedback-again" onClick={startAgain}>
            {t('thanks.again')}
          </button>
        </div>
      </section>
    );
  }

  const describedBy = (field: FormField, ...more: string[]) => [...more, errorIdOf(field)].join(' ');
  const invalid = (field: FormField) => (errors[field] ? true : undefined);
  const length = contentLength(current.content);
  const contentMin = kind === 'feedback' ? FEEDBACK_LIMITS.feedbackContentMin : FEEDBACK_LIMITS.complaintContentMin;
  const contentMax = kind === 'feedback' ? FEEDBACK_LIMITS.feedbackContentMax : FEEDBACK_LIMITS.complaintContentMax;
  const categoryLabel = kind === 'feedback' ? t('form.category') : t('form.complaintCategory');

  const textInput = (
    field: 'orderno' | 'contactname' | 'contact',
    label: string,
    placeholder: string,
    extra: { isRequired: boolean; hint?: ReactNode; autoComplete: string; maxLength: number },
  ) => (
    <TextInputField
      {...boundField({ idOf, errorIdOf, values: current, errors, change, blur }, field)}
      label={label}
      isRequired={extra.isRequired}
      optionalText={t('optional')}
      hint={extra.hint}
      errorTestId={`error-${field}`}
      fieldClassName={formPage.field}
      inputClassName={formPage.input}
      data-testid={`field-${field}`}
      placeholder={placeholder}
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
      data-testid="feedback-form"
      aria-labelledby={`${baseId}-title`}
    >
      <div className={formPage.cardHeader}>
        <h2 id={`${baseId}-title`} className={formPage.cardTitle}>
          {t(`form.${copy.title}`)}
        </h2>
        <p className={formPage.requiredNote}>{t('form.requiredNote')}</p>
      </div>

      <fieldset className={formPage.field}>
        <legend className={formPage.legend}>
          <FieldLabel text={categoryLabel} isRequired optionalText={t('optional')} />
        </legend>
        <div className={styles.chips}>
          {CATEGORIES[kind].map((category, index) => (
            <label key={category} className={styles.chip}>
              <input
                type="radio"
                name="category"
                value={category}
                id={index === 0 ? idOf('category') : undefined}
                className="visually-hidden"
                data-testid={`category-${category}`}
                checked={current.category === category}
                aria-invalid={invalid('category')}
                aria-describedby={errorIdOf('category')}
                onChange={() => {
                  change('category', category);
                  setFieldError('category', '');
                }}
              />
              <span>{t(`${kind === 'feedback' ? 'categories' : 'complaintCategories'}.${category}`)}</span>
            </label>
          ))}
        </div>
        <FieldError id={errorIdOf('category')} testId="error-category" message={errors.category} />
      </fieldset>

      {kind === 'feedback' && (
        <div className={formPage.field}>
          <FieldLabel htmlFor={idOf('product')} text={t('form.product')} isRequired optionalText={t('optional')} />
          <select
            id={idOf('product')}
            className={`${formPage.input} ${formPage.select} ${styles.narrowSelect}`}
            data-testid="field-product"
            name="product"
            value={current.product}
            aria-invalid={invalid('product')}
            aria-describedby={describedBy('product')}
            aria-required
            onChange={(event) => {
              change('product', event.target.value);
              setFieldError('product', validateField(kind, 'product', event.target.value));
            }}
            onBlur={() => blur('product')}
          >
            <option value="">{t('form.productPlaceholder')}</option>
            {FEEDBACK_PRODUCTS.map((product) => (
              <option key={product} value={product}>
                {t(`products.${product}`)}
              </option>
            ))}
          </select>
          <FieldError id={errorIdOf('product')} testId="error-product" message={errors.product} />
        </div>
      )}

      {kind === 'complaint' &&
        textInput('orderno', t('form.orderNo'), t('form.orderNoPlaceholder'), { isRequired: false, autoComplete: 'off', maxLength: 40 })}

      <div className={formPage.field}>
        <FieldLabel htmlFor={idOf('content')} text={t(`form.${copy.content}`)} isRequired optionalText={t('optional')} />
        <textarea
          id={idOf('content')}
          className={`${formPage.input} ${formPage.textarea}`}
          data-testid="field-content"
          name="content"
          rows={7}
          value={current.content}
          placeholder={t(`form.${copy.contentPlaceholder}`, { min: contentMin })}
          aria-invalid={invalid('content')}
          aria-describedby={describedBy('content', `${idOf('content')}-counter`)}
          aria-required
          onChange={(event) => change('content', event.target.value)}
          onBlur={() => blur('content')}
        />
        <div className={styles.counterRow}>
          <span className={`${formClasses.hint} ${styles.counterHint}`}>{t('form.counterHint', { min: contentMin })}</span>
          <span
            id={`${idOf('content')}-counter`}
            className={
              length > contentMax || (length > 0 && length < contentMin) ? `${styles.counter} ${styles.counterWarn}` : styles.counter
            }
            data-testid="content-counter"
          >
            {t('form.counter', { count: length, max: contentMax })}
          </span>
        </div>
        <FieldError id={errorIdOf('content')} testId="error-content" message={errors.content} />
      </div>

      {kind === 'complaint' &&
        textInput('contactname', t('form.contactName'), t('form.contactNamePlaceholder'), {
          isRequired: false,
          autoComplete: 'name',
          maxLength: 40,
        })}

      {textInput(
        'contact',
        kind === 'feedback' ? t('form.contact') : t('form.complaintContact'),
        kind === 'feedback' ? t('form.contactPlaceholder') : t('form.complaintContactPlaceholder'),
        {
          isRequired: true,
          autoComplete: 'tel',
          maxLength: 80,
          ...(isPrefilled ? { hint: t('form.contactPrefilled') } : {}),
        },
      )}

      <div className={formPage.field} role="group" aria-labelledby={`${idOf('screenshots')}-label`}>
        <span id={`${idOf('screenshots')}-label`} className={formClasses.label}>
          {t('form.screenshots')}
          <span className={formClasses.optional}>{t('optional')}</span>
        </span>
        <ul className={styles.shots}>
          {screenshots.map((shot, index) => (
            <li key={shot.id} className={styles.shot} data-testid="screenshot-thumb">
              <Image
                src={shot.url}
                alt={t('form.screenshotAlt', { n: index + 1, name: shot.file.name })}
                width={96}
                height={96}
                unoptimized
              />
              <button
                type="button"
                className={styles.remove}
                data-testid="screenshot-remove"
                aria-label={t('form.removeScreenshot', { n: index + 1 })}
                title={t('form.removeScreenshot', { n: index + 1 })}
                onClick={() => remove(shot.id)}
              >
                <CloseIcon size={14} />
              </button>
            </li>
          ))}
          {screenshots.length < FEEDBACK_LIMITS.screenshotMaxCount && (
            <li>
              <label className={styles.add}>
                <input
                  id={idOf('screenshots')}
                  type="file"
                  accept="image/png,image/jpeg,image/webp"
                  multiple
                  className="visually-hidden"
                  data-testid="field-screenshots"
                  aria-invalid={invalid('screenshots')}
                  aria-describedby={describedBy('screenshots', `${idOf('screenshots')}-hint`)}
                  onChange={(event) => void pick(event)}
                />
                <ImageAddIcon />
                <span>{t('form.addScreenshot')}</span>
              </label>
            </li>
          )}
        </ul>
        <FieldHint id={`${idOf('screenshots')}-hint`}>
          {t('form.screenshotsHint', { count: FEEDBACK_LIMITS.screenshotMaxCount, size: MAX_MB })}
        </FieldHint>
        <FieldError id={errorIdOf('screenshots')} testId="error-screenshots" message={errors.screenshots} />
      </div>

      <div className={formPage.footer}>
        <FormError testId="feedback-error">{formError}</FormError>
        <button
          type="submit"
          className={formPage.primary}
          data-testid="feedback-submit"
          disabled={isSending}
          aria-busy={isSending || undefined}
        >
          {isSending && <Spinner size={16} tone="light" />}
          {isSending ? t('form.submitting') : t(`form.${copy.submit}`)}
        </button>
        <p className={styles.privacy}>
          {t.rich('form.privacy', {
            link: (chunks) => (
              <Link href={href('/privacy.html')} className={styles.inlineLink}>
                {chunks}
              </Link>
            ),
          })}
        </p>
      </div>
    </form>
  );
}

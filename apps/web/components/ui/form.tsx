import type { InputHTMLAttributes, ReactNode } from 'react';
import styles from './form.module.css';

// The parts the site's forms share (decision 0034): a field's label, its hint and error line,
// the form's own error, and a text field made of them. The caller keeps the layout (the field's
// block, the input's look) in its module and passes those class names in.

/** Class names of the shared parts, for markup the components below do not cover. */
export const formClasses = { label: styles.label, optional: styles.optional, hint: styles.hint } as const;

interface FieldLabelProps {
  /** The control it names; without one the label is a span (the name of a group). */
  readonly htmlFor?: string;
  readonly text: string;
  readonly isRequired: boolean;
  /** The tag an optional field carries ("optional" in the form's language). */
  readonly optionalText: string;
}

/** A field's name with a required mark or an "optional" tag. */
export function FieldLabel({ htmlFor, text, isRequired, optionalText }: FieldLabelProps) {
  const marker = isRequired ? (
    <span className={styles.requiredMark} aria-hidden="true">
      *
    </span>
  ) : (
    <span className={styles.optional}>{optionalText}</span>
  );
  const Tag = htmlFor === undefined ? 'span' : 'label';
  return (
    <Tag className={styles.label} htmlFor={htmlFor}>
      {text}
      {marker}
    </Tag>
  );
}

/** The line under a field; it keeps its height while empty, so a message does not move the form. */
export function FieldError({
  id,
  testId,
  message,
}: {
  readonly id: string;
  readonly testId: string;
  readonly message: string | undefined;
}) {
  return (
    <p id={id} className={styles.error} data-testid={testId} aria-live="polite">
      {message}
    </p>
  );
}

export function FieldHint({ id, children }: { readonly id: string; readonly children: ReactNode }) {
  return (
    <p id={id} className={styles.hint}>
      {children}
    </p>
  );
}

/** The form's own error (a refusal that names no field); hidden while empty. */
export function FormError({ testId, children }: { readonly testId: string; readonly children: ReactNode }) {
  return (
    <p className={styles.formError} role="alert" data-testid={testId}>
      {children}
    </p>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'aria-invalid' | 'aria-describedby' | 'aria-required'>;

export interface TextInputFieldProps extends InputProps {
  readonly id: string;
  readonly label: string;
  readonly isRequired: boolean;
  readonly optionalText: string;
  readonly hint?: ReactNode;
  readonly error: string | undefined;
  readonly errorId: string;
  readonly errorTestId: string;
  /** The caller's classes for the field's block and for the input. */
  readonly fieldClassName: string | undefined;
  readonly inputClassName: string | undefined;
}

/** What a form keeps of its text fields: their ids, values and errors, and what a change or leaving does. */
export interface FieldState<F extends string> {
  readonly idOf: (field: F) => string;
  readonly errorIdOf: (field: F) => string;
  readonly values: Readonly<Record<F, string>>;
  readonly errors: Readonly<Partial<Record<F, string>>>;
  readonly change: (field: F, value: string) => void;
  readonly blur: (field: F) => void;
}

/** The props of a TextInputField that come from its form's state. */
export function boundField<F extends string>(form: FieldState<F>, field: F) {
  return {
    id: form.idOf(field),
    name: field,
    value: form.values[field],
    error: form.errors[field],
    errorId: form.errorIdOf(field),
    onChange: (event: { target: { value: string } }) => form.change(field, event.target.value),
    onBlur: () => form.blur(field),
  };
}

/** A labelled text input with its hint and error line, described by both for assistive technology. */
export function TextInputField({
  id,
  label,
  isRequired,
  optionalText,
  hint,
  error,
  errorId,
  errorTestId,
  fieldClassName,
  inputClassName,
  ...input
}: TextInputFieldProps) {
  const hintId = `${id}-hint`;
  return (
    <div className={fieldClassName}>
      <FieldLabel htmlFor={id} text={label} isRequired={isRequired} optionalText={optionalText} />
      <input
        {...input}
        id={id}
        className={inputClassName}
        aria-invalid={error ? true : undefined}
        aria-describedby={[...(hint ? [hintId] : []), errorId].join(' ')}
        aria-required={isRequired || undefined}
      />
      {hint && <FieldHint id={hintId}>{hint}</FieldHint>}
      <FieldError id={errorId} testId={errorTestId} message={error} />
    </div>
  );
}

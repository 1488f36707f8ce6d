import type { ReactNode } from 'react';

interface SearchFormProps {
  /** The list page the form submits to (a plain GET, so it works without JavaScript). */
  readonly action: string;
  /** The query parameter and its current value. */
  readonly name: string;
  readonly query: string;
  readonly maxLength: number;
  readonly inputId: string;
  readonly label: string;
  readonly placeholder: string;
  readonly submitText: string;
  /** The page's classes: they compose search-box.module.css's input and button with their sizes. */
  readonly classes: { readonly form: string | undefined; readonly input: string | undefined; readonly button: string | undefined };
  /** `data-testid`s of the input and the button, and of the form where a test reads it. */
  readonly testIds: { readonly input: string; readonly submit: string; readonly form?: string };
  /** Hidden fields that keep the list's other filters. */
  readonly children?: ReactNode;
}

/** The search box of a list page: a labelled search input and its button in a GET form. */
export function SearchForm({
  action,
  name,
  query,
  maxLength,
  inputId,
  label,
  placeholder,
  submitText,
  classes,
  testIds,
  children,
}: SearchFormProps) {
  return (
    <form className={classes.form} action={action} method="get" role="search" data-testid={testIds.form}>
      <label htmlFor={inputId} className="visually-hidden">
        {label}
      </label>
      <input
        id={inputId}
        className={classes.input}
        type="search"
        name={name}
        defaultValue={query}
        maxLength={maxLength}
        placeholder={placeholder}
        data-testid={testIds.input}
      />
      {children}
      <button className={classes.button} type="submit" data-testid={testIds.submit}>
        {submitText}
      </button>
    </form>
  );
}

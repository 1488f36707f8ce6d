'use client';

import { useState } from 'react';
import { refusalOf } from '@/lib/auth/login-flow';
import type { SmsSender } from './use-sms-sender';

// The one error line and the busy flag of a sign-in or account form: the first failed client check
// shows without calling the server; otherwise the call runs with the form busy (its button
// disabled, a second submit ignored) and a refusal shows on the same line.

export interface FormSubmit {
  readonly error: string;
  readonly isBusy: boolean;
  setError(message: string): void;
  /** Wraps a setter so that editing the field also clears the error line. */
  edited<T>(set: (value: T) => void): (value: T) => void;
  /** Sends an SMS code to `phone`; a refused send shows on the error line. */
  sendCode(sender: SmsSender, phone: string): Promise<void>;
  /**
   * Shows `problem` when a client check failed; else runs `call`, which throws a refusal (shown as
   * `messageOf` reads it) or resolves with a message of its own, '' or nothing when all went well.
   */
  submit(problem: string, call: () => Promise<string | void>): Promise<void>;
}

export function useFormSubmit(messageOf: (failure: unknown) => string = (failure) => refusalOf(failure).message): FormSubmit {
  const [error, setError] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  return {
    error,
    isBusy,
    setError,
    edited: (set) => (value) => {
      set(value);
      setError('');
    },
    async sendCode(sender, phone) {
      setError('');
      setError((await sender.send(phone)).message);
    },
    async submit(problem, call) {
      if (isBusy) return;
      setError(problem);
      if (problem) return;
      setIsBusy(true);
      try {
        setError((await call()) ?? '');
      } catch (failure) {
        setError(messageOf(failure));
      } finally {
        setIsBusy(false);
      }
    },
  };
}

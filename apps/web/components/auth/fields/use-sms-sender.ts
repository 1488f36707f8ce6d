'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import {
  CAPTCHA_DEFAULTS,
  SMS_FORM_ERROR,
  SMS_FORM_MESSAGES,
  checkSmsSendForm,
  endpoints,
  maskImageCode,
  type SmsFormErrorCode,
  type TSmsVerifyType,
} from '@xcad/protocol';
import { useToast } from '@/components/app/app-state';
import { apiClient } from '@/lib/api/client';
import { countdownEndsAt, refusalOf, retryAfterOf, secondsLeft, smsSendFailure } from '@/lib/auth/login-flow';

// spec §4, §8: sending an SMS code — validate the phone, send, fetch and show an image captcha when
// the server asks (the send is then repeated with its value), and refuse resending for 60 s.

interface SmsSendResult {
  readonly isSent: boolean;
  readonly formError: SmsFormErrorCode;
  /** '' when sent, else what the form's error line shows. */
  readonly message: string;
}

export interface SmsCaptcha {
  readonly isShown: boolean;
  /** A `data:image/png` URL; '' while loading or when the image could not be fetched. */
  readonly imageUrl: string;
  readonly value: string;
  /** Takes the typed text; keeps word characters and slashes, cut to the captcha length (spec §5). */
  setValue(value: string): void;
  /** A new image (a click on the image); the typed value is cleared. */
  refresh(): void;
}

export interface SmsSender {
  send(phone: string): Promise<SmsSendResult>;
  /** Seconds before another code may be requested; 0 when idle. */
  readonly countdown: number;
  readonly isSending: boolean;
  readonly captcha: SmsCaptcha;
  /** The outcome of the last send attempt (0 and '' after a success). */
  readonly formError: SmsFormErrorCode;
  readonly message: string;
  /** The phone the last code was sent to; '' before any. */
  readonly sentTo: string;
}

export interface SmsSenderOptions {
  readonly verifytype: TSmsVerifyType;
  /** spec §5: registering always needs an image code, so its captcha is there from the start. */
  readonly isCaptchaAlwaysShown?: boolean;
}

/** forgetpwd codes come from safsmsverify, which refuses unregistered phones (spec §7). */
function sendEndpointOf(verifytype: TSmsVerifyType) {
  return verifytype === 'forgetpwd' ? endpoints.safsmsverify : endpoints.smsverify;
}

/** A new image captcha of spec §9's size (a data URL), or the error to show. */
async function fetchCaptchaImage(): Promise<{ url: string; error: string }> {
  try {
    const client = await apiClient();
    const answer = await client.call(endpoints.imgverify, {
      width: CAPTCHA_DEFAULTS.width,
      height: CAPTCHA_DEFAULTS.height,
      fontsize: CAPTCHA_DEFAULTS.fontSize,
      length: CAPTCHA_DEFAULTS.length,
    });
    return { url: answer.message ?? '', error: '' };
  } catch (error) {
    return { url: '', error: refusalOf(error).message };
  }
}

export function useSmsSender({ verifytype, isCaptchaAlwaysShown = false }: SmsSenderOptions): SmsSender {
  const t = useTranslations('login');
  const toast = useToast();
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  const [isSending, setIsSending] = useState(false);
  const [isCaptchaShown, setIsCaptchaShown] = useState(isCaptchaAlwaysShown);
  const [imageUrl, setImageUrl] = useState('');
  const [captchaValue, setCaptchaValue] = useState('');
  const [result, setResult] = useState<SmsSendResult>({ isSent: false, formError: SMS_FORM_ERROR.none, message: '' });
  const [sentTo, setSentTo] = useState('');
  // Read synchronously by send(): a double click must not send twice, nor a send during the wait.
  const isSendingRef = useRef(false);
  const endsAtRef = useRef<number | null>(null);
  const captchaRequest = useRef(0);

  // Only the newest image counts: the server keeps one captcha per device.
  const loadCaptcha = useCallback(() => {
    const request = ++captchaRequest.current;
    return fetchCaptchaImage().then((image) => {
      if (request === captchaRequest.current && image.url) setImageUrl(image.url);
      return image.error;
    });
  }, []);

  useEffect(() => {
    if (!isCaptchaAlwaysShown) return;
    let isCurrent = true;
    void loadCaptcha().then((message) => {
      if (isCurrent && message) setResult({ isSent: false, formError: SMS_FORM_ERROR.networkError, message });
    });
    return () => {
      isCurrent = false;
    };
  }, [isCaptchaAlwaysShown, loadCaptcha]);

  useEffect(() => {
    if (endsAt === null) return;
    const timer = setInterval(() => {
      const time = Date.now();
      setNow(time);
      if (secondsLeft(endsAt, time) === 0) {
        endsAtRef.current = null;
        setEndsAt(null);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [endsAt]);

  const refresh = useCallback(() => {
    setCaptchaValue('');
    setImageUrl('');
    void loadCaptcha();
  }, [loadCaptcha]);

  const send = useCallback(
    async (phone: string): Promise<SmsSendResult> => {
      const report = (outcome: SmsSendResult) => {
        setResult(outcome);
        return outcome;
      };
      const formError = checkSmsSendForm({
        phoneNumber: phone,
        imageCode: captchaValue,
        isImageShown: isCaptchaShown,
        isSending: isSendingRef.current,
        secondsLeft: secondsLeft(endsAtRef.current, Date.now()),
      });
      if (formError !== SMS_FORM_ERROR.none) return report({ isSent: false, formError, message: SMS_FORM_MESSAGES[formError] });

      isSendingRef.current = true;
      setIsSending(true);
      try {
        const client = await apiClient();
        await client.call(sendEndpointOf(verifytype), {
          account: phone,
          verifytype,
          imgcode: isCaptchaShown ? captchaValue : undefined,
        });
        const time = Date.now();
        endsAtRef.current = countdownEndsAt(time);
        setNow(time);
        setEndsAt(endsAtRef.current);
        setSentTo(phone);
        toast.success(t('toast.smsSent'));
        // The server used the captcha up: the next send needs a new image, or none until it asks again.
        if (isCaptchaShown) {
          setCaptchaValue('');
          setImageUrl('');
          if (isCaptchaAlwaysShown) void loadCaptcha();
          else setIsCaptchaShown(false);
        }
        return report({ isSent: true, formError: SMS_FORM_ERROR.none, message: '' });
      } catch (error) {
        const failure = smsSendFailure(refusalOf(error), isCaptchaShown, retryAfterOf(error));
        if (failure.captcha !== 'keep') {
          setIsCaptchaShown(true);
          setCaptchaValue('');
          setImageUrl('');
          void loadCaptcha();
        }
        return report({ isSent: false, formError: failure.formError, message: failure.message });
      } finally {
        isSendingRef.current = false;
        setIsSending(false);
      }
    },
    [captchaValue, isCaptchaShown, isCaptchaAlwaysShown, loadCaptcha, t, toast, verifytype],
  );

  return {
    send,
    countdown: secondsLeft(endsAt, now),
    isSending,
    captcha: {
      isShown: isCaptchaShown,
      imageUrl,
      value: captchaValue,
      setValue: (value: string) => setCaptchaValue(maskImageCode(value, CAPTCHA_DEFAULTS.length)),
      refresh,
    },
    formError: result.formError,
    message: result.message,
    sentTo,
  };
}

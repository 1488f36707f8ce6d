'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { track } from '@/lib/analytics/browser';
import { conversionEvents } from '@/lib/analytics/events';
import { apiClient } from '@/lib/api/client';
import { initialSnapshot, startConversion, type ConversionJob, type ConversionRun, type RunSnapshot } from '@/lib/tools/upload';
import { uploadDeps } from './conversion-calls';

// One conversion at a time on a tool page: starts the upload helper (lib/tools/upload.ts),
// keeps its latest snapshot for the page, and cancels it when the page goes away.

export interface Conversion {
  /** null before the first start and after a reset. */
  readonly snapshot: RunSnapshot | null;
  readonly isRunning: boolean;
  start(job: ConversionJob): void;
  cancel(): void;
  reset(): void;
}

export function useConversion(onFinished: (snapshot: RunSnapshot) => void): Conversion {
  const [snapshot, setSnapshot] = useState<RunSnapshot | null>(null);
  const [isRunning, setIsRunning] = useState(false);
  const run = useRef<ConversionRun | null>(null);
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  }, [onFinished]);

  // Leaving the page ends the upload; the server deletes an abandoned task with the others.
  useEffect(() => () => run.current?.cancel(), []);

  // Set from the click until the run ends: a second click, or one before the client is ready, is ignored.
  const isBusy = useRef(false);
  const isCancelRequested = useRef(false);

  const start = useCallback((job: ConversionJob) => {
    if (isBusy.current) return;
    isBusy.current = true;
    isCancelRequested.current = false;
    setIsRunning(true);
    setSnapshot(initialSnapshot(job.files));
    const startedAt = performance.now();
    void apiClient().then((client) => {
      const current = startConversion(job, { client, ...uploadDeps() }, setSnapshot);
      run.current = current;
      if (isCancelRequested.current) current.cancel();
      void current.finished.then((last) => {
        run.current = null;
        isBusy.current = false;
        setIsRunning(false);
        conversionEvents(job.tasktype, last, performance.now() - startedAt).forEach((event) => track(event));
        finished.current(last);
      });
    });
  }, []);

  const cancel = useCallback(() => {
    isCancelRequested.current = true;
    run.current?.cancel();
  }, []);
  const reset = useCallback(() => {
    if (!isBusy.current) setSnapshot(null);
  }, []);

  return { snapshot, isRunning, start, cancel, reset };
}

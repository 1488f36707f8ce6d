'use client';

import { COURSE_LIMITS, type TCourseLesson } from '@xcad/protocol';
import Link from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CrownIcon } from '@/components/ui/icons';
import { formatDuration, isSaveDue, type LessonAccess } from '@/lib/course/progress';
import styles from './course.module.css';

// The player of one lesson: an HTML5 video (the browser seeks with Range requests the API
// answers), resuming where the user stopped, reporting progress every few seconds while playing,
// on pause and at the end. A member lesson someone may not watch shows its poster with the way in:
// sign in, or the tutorials membership offer.

export interface LessonPlayerProps {
  lesson: TCourseLesson;
  access: LessonAccess;
  hasMembershipFailed: boolean;
  /** Seconds to start from; null while the user's progress is not known yet. */
  resumeFrom: number | null;
  lessonCount: number;
  buyHref: string;
  onSignIn(): void;
  onProgress(lessonId: number, position: number, isCompleted: boolean): void;
}

export function LessonPlayer({
  lesson,
  access,
  hasMembershipFailed,
  resumeFrom,
  lessonCount,
  buyHref,
  onSignIn,
  onProgress,
}: LessonPlayerProps) {
  const t = useTranslations('course');
  const video = useRef<HTMLVideoElement>(null);
  const hasStarted = useRef(false);
  const hasResumed = useRef(false);
  const lastSavedAt = useRef<number | null>(null);
  const lastSavedPosition = useRef<number | null>(null);
  const pendingResume = useRef<number | null>(null);
  const [resumedAt, setResumedAt] = useState<number | null>(null);
  // The latest callback, for the save on leaving the page.
  const report = useRef(onProgress);
  useEffect(() => {
    report.current = onProgress;
  }, [onProgress]);

  const save = (position: number, isCompleted: boolean) => {
    const whole = Math.min(lesson.duration, Math.max(0, Math.floor(position)));
    if (!isCompleted && whole === lastSavedPosition.current) return;
    lastSavedAt.current = Date.now();
    lastSavedPosition.current = whole;
    report.current(lesson.id, whole, isCompleted);
  };

  // Resume once, as soon as both the clip's metadata and the user's progress are known, unless
  // playback has already begun. The metadata may arrive before hydration, hence the effect too.
  const tryResume = useCallback(() => {
    const element = video.current;
    if (element === null || element.readyState < 1 || resumeFrom === null || hasResumed.current || hasStarted.current) return;
    hasResumed.current = true;
    if (resumeFrom <= 0) return;
    pendingResume.current = resumeFrom;
    lastSavedPosition.current = Math.floor(resumeFrom);
    element.currentTime = resumeFrom;
  }, [resumeFrom]);

  useEffect(() => {
    tryResume();
  }, [tryResume]);

  // Leaving the page (or the lesson) keeps where the user was, if it moved since the last save.
  useEffect(() => {
    const element = video.current;
    const keep = () => {
      if (element !== null && hasStarted.current && !element.ended) {
        const whole = Math.floor(element.currentTime);
        if (whole !== lastSavedPosition.current) {
          lastSavedPosition.current = whole;
          report.current(lesson.id, Math.min(lesson.duration, whole), false);
        }
      }
    };
    window.addEventListener('pagehide', keep);
    return () => {
      window.removeEventListener('pagehide', keep);
      keep();
    };
  }, [lesson.id, lesson.duration]);

  if (access !== 'play') {
    return (
      <div className={styles.stage} data-testid="lesson-locked">
        {/* eslint-disable-next-line @next/next/no-img-element -- posters are served by the API's storage */}
        <img className={styles.poster} src={lesson.posterUrl} alt="" width={640} height={360} />
        <div className={styles.lock} role="region" aria-label={t('locked.title')}>
          <span className={styles.lockIcon}>
            <CrownIcon size={22} />
          </span>
          <p className={styles.lockTitle}>{t('locked.title')}</p>
          {access === 'checking' && <p className={styles.lockText}>{hasMembershipFailed ? t('locked.failed') : t('locked.checking')}</p>}
          {access === 'signIn' && (
            <>
              <p className={styles.lockText}>{t('locked.signInText', { count: lessonCount })}</p>
              <div className={styles.lockActions}>
                <button type="button" className={styles.primaryButton} onClick={onSignIn} data-testid="lesson-sign-in">
                  {t('locked.signIn')}
                </button>
                <Link href={buyHref} className={styles.secondaryButton}>
                  {t('locked.buy')}
                </Link>
              </div>
            </>
          )}
          {access === 'buy' && (
            <>
              <p className={styles.lockText}>{t('locked.buyText', { count: lessonCount })}</p>
              <div className={styles.lockActions}>
                <Link href={buyHref} className={styles.primaryButton} data-testid="lesson-buy">
                  {t('locked.buy')}
                </Link>
              </div>
            </>
          )}
        </div>
      </div>
    );
  }

  return (
    <div className={styles.stageWrap}>
      <div className={styles.stage}>
        <video
          ref={video}
          className={styles.video}
          controls
          preload="metadata"
          playsInline
          poster={lesson.posterUrl}
          src={lesson.videoUrl}
          aria-label={t('player.label', { number: lesson.position, title: lesson.title })}
          data-testid="lesson-video"
          onLoadedMetadata={tryResume}
          onSeeked={() => {
            if (pendingResume.current === null) return;
            setResumedAt(pendingResume.current);
            pendingResume.current = null;
          }}
          onPlay={() => {
            hasStarted.current = true;
            // The first save while playing comes one interval after the start, not at second 0.
            lastSavedAt.current ??= Date.now();
          }}
          onTimeUpdate={(event) => {
            const element = event.currentTarget;
            if (!hasStarted.current || element.paused) return;
            if (isSaveDue(lastSavedAt.current, Date.now(), COURSE_LIMITS.saveIntervalSeconds)) save(element.currentTime, false);
          }}
          onPause={(event) => {
            const element = event.currentTarget;
            if (hasStarted.current && !element.ended) save(element.currentTime, false);
          }}
          onEnded={() => save(lesson.duration, true)}
        >
          {t('player.unsupported')}
        </video>
      </div>
      {resumedAt !== null && (
        <p className={styles.resumed} data-testid="lesson-resumed" role="status">
          {t('player.resumed', { time: formatDuration(resumedAt) })}
        </p>
      )}
    </div>
  );
}

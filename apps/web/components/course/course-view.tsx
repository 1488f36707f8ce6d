'use client';

import { ApiClientError, COURSE_ERRORS, endpoints, type TCourseLesson } from '@xcad/protocol';
import Link from '@/components/ui/link';
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { MouseEvent } from 'react';
import { useLoginModal } from '@/components/auth/login-modal-provider';
import { useSession } from '@/components/auth/session-provider';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { CheckIcon, ChevronLeftIcon, ChevronRightIcon } from '@/components/ui/icons';
import { apiClient } from '@/lib/api/client';
import { isSessionRefused } from '@/lib/auth/session-refused';
import {
  completedCountOf,
  formatDuration,
  lessonAccessOf,
  mergeProgress,
  progressMapOf,
  resumePositionOf,
  watchedShareOf,
  type LessonAccess,
  type ProgressMap,
} from '@/lib/course/progress';
import {
  localProgressSnapshot,
  saveLocalProgress,
  serverLocalProgressSnapshot,
  subscribeLocalProgress,
} from '@/lib/course/local-progress-store';
import { LessonPlayer } from './lesson-player';
import styles from './course.module.css';

// /video.html in the browser (decision 0012): the selected lesson's player and the lesson list, with
// progress: a signed-in user's from the API (courseprogress / coursesaveprogress), a visitor's from
// localStorage. Lessons are links (`?lesson=N`, shareable); the server renders the selection.

/** What the API said about the signed-in user holding `token`. */
interface RemoteProgress {
  readonly token: string;
  readonly progress: ProgressMap;
  /** null when the membership could not be read. */
  readonly isMember: boolean | null;
}

export function CourseView({ lessons, selected }: { lessons: readonly TCourseLesson[]; selected: number }) {
  const t = useTranslations('course');
  const { href } = useSiteLocale();
  const { status, user } = useSession();
  const loginModal = useLoginModal();
  const usertoken = user?.usertoken ?? null;
  const account = user?.username;
  const local = useSyncExternalStore(subscribeLocalProgress, localProgressSnapshot, serverLocalProgressSnapshot);
  const [remote, setRemote] = useState<RemoteProgress | null>(null);
  const list = useRef<HTMLOListElement>(null);

  // A signed-in user's progress and membership come from the API; a visitor's from this browser.
  useEffect(() => {
    if (usertoken === null) return;
    let isCurrent = true;
    void (async () => {
      try {
        const client = await apiClient();
        const answer = await client.call(endpoints.courseprogress, { usertoken, account });
        if (isCurrent) setRemote({ token: usertoken, progress: progressMapOf(answer.progress), isMember: answer.ismember });
      } catch (error) {
        // A refused session is ended by the session provider; anything else leaves membership unknown.
        if (!isSessionRefused(error)) console.error('[course] progress could not be read', error);
        if (isCurrent) setRemote({ token: usertoken, progress: {}, isMember: null });
      }
    })();
    return () => {
      isCurrent = false;
    };
  }, [usertoken, account]);

  const remoteNow = usertoken !== null && remote?.token === usertoken ? remote : null;
  const progress: ProgressMap = usertoken === null ? (local ?? {}) : (remoteNow?.progress ?? {});
  const isProgressKnown = status !== 'unknown' && (usertoken === null ? local !== null : remoteNow !== null);
  const isMember = usertoken === null ? false : (remoteNow?.isMember ?? null);
  const hasMembershipFailed = remoteNow !== null && remoteNow.isMember === null;

  const saveProgress = useCallback(
    (lessonId: number, position: number, isCompleted: boolean) => {
      const entry = { position, completed: isCompleted, updatedAt: Math.floor(Date.now() / 1000) };
      if (usertoken === null) {
        saveLocalProgress(lessonId, entry);
        return;
      }
      const update = (change: (current: RemoteProgress) => RemoteProgress) =>
        setRemote((current) => (current !== null && current.token === usertoken ? change(current) : current));
      update((current) => ({
        ...current,
        progress: { ...current.progress, [lessonId]: mergeProgress(current.progress[lessonId], entry) },
      }));
      void (async () => {
        try {
          const client = await apiClient();
          await client.call(endpoints.coursesaveprogress, { usertoken, account, lessonid: lessonId, position, completed: isCompleted });
        } catch (error) {
          // The membership ended while watching: the player shows the offer from now on.
          if (error instanceof ApiClientError && error.code === COURSE_ERRORS.membersOnly.codes[0])
            update((current) => ({ ...current, isMember: false }));
          else if (!isSessionRefused(error)) console.error('[course] progress could not be saved', error);
        }
      })();
    },
    [usertoken, account],
  );

  // The desktop list scrolls on its own: keep the selected lesson in sight (never the page).
  useEffect(() => {
    const element = list.current;
    const current = element?.querySelector<HTMLElement>('[aria-current="true"]');
    if (!element || !current || element.scrollHeight <= element.clientHeight) return;
    const top = current.offsetTop;
    if (top < element.scrollTop || top + current.offsetHeight > element.scrollTop + element.clientHeight) {
      element.scrollTop = top - (element.clientHeight - current.offsetHeight) / 2;
    }
  }, [selected]);

  const lesson = lessons.find((candidate) => candidate.position === selected) ?? lessons[0];
  if (lesson === undefined) return null;
  const sessionState = status === 'unknown' ? 'unknown' : usertoken === null ? 'signedOut' : 'signedIn';
  const accessOf = (item: TCourseLesson): LessonAccess => lessonAccessOf(item.isFree, sessionState, isMember);
  const access = accessOf(lesson);
  const lessonHref = (item: TCourseLesson) => `${href('/video.html')}?lesson=${item.position}`;
  const previous = lessons.find((candidate) => candidate.position === lesson.position - 1);
  const next = lessons.find((candidate) => candidate.position === lesson.position + 1);
  const doneCount = completedCountOf(
    progress,
    lessons.map((item) => item.id),
  );

  // A locked lesson still opens (its URL can be shared); a visitor is asked to sign in at once.
  const openLesson = (item: TCourseLesson) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (accessOf(item) === 'signIn' && event.button === 0 && !event.metaKey && !event.ctrlKey) loginModal.open('phone');
  };

  return (
    <div className={styles.layout} data-testid="video-course">
      <div className={styles.main}>
        <LessonPlayer
          key={lesson.id}
          lesson={lesson}
          access={access}
          hasMembershipFailed={hasMembershipFailed}
          resumeFrom={isProgressKnown ? resumePositionOf(progress[lesson.id], lesson.duration) : null}
          lessonCount={lessons.length}
          buyHref={href('/buy/cadresources.html')}
          onSignIn={() => loginModal.open('phone')}
          onProgress={saveProgress}
        />
        <div className={styles.lessonInfo}>
          <p className={styles.kicker}>
            {t('lessonNumber', { number: lesson.position })}
            <span className={lesson.isFree ? styles.badgeFree : styles.badgeMember}>{lesson.isFree ? t('free') : t('members')}</span>
          </p>
          <h2 className={styles.lessonTitle} data-testid="lesson-title">
            {lesson.title}
          </h2>
          <p className={styles.lessonMeta}>
            <span>{t('lecturer', { name: lesson.lecturer, title: lesson.lecturerTitle })}</span>
            <span>{t('duration', { duration: formatDuration(lesson.duration) })}</span>
          </p>
          <p className={styles.lessonDescription} data-testid="lesson-description">
            {lesson.description}
          </p>
          <nav className={styles.stepper} aria-label={t('stepper')}>
            {previous ? (
              <Link href={lessonHref(previous)} scroll={false} onClick={openLesson(previous)} className={styles.stepLink}>
                <ChevronLeftIcon size={16} />
                {t('previous')}
              </Link>
            ) : (
              <span />
            )}
            {next && (
              <Link href={lessonHref(next)} scroll={false} onClick={openLesson(next)} className={styles.stepLink} data-testid="next-lesson">
                {t('next')}
                <ChevronRightIcon size={16} />
              </Link>
            )}
          </nav>
          {sessionState === 'signedOut' && (
            <p className={styles.hint} data-testid="progress-hint">
              {t('hint.text')}
              <button type="button" className={styles.hintButton} onClick={() => loginModal.open('phone')}>
                {t('hint.action')}
              </button>
            </p>
          )}
        </div>
      </div>

      <aside className={styles.side} aria-labelledby="course-lessons-title">
        <div className={styles.sideHead}>
          <h2 id="course-lessons-title" className={styles.sideTitle}>
            {t('listTitle')}
          </h2>
          <span className={styles.sideCount} data-testid="completed-count">
            {t('completedCount', { done: doneCount, total: lessons.length })}
          </span>
        </div>
        <ol ref={list} className={styles.list} data-testid="lesson-list">
          {lessons.map((item) => {
            const entry = progress[item.id];
            const share = watchedShareOf(entry, item.duration);
            const isCurrent = item.id === lesson.id;
            const percent = Math.round(share * 100);
            return (
              <li key={item.id}>
                <Link
                  href={lessonHref(item)}
                  scroll={false}
                  onClick={openLesson(item)}
                  aria-current={isCurrent ? 'true' : undefined}
                  className={styles.item}
                  data-testid="lesson-item"
                  data-lesson={item.position}
                >
                  <span className={styles.itemNumber}>{String(item.position).padStart(2, '0')}</span>
                  <span className={styles.itemBody}>
                    <span className={styles.itemTitle}>{item.title}</span>
                    <span className={styles.itemMeta}>
                      <span>{item.lecturer}</span>
                      <span>{formatDuration(item.duration)}</span>
                      {item.isFree ? (
                        <span className={styles.badgeFree}>{t('free')}</span>
                      ) : (
                        <span className={styles.badgeMember}>{t('members')}</span>
                      )}
                    </span>
                    {share > 0 && !entry?.completed && (
                      <span
                        className={styles.itemProgress}
                        role="progressbar"
                        aria-valuemin={0}
                        aria-valuemax={100}
                        aria-valuenow={percent}
                        aria-label={t('watched', { percent })}
                        data-testid="lesson-progress"
                      >
                        <span style={{ width: `${percent}%` }} />
                      </span>
                    )}
                  </span>
                  {entry?.completed && (
                    <span className={styles.itemDone} data-testid="lesson-completed" title={t('completed')}>
                      <CheckIcon size={14} />
                      <span className="visually-hidden">{t('completed')}</span>
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ol>
      </aside>
    </div>
  );
}

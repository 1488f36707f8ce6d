'use client';

import type { CarouselOptions } from '@xcad/protocol';
import { Children, useEffect, useReducer, useRef } from 'react';
import type { ReactNode, SyntheticEvent, TouchEvent } from 'react';
import {
  canGoNext,
  canGoPrev,
  carouselReducer,
  initCarouselState,
  resolveCarouselOptions,
  shouldAutoplay,
} from '@/lib/carousel/carousel-state';
import styles from './carousel.module.css';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';

export interface CarouselProps extends Partial<CarouselOptions> {
  /** One child per slide. */
  readonly children: ReactNode;
  /** Accessible name of the carousel region. */
  readonly label: string;
  readonly prevLabel: string;
  readonly nextLabel: string;
  /** Accessible name of each indicator, in slide order; the slide number when missing. */
  readonly indicatorLabels?: readonly string[];
  readonly className?: string;
}

/** Horizontal distance a swipe must cover to change the slide on touch screens. */
const SWIPE_MIN_PX = 40;

/**
 * spec §4 carousel with the defaults of spec §9: advances on a timer, wraps when looping,
 * stops at the end otherwise, pauses while hovered; arrows and indicators are throttled.
 */
export function Carousel({ children, label, prevLabel, nextLabel, indicatorLabels, className, ...options }: CarouselProps) {
  const slides = Children.toArray(children);
  const settings = resolveCarouselOptions(options);
  const [state, dispatch] = useReducer(carouselReducer, undefined, () => initCarouselState(slides.length, settings));
  const touchStartX = useRef<number | null>(null);

  // Slides can change between renders; the index is kept within them (React's "adjust state while rendering").
  if (state.count !== slides.length) dispatch({ type: 'resize', count: slides.length });

  const isRunning = shouldAutoplay(state, settings.autoplay);
  useEffect(() => {
    if (!isRunning) return;
    const timer = setTimeout(() => dispatch({ type: 'tick' }), settings.intervalMs);
    return () => clearTimeout(timer);
  }, [isRunning, state.index, settings.intervalMs]);

  // Throttling uses the events' own time stamps (ms since page load).
  const goTo = (index: number, event: SyntheticEvent) => dispatch({ type: 'goTo', index, now: event.timeStamp });
  const prev = (event: SyntheticEvent) => dispatch({ type: 'prev', now: event.timeStamp });
  const next = (event: SyntheticEvent) => dispatch({ type: 'next', now: event.timeStamp });

  const onTouchStart = (event: TouchEvent) => {
    touchStartX.current = event.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStartX.current;
    const end = event.changedTouches[0]?.clientX;
    touchStartX.current = null;
    if (start === null || end === undefined || Math.abs(end - start) < SWIPE_MIN_PX) return;
    if (end < start) next(event);
    else prev(event);
  };

  const axis = settings.direction === 'vertical' ? 'Y' : 'X';

  return (
    <section
      className={`${styles.carousel} ${className ?? ''}`}
      aria-roledescription="carousel"
      aria-label={label}
      data-direction={settings.direction}
      data-arrow={settings.arrow}
      onMouseEnter={() => dispatch({ type: 'hover', isHovered: true })}
      onMouseLeave={() => dispatch({ type: 'hover', isHovered: false })}
      onTouchStart={onTouchStart}
      onTouchEnd={onTouchEnd}
    >
      <div className={styles.viewport} aria-live={isRunning ? 'off' : 'polite'}>
        <div className={styles.track} style={{ transform: `translate${axis}(-${state.index * 100}%)` }}>
          {slides.map((slide, index) => {
            const isCurrent = index === state.index;
            return (
              <div
                key={index}
                className={styles.slide}
                role="group"
                aria-roledescription="slide"
                aria-label={`${index + 1} / ${slides.length}`}
                aria-hidden={!isCurrent}
                inert={!isCurrent}
              >
                {slide}
              </div>
            );
          })}
        </div>
      </div>

      {settings.arrow !== 'never' && slides.length > 1 && (
        <>
          <button
            type="button"
            className={`${styles.arrow} ${styles.prev}`}
            aria-label={prevLabel}
            onClick={prev}
            disabled={!canGoPrev(state)}
          >
            <ChevronLeftIcon size={22} />
          </button>
          <button
            type="button"
            className={`${styles.arrow} ${styles.next}`}
            aria-label={nextLabel}
            onClick={next}
            disabled={!canGoNext(state)}
          >
            <ChevronRightIcon size={22} />
          </button>
        </>
      )}

      {slides.length > 1 && (
        <div className={styles.indicators}>
          {slides.map((_, index) => (
            <button
              key={index}
              type="button"
              className={styles.indicator}
              aria-label={indicatorLabels?.[index] ?? String(index + 1)}
              aria-current={index === state.index ? 'true' : undefined}
              onMouseEnter={settings.trigger === 'hover' ? (event) => goTo(index, event) : undefined}
              onClick={(event) => goTo(index, event)}
            >
              <span className={styles.indicatorBar} />
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DragEvent, KeyboardEvent, ReactNode } from 'react';
import { useSiteLocale } from '@/components/site/use-site-locale';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { formatBytes } from '@/lib/tools/format';
import { ViewerController, type MeasureState, type Tool } from '@/lib/viewer/controller';
import { budgetOf, currentDevice } from '@/lib/viewer/limits';
import { loadDrawing, prewarmBuildWorker, type LoadHandle } from '@/lib/viewer/loader';
import type { MeasureMode, Point } from '@/lib/viewer/measure';
import type { RendererProblem } from '@/lib/viewer/renderer';
import { fetchStoredFile, linkedFileOf, StoredFileError } from '@/lib/viewer/source';
import type { DrawingNotices, LoadErrorKind, PackedDrawing, PackedLayer, Stage } from '@/lib/viewer/types';
import { ExportDialog } from './export-dialog';
import { LayerPanel } from './layer-panel';
import { MeasurePanel } from './measure-panel';
import { Notices } from './notices';
import { ViewerIcon, type IconName } from './viewer-icons';
import styles from './viewer.module.css';

// /kantu (decision 0021): open a DWG or DXF by drop, picker or link; the file is read, parsed and
// turned into GPU buffers in Web Workers; the canvas is drawn with WebGL. Everything here is the
// chrome around the canvas: the drawing itself is handled by ViewerController, imperatively.

type Phase = 'idle' | 'loading' | 'ready' | 'error';

interface Loading {
  name: string;
  stage: Stage | 'fetching';
  fraction: number;
}

interface Failure {
  kind: LoadErrorKind | RendererProblem;
  detail: string;
  size?: number;
  max?: number;
}

interface Opened {
  name: string;
  size: number;
  kind: 'dxf' | 'dwg';
  seconds: number | null;
  notices: DrawingNotices;
  scenes: string[];
  layers: PackedLayer[];
  insunits: number;
  file: Blob;
}

const ACCEPT = '.dwg,.dxf,application/acad,image/vnd.dwg,image/vnd.dxf,application/dxf';
const DESKTOP_PATH = '/download-lookchart.html';
const CONVERT_PATH = '/tools/cad2pdf';

function markChosen(): number {
  performance.mark('xcad-viewer-file-chosen');
  return performance.now();
}

export function ViewerApp() {
  const t = useTranslations('viewer');
  const { href } = useSiteLocale();
  const [phase, setPhase] = useState<Phase>('idle');
  const [loading, setLoading] = useState<Loading | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [problem, setProblem] = useState<RendererProblem | null>(null);
  const [api, setApi] = useState('');
  const [sceneIndex, setSceneIndex] = useState(0);
  const [tool, setTool] = useState<Tool>('pan');
  const [measureMode, setMeasureMode] = useState<MeasureMode>('distance');
  // The measure panel keeps to the half of the drawing away from the last point picked, so the
  // point (and the line being measured, on a phone's small screen) stays in sight.
  const [measureDock, setMeasureDock] = useState<'top' | 'bottom'>('top');
  const [measure, setMeasure] = useState<MeasureState | null>(null);
  const [layersOpen, setLayersOpen] = useState(false);
  const [visible, setVisible] = useState<boolean[]>([]);
  const [background, setBackground] = useState<'dark' | 'light'>('dark');
  const [lineweights, setLineweights] = useState(true);
  const [fullscreen, setFullscreen] = useState<'none' | 'native' | 'window'>('none');
  const [exporting, setExporting] = useState(false);
  const [isOver, setIsOver] = useState(false);

  const shell = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const glCanvas = useRef<HTMLCanvasElement>(null);
  const textCanvas = useRef<HTMLCanvasElement>(null);
  const uiCanvas = useRef<HTMLCanvasElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const controller = useRef<ViewerController | null>(null);
  const handle = useRef<LoadHandle | null>(null);
  const pending = useRef<{ drawing: PackedDrawing; chosenAt: number } | null>(null);
  const [cursorFeed] = useState(() => new Feed<Point | null>());
  const dragDepth = useRef(0);

  // The controller lives as long as the page: one WebGL context, reused for every drawing.
  useEffect(() => {
    const gl = glCanvas.current,
      text = textCanvas.current,
      ui = uiCanvas.current,
      host = stage.current;
    if (!gl || !text || !ui || !host) return;
    const created = ViewerController.create({ gl, text, ui }, host, {
      onCursor: (p) => cursorFeed.emit(p),
      onMeasure: (state) => setMeasure(state),
      onToolDone: () => {
        setTool('pan');
        controller.current?.setTool('pan');
      },
      onFirstFrame: (ms) => setOpened((o) => (o ? { ...o, seconds: ms / 1000 } : o)),
    });
    if (typeof created === 'string') {
      setProblem(created);
      return;
    }
    controller.current = created;
    setApi(created.api === 'webgl2' ? 'WebGL 2' : 'WebGL 1');
    // The build worker's script loads while the visitor looks for a file.
    const warm = window.setTimeout(prewarmBuildWorker, 300);
    return () => {
      window.clearTimeout(warm);
      created.dispose();
      controller.current = null;
    };
  }, [cursorFeed]);

  // A drawing that arrived is shown once the stage has its size (after the phase switched to ready).
  useEffect(() => {
    if (phase !== 'ready' || !pending.current || !controller.current) return;
    const { drawing, chosenAt } = pending.current;
    pending.current = null;
    // The whole viewer in sight, below the sticky header, before its first frame.
    shell.current?.scrollIntoView({ block: 'start' });
    controller.current.setDrawing(drawing, chosenAt);
  }, [phase]);

  const fail = useCallback((f: Failure) => {
    setFailure(f);
    setPhase('error');
    setLoading(null);
  }, []);

  const openBlob = useCallback(
    (file: Blob, name: string, chosenAt: number) => {
      handle.current?.cancel();
      if (problem) {
        fail({ kind: problem, detail: '' });
        return;
      }
      setExporting(false);
      setPhase('loading');
      setLoading({ name, stage: 'reading', fraction: 0 });
      const budget = budgetOf(currentDevice());
      const h = loadDrawing(
        file,
        budget,
        (s, fraction) => setLoading({ name, stage: s, fraction }),
        (lists) => controller.current?.prepareGlyphs(lists),
      );
      handle.current = h;
      void h.result.then((r) => {
        if (handle.current !== h) return;
        handle.current = null;
        // Ready for the next file.
        window.setTimeout(prewarmBuildWorker, 1000);
        if (r.ok) {
          const model = r.drawing.lists[r.drawing.scenes[0]?.list ?? 0];
          setOpened({
            name,
            size: file.size,
            kind: r.kind,
            seconds: null,
            notices: r.drawing.notices,
            scenes: r.drawing.scenes.map((s) => s.name),
            layers: model?.layers ?? [],
            insunits: r.drawing.insunits,
            file,
          });
          setVisible((model?.layers ?? []).map((l) => l.visible));
          setSceneIndex(0);
          setTool('pan');
          controller.current?.setTool('pan');
          setMeasure(null);
          pending.current = { drawing: r.drawing, chosenAt };
          setLoading(null);
          setPhase('ready');
        } else if (r.error === 'cancelled') {
          setLoading(null);
          setPhase((p) => (p === 'loading' ? (opened ? 'ready' : 'idle') : p));
        } else {
          fail({ kind: r.error, detail: r.message, size: file.size, ...(r.maxBytes ? { max: r.maxBytes } : {}) });
        }
      });
    },
    [fail, opened, problem],
  );

  const openFiles = useCallback(
    (files: File[]) => {
      const file = files[0];
      if (!file) return;
      openBlob(file, file.name, markChosen());
    },
    [openBlob],
  );

  // /kantu?file=...: a drawing of the site (daily pictures, drawing library) opens by link.
  useEffect(() => {
    const linked = linkedFileOf(window.location.search);
    if (!linked) return;
    const chosenAt = markChosen();
    const abort = new AbortController();
    const progress = (fraction: number) => setLoading({ name: linked.name, stage: 'fetching', fraction });
    void Promise.resolve()
      .then(() => {
        setPhase('loading');
        progress(0);
        return fetchStoredFile(linked.path, progress, abort.signal);
      })
      .then(
        (blob) => openBlob(blob, linked.name, chosenAt),
        (error: unknown) => {
          if (abort.signal.aborted) return;
          fail({ kind: error instanceof StoredFileError ? error.failure : 'fetch', detail: '' });
        },
      );
    return () => abort.abort();
    // Once, on arrival: later opens come from the picker.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const onChange = () =>
      setFullscreen(document.fullscreenElement !== null && document.fullscreenElement === shell.current ? 'native' : 'none');
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const chooseTool = (next: Tool) => {
    const value = tool === next ? 'pan' : next;
    setTool(value);
    controller.current?.setTool(value);
    if (value === 'measure') controller.current?.setMeasureMode(measureMode);
  };

  const chooseMeasureMode = (mode: MeasureMode) => {
    setMeasureMode(mode);
    controller.current?.setMeasureMode(mode);
  };

  const chooseScene = (index: number) => {
    setSceneIndex(index);
    controller.current?.setScene(index);
  };

  const changeLayers = (next: boolean[]) => {
    setVisible(next);
    controller.current?.setLayers(next);
  };

  const toggleBackground = () => {
    const next = background === 'dark' ? 'light' : 'dark';
    setBackground(next);
    controller.current?.setBackground(next);
  };

  const toggleLineweights = () => {
    setLineweights(!lineweights);
    controller.current?.setLineweights(!lineweights);
  };

  const toggleFullscreen = () => {
    const el = shell.current;
    if (!el) return;
    if (fullscreen === 'window') {
      setFullscreen('none');
      return;
    }
    if (document.fullscreenElement) {
      void document.exitFullscreen();
      return;
    }
    // iPhone Safari has no element full screen: the viewer then fills the window instead.
    if (typeof el.requestFullscreen === 'function') el.requestFullscreen().catch(() => setFullscreen('window'));
    else setFullscreen('window');
  };

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && tool !== 'pan' && !(measure && measure.points.length)) {
      chooseTool('pan');
      event.preventDefault();
      return;
    }
    if (controller.current?.handleKey(event.key)) event.preventDefault();
  };

  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');
  const dropHandlers = {
    onDragEnter: (event: DragEvent<HTMLDivElement>) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      dragDepth.current += 1;
      setIsOver(true);
    },
    onDragOver: (event: DragEvent<HTMLDivElement>) => {
      if (hasFiles(event)) event.preventDefault();
    },
    onDragLeave: () => {
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setIsOver(false);
    },
    onDrop: (event: DragEvent<HTMLDivElement>) => {
      event.preventDefault();
      dragDepth.current = 0;
      setIsOver(false);
      openFiles(Array.from(event.dataTransfer.files));
    },
  };

  const stageName = opened?.scenes[sceneIndex] ?? 'Model';

  return (
    <div
      ref={shell}
      className={`${styles.shell} ${fullscreen !== 'none' ? styles.fullscreen : ''} ${fullscreen === 'window' ? styles.pseudoFullscreen : ''}`}
      data-testid="viewer"
      data-state={phase}
      data-over={isOver || undefined}
      {...dropHandlers}
    >
      <input
        ref={input}
        className={styles.fileInput}
        type="file"
        accept={ACCEPT}
        tabIndex={-1}
        aria-hidden="true"
        data-testid="viewer-file-input"
        onChange={(event) => {
          const picked = Array.from(event.currentTarget.files ?? []);
          event.currentTarget.value = '';
          openFiles(picked);
        }}
      />

      {phase === 'ready' && opened && (
        <Toolbar
          tool={tool}
          background={background}
          lineweights={lineweights}
          fullscreen={fullscreen !== 'none'}
          layersOpen={layersOpen}
          onOpen={() => input.current?.click()}
          onExtents={() => controller.current?.zoomExtents()}
          onZoom={(f) => controller.current?.zoomBy(f)}
          onTool={chooseTool}
          onLayers={() => setLayersOpen(!layersOpen)}
          onBackground={toggleBackground}
          onLineweights={toggleLineweights}
          onFullscreen={toggleFullscreen}
          onExport={() => setExporting(true)}
        />
      )}

      {phase === 'ready' && opened && <Notices notices={opened.notices} isDwg={opened.kind === 'dwg'} />}

      <div className={styles.body}>
        <div
          ref={stage}
          className={styles.stage}
          hidden={phase !== 'ready'}
          data-testid="viewer-stage"
          data-scene={stageName}
          data-tool={tool}
          tabIndex={0}
          role="application"
          aria-label={t('label')}
          onKeyDown={onKey}
          onPointerDownCapture={(event) => {
            // Only a point picked on the drawing (the canvases let pointers through), not a tap on the panel.
            if (tool !== 'measure' || event.target !== event.currentTarget) return;
            const box = event.currentTarget.getBoundingClientRect();
            setMeasureDock(event.clientY - box.top > box.height / 2 ? 'top' : 'bottom');
          }}
        >
          <canvas ref={glCanvas} className={styles.canvas} data-testid="viewer-canvas" />
          <canvas ref={textCanvas} className={styles.canvas} aria-hidden="true" />
          <canvas ref={uiCanvas} className={styles.canvas} aria-hidden="true" />
          {tool === 'measure' && opened && (
            <MeasurePanel
              mode={measureMode}
              dock={measureDock}
              state={measure}
              insunits={opened.insunits}
              onMode={chooseMeasureMode}
              onClear={() => controller.current?.clearMeasure()}
              onClose={() => chooseTool('pan')}
            />
          )}
        </div>
        {phase === 'ready' && opened && layersOpen && (
          <LayerPanel layers={opened.layers} visible={visible} onChange={changeLayers} onClose={() => setLayersOpen(false)} />
        )}

        {phase === 'idle' && (
          <div
            className={styles.dropzone}
            data-testid="viewer-dropzone"
            data-over={isOver || undefined}
            onClick={(event) => event.target === event.currentTarget && input.current?.click()}
          >
            <span className={styles.dropIcon}>
              <ViewerIcon name="upload" size={48} />
            </span>
            <p className={styles.dropTitle}>{isOver ? t('drop.active') : t('drop.title')}</p>
            <div className={styles.dropActions}>
              <span className={styles.dropOr}>{t('drop.or')}</span>
              <button type="button" className={styles.primaryButton} onClick={() => input.current?.click()} data-testid="viewer-pick">
                {t('drop.pick')}
              </button>
            </div>
            <p className={styles.dropHint}>{t('drop.hint')}</p>
            <p className={styles.privacy} data-testid="viewer-privacy">
              {t('privacy')}
            </p>
          </div>
        )}

        {phase === 'loading' && loading && (
          <div className={styles.progress} role="status" aria-live="polite" data-testid="viewer-progress" data-stage={loading.stage}>
            <Spinner size={28} />
            <p className={styles.progressTitle}>{t('loadingTitle', { name: loading.name })}</p>
            <p className={styles.progressStage}>{t(`stage.${loading.stage}`)}</p>
            <StageBar stage={loading.stage} fraction={loading.fraction} />
            <p className={styles.privacy}>{t('privacy')}</p>
            <button
              type="button"
              className={styles.secondaryButton}
              onClick={() => {
                handle.current?.cancel();
                handle.current = null;
                setLoading(null);
                setPhase(opened ? 'ready' : 'idle');
              }}
            >
              {t('cancel')}
            </button>
          </div>
        )}

        {phase === 'error' && failure && (
          <div className={styles.failure} role="alert" data-testid="viewer-error" data-error={failure.kind}>
            <h2 className={styles.failureTitle}>{t('error.title')}</h2>
            <p>
              {t(`error.${failure.kind}`, {
                detail: failure.detail,
                size: failure.size !== undefined ? formatBytes(failure.size) : '',
                max: failure.max !== undefined ? formatBytes(failure.max) : '',
              })}
            </p>
            {['too-large', 'too-complex', 'memory', 'no-webgl', 'no-vertex-textures', 'unsupported'].includes(failure.kind) && (
              <div className={styles.alternatives}>
                <span>{t('error.alternatives')}</span>
                <Link href={href(DESKTOP_PATH)} data-testid="viewer-desktop-link">
                  {t('error.desktop')}
                </Link>
                <Link href={href(CONVERT_PATH)} data-testid="viewer-convert-link">
                  {t('error.convert')}
                </Link>
              </div>
            )}
            <button type="button" className={styles.primaryButton} onClick={() => input.current?.click()}>
              {t('error.retry')}
            </button>
          </div>
        )}
      </div>

      {phase === 'ready' && opened && opened.scenes.length > 0 && (
        <div className={styles.footer}>
          <div className={styles.tabs} role="tablist" aria-label={t('tabs')}>
            {opened.scenes.map((name, index) => (
              <button
                key={`${index}-${name}`}
                type="button"
                role="tab"
                aria-selected={index === sceneIndex}
                className={styles.tab}
                data-testid="viewer-tab"
                data-scene={name}
                onClick={() => chooseScene(index)}
              >
                {index === 0 && /^model$/i.test(name) ? t('model') : name}
              </button>
            ))}
          </div>
          <StatusBar opened={opened} api={api} cursor={cursorFeed} />
        </div>
      )}

      {exporting && opened && (
        <ExportDialog
          file={opened.file}
          fileName={opened.name}
          kind={opened.kind}
          layout={opened.scenes[sceneIndex] ?? 'Model'}
          background={background === 'dark' ? 'black' : 'white'}
          onClose={() => setExporting(false)}
        />
      )}
    </div>
  );
}

const STAGES: readonly (Stage | 'fetching')[] = ['fetching', 'reading', 'parsing', 'building', 'packing', 'drawing'];

function StageBar({ stage, fraction }: { readonly stage: Stage | 'fetching'; readonly fraction: number }) {
  // Stages after the first reading have no inner progress: the bar moves stage by stage.
  const index = STAGES.indexOf(stage);
  const within = stage === 'fetching' || stage === 'reading' ? fraction : 0.5;
  const value = Math.round(((Math.max(0, index) + within) / STAGES.length) * 100);
  return (
    <div className={styles.bar} role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <span style={{ width: `${value}%` }} />
    </div>
  );
}

/** A value pushed from outside React (the pointer's position) to the one component that shows it. */
class Feed<T> {
  private readonly listeners = new Set<(value: T) => void>();
  emit(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
  listen(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function StatusBar({ opened, api, cursor: feed }: { readonly opened: Opened; readonly api: string; readonly cursor: Feed<Point | null> }) {
  const t = useTranslations('viewer');
  const [cursor, setCursor] = useState<Point | null>(null);
  useEffect(() => feed.listen(setCursor), [feed]);
  const digits = useMemo(() => (Math.abs(cursor?.[0] ?? 0) > 1e5 ? 2 : 4), [cursor]);
  return (
    <div className={styles.status} data-testid="viewer-status">
      <span className={styles.statusCursor} data-testid="viewer-cursor">
        {cursor ? t('status.cursor', { x: cursor[0].toFixed(digits), y: cursor[1].toFixed(digits) }) : '\u00a0'}
      </span>
      <span className={styles.statusFile}>
        {opened.seconds === null
          ? opened.name
          : t('status.opened', { name: opened.name, size: formatBytes(opened.size), seconds: opened.seconds.toFixed(2) })}
      </span>
      <span className={styles.statusPrivacy}>{t('privacyShort')}</span>
      {api && <span className={styles.statusApi}>{t('webgl', { api })}</span>}
    </div>
  );
}

function Toolbar(props: {
  readonly tool: Tool;
  readonly background: 'dark' | 'light';
  readonly lineweights: boolean;
  readonly fullscreen: boolean;
  readonly layersOpen: boolean;
  readonly onOpen: () => void;
  readonly onExtents: () => void;
  readonly onZoom: (factor: number) => void;
  readonly onTool: (tool: Tool) => void;
  readonly onLayers: () => void;
  readonly onBackground: () => void;
  readonly onLineweights: () => void;
  readonly onFullscreen: () => void;
  readonly onExport: () => void;
}) {
  const t = useTranslations('viewer.toolbar');
  // On a phone the row keeps what is used most (open, whole drawing, measure, layers, full screen,
  // print/export; fingers pinch to zoom) and the rest are under 更多: every tool fits the width, with
  // its label, and nothing scrolls out of sight (desktop shows them all in a row).
  const buttons: {
    key: string;
    icon: IconName;
    label: string;
    title?: string;
    pressed?: boolean;
    isSecondary?: boolean;
    onClick: () => void;
  }[] = [
    { key: 'open', icon: 'open', label: t('open'), onClick: props.onOpen },
    { key: 'extents', icon: 'extents', label: t('extents'), onClick: props.onExtents },
    { key: 'zoomIn', icon: 'zoomIn', label: t('zoomIn'), isSecondary: true, onClick: () => props.onZoom(1.5) },
    { key: 'zoomOut', icon: 'zoomOut', label: t('zoomOut'), isSecondary: true, onClick: () => props.onZoom(1 / 1.5) },
    {
      key: 'window',
      icon: 'window',
      label: t('window'),
      isSecondary: true,
      pressed: props.tool === 'window',
      onClick: () => props.onTool('window'),
    },
    { key: 'measure', icon: 'measure', label: t('measure'), pressed: props.tool === 'measure', onClick: () => props.onTool('measure') },
    { key: 'layers', icon: 'layers', label: t('layers'), pressed: props.layersOpen, onClick: props.onLayers },
    {
      key: 'background',
      icon: 'background',
      isSecondary: true,
      label: t('background'),
      title: props.background === 'dark' ? t('backgroundDark') : t('backgroundLight'),
      onClick: props.onBackground,
    },
    {
      key: 'lineweights',
      icon: 'lineweights',
      isSecondary: true,
      label: t('lineweights'),
      title: props.lineweights ? t('lineweightsOn') : t('lineweightsOff'),
      pressed: props.lineweights,
      onClick: props.onLineweights,
    },
    {
      key: 'fullscreen',
      icon: props.fullscreen ? 'exitFullscreen' : 'fullscreen',
      label: props.fullscreen ? t('exitFullscreen') : t('fullscreen'),
      onClick: props.onFullscreen,
    },
    { key: 'export', icon: 'export', label: t('export'), onClick: props.onExport },
  ];
  const secondary = buttons.filter((b) => b.isSecondary);
  return (
    <div className={styles.toolbar} role="toolbar" aria-label={t('label')} data-testid="viewer-toolbar">
      {buttons.map((b) => (
        <button
          key={b.key}
          type="button"
          className={b.isSecondary ? `${styles.toolButton} ${styles.secondaryTool}` : styles.toolButton}
          title={b.title ?? b.label}
          aria-pressed={b.pressed}
          data-testid={`viewer-${b.key}`}
          onClick={b.onClick}
        >
          <ViewerIcon name={b.icon} />
          <span className={styles.toolLabel}>{b.label}</span>
        </button>
      ))}
      <MoreTools label={t('more')} menuLabel={t('moreLabel')}>
        {(close) =>
          secondary.map((b) => (
            <button
              key={b.key}
              type="button"
              role="menuitem"
              className={styles.moreItem}
              aria-pressed={b.pressed}
              data-testid={`viewer-more-${b.key}`}
              onClick={() => {
                close();
                b.onClick();
              }}
            >
              <ViewerIcon name={b.icon} />
              <span>{b.title ?? b.label}</span>
            </button>
          ))
        }
      </MoreTools>
    </div>
  );
}

/** The phone's 更多 button and its menu; closed by a choice, a tap outside or Escape. */
function MoreTools({
  label,
  menuLabel,
  children,
}: {
  readonly label: string;
  readonly menuLabel: string;
  readonly children: (close: () => void) => ReactNode;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!isOpen) return;
    const outside = (event: PointerEvent) => {
      if (!(event.target instanceof Node) || !wrap.current?.contains(event.target)) setIsOpen(false);
    };
    const escape = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') setIsOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [isOpen]);
  const close = () => setIsOpen(false);
  return (
    <div ref={wrap} className={styles.moreWrap}>
      <button
        type="button"
        className={styles.toolButton}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls="viewer-more-menu"
        title={menuLabel}
        data-testid="viewer-more"
        onClick={() => setIsOpen(!isOpen)}
      >
        <ViewerIcon name="more" />
        <span className={styles.toolLabel}>{label}</span>
      </button>
      {isOpen && (
        <div id="viewer-more-menu" role="menu" aria-label={menuLabel} className={styles.moreMenu} data-testid="viewer-more-menu">
          {children(close)}
        </div>
      )}
    </div>
  );
}

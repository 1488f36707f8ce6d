import type { TTaskFile, TTaskStatus } from '@xcad/protocol';

// /share.html (spec §2, decision 0019): the phone page a task's QR leads to. It reads the task through
// `GET /api/file/share/{tasktag}?code=..` (the share code is the key: no signing, no session) and
// asks again every 2 s until the task ends. Read by hand with type-only imports: a phone opening a
// link from a QR should not download the protocol's schema library first.

type ShareFile = Pick<TTaskFile, 'name' | 'size' | 'state' | 'reason' | 'outputname' | 'outputsize'>;

export interface ShareView {
  readonly status: TTaskStatus;
  readonly statusdetail: string;
  readonly reason: string | null;
  readonly files: readonly ShareFile[];
  readonly expiretime: number;
  /** Once done: the result's name and a signed link. */
  readonly filename?: string;
  readonly downurl?: string;
}

export function shareApiPath(tasktag: string, code: string): string {
  return `/api/file/share/${encodeURIComponent(tasktag)}?code=${encodeURIComponent(code)}`;
}

export type ShareAnswer =
  | { readonly kind: 'view'; readonly view: ShareView }
  /** The server said no (unknown task, wrong code, deleted): asking again will not change it. */
  | { readonly kind: 'refused'; readonly message: string }
  /** Nothing readable came back (a proxy error page, a restart): ask again. */
  | { readonly kind: 'unreadable' };

const STATUSES: readonly TTaskStatus[] = ['uploading', 'queued', 'processing', 'done', 'failed', 'cancelled'];
const FILE_STATES: readonly TTaskFile['state'][] = ['uploading', 'waiting', 'converting', 'done', 'failed'];
/** Success: the product API's 10000, or the file API's 0 (spec §7). */
const SUCCESS_CODES: readonly unknown[] = [10000, 0];

type Fields = Readonly<Record<string, unknown>>;

const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOr = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);
const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function fileOf(value: unknown): ShareFile | null {
  if (!isFields(value) || typeof value['name'] !== 'string') return null;
  const state = FILE_STATES.find((candidate) => candidate === value['state']);
  const size = numberOrNull(value['size']);
  if (state === undefined || size === null) return null;
  return {
    name: value['name'],
    size,
    state,
    reason: textOrNull(value['reason']),
    outputname: textOrNull(value['outputname']),
    outputsize: numberOrNull(value['outputsize']),
  };
}

function viewOf(fields: Fields): ShareView | null {
  const status = STATUSES.find((candidate) => candidate === fields['status']);
  const expiretime = numberOrNull(fields['expiretime']);
  const rawFiles = fields['files'];
  if (status === undefined || expiretime === null || !Array.isArray(rawFiles)) return null;
  const files = rawFiles.map(fileOf);
  if (files.some((file) => file === null)) return null;
  const filename = textOrNull(fields['filename']);
  const downurl = textOrNull(fields['downurl']);
  return {
    status,
    statusdetail: textOr(fields['statusdetail'], ''),
    reason: textOrNull(fields['reason']),
    files: files.filter((file): file is ShareFile => file !== null),
    expiretime,
    ...(filename === null ? {} : { filename }),
    ...(downurl === null ? {} : { downurl }),
  };
}

/** The share call's answer: the view (beside the envelope, or in `data`), or the refusal. */
export function readShareAnswer(body: unknown): ShareAnswer {
  if (!isFields(body) || typeof body['code'] !== 'number') return { kind: 'unreadable' };
  if (!SUCCESS_CODES.includes(body['code'])) {
    const message = textOr(body['message'], '');
    return message === '' ? { kind: 'unreadable' } : { kind: 'refused', message };
  }
  const data = body['data'];
  const view = viewOf(isFields(data) ? data : body);
  return view === null ? { kind: 'unreadable' } : { kind: 'view', view };
}

/** The task has ended: nothing more to wait for. */
export function isShareFinal(view: Pick<ShareView, 'status'>): boolean {
  return view.status === 'done' || view.status === 'failed' || view.status === 'cancelled';
}

/** The share page's query: both parts are needed, else the link was cut. */
export function shareParamsOf(search: Pick<URLSearchParams, 'get'>): { tasktag: string; code: string } | null {
  const tasktag = search.get('tasktag')?.trim() ?? '';
  const code = search.get('code')?.trim() ?? '';
  return tasktag === '' || code === '' ? null : { tasktag, code };
}

/** Asks the API about the shared task once; a network failure or an unreadable body is 'unreadable'. */
export async function askShare(tasktag: string, code: string): Promise<ShareAnswer> {
  try {
    const response = await fetch(shareApiPath(tasktag, code), { headers: { Accept: 'application/json' }, cache: 'no-store' });
    return readShareAnswer(await response.json().catch(() => undefined));
  } catch {
    return { kind: 'unreadable' };
  }
}

import { HEADERS, MACHINE_ID, TIMINGS, X_PRODUCT } from './constants';

// spec §7 health checks: every mirror of a service is asked `HEAD /health` at once; the first to
// answer 200 with the right `machine-id` header wins; with none accepted within 1000 ms (or all
// failed) the fallback is used. The losers' requests are aborted so they free their sockets.

/** fetch as the protocol's callers use it: the typed client, mirror selection, the vendor adapters. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface SelectMirrorOptions {
  readonly fetch?: FetchLike;
  readonly timeoutMs?: number;
  /** Host used when no mirror is accepted in time. */
  readonly fallback: string;
  /** Extra request headers (the X-Product header is always sent). */
  readonly headers?: Record<string, string>;
}

function healthUrl(host: string): string {
  return `${host.replace(/\/+$/, '')}/health`;
}

export function isAcceptedHealthAnswer(response: Response): boolean {
  return response.status === 200 && response.headers.get(HEADERS.machineId) === MACHINE_ID;
}

/** Resolves with the first accepted mirror host, else `options.fallback`. Never rejects. */
export function selectMirror(hosts: readonly string[], options: SelectMirrorOptions): Promise<string> {
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? TIMINGS.healthTimeoutMs;
  const headers = { ...options.headers, [HEADERS.product]: X_PRODUCT };
  if (hosts.length === 0) return Promise.resolve(options.fallback);

  return new Promise<string>((resolve) => {
    const controllers = hosts.map(() => new AbortController());
    let pending = hosts.length;
    let isSettled = false;

    const finish = (host: string, winner?: AbortController) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      for (const controller of controllers) if (controller !== winner) controller.abort();
      resolve(host);
    };
    const timer = setTimeout(() => finish(options.fallback), timeoutMs);

    hosts.forEach((host, index) => {
      const controller = controllers[index] as AbortController;
      fetchFn(healthUrl(host), { method: 'HEAD', headers, signal: controller.signal })
        .then((response) => isAcceptedHealthAnswer(response))
        .catch(() => false)
        .then((isAccepted) => {
          pending -= 1;
          if (isAccepted) finish(host, controller);
          else if (pending === 0) finish(options.fallback);
        });
    });
  });
}

export type MirrorService = 'docTool' | 'phoneReply' | 'userApi';

export interface SelectMirrorsOptions extends Omit<SelectMirrorOptions, 'fallback'> {
  readonly fallbacks: Record<MirrorService, string>;
}

/** spec §7: the mirrors of the document-tool app, the phone-reply API and the user API, in parallel. */
export async function selectMirrors(
  mirrors: Record<MirrorService, readonly string[]>,
  options: SelectMirrorsOptions,
): Promise<Record<MirrorService, string>> {
  const { fallbacks, ...shared } = options;
  const [docTool, phoneReply, userApi] = await Promise.all([
    selectMirror(mirrors.docTool, { ...shared, fallback: fallbacks.docTool }),
    selectMirror(mirrors.phoneReply, { ...shared, fallback: fallbacks.phoneReply }),
    selectMirror(mirrors.userApi, { ...shared, fallback: fallbacks.userApi }),
  ]);
  return { docTool, phoneReply, userApi };
}

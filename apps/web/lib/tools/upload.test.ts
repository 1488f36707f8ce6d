import { CLIENT_ERRORS, CONVERSION_MESSAGES, createApiClient, productDevice, UPLOAD, type TTaskDetails } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import {
  CHUNK_RETRY_DELAYS_MS,
  POLL_FAILURE_LIMIT,
  chunkCountOf,
  fetchTransport,
  initialSnapshot,
  missingChunksOf,
  startConversion,
  withTaskDetails,
  type ConversionJob,
  type RunSnapshot,
  type UploadSource,
} from './upload';

// The upload helper against a fake API behind a fake fetch: the real signed client, the real
// fetch transport, small slices so a test file has several.

const ORIGIN = 'http://site.test';
const CHUNK = 10;
const TASKTAG = 'tg_0123456789abcdef';

interface SentSlice {
  readonly fileindex: number;
  readonly chunk: number;
  readonly chunks: number;
  readonly text: string;
  readonly query: URLSearchParams;
}

type Reply = { status: number; body: unknown } | 'network';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function details(overrides: Partial<TTaskDetails> = {}): TTaskDetails {
  return {
    tasktag: TASKTAG,
    tasktype: 'cad2pdf',
    outputfileextension: 'pdf',
    status: 'processing',
    progress: 50,
    statusdetail: '正在转换 1/2',
    reason: null,
    files: [],
    createtime: 1_760_000_000,
    expiretime: 1_760_086_400,
    ...overrides,
  };
}

/** A file of a task as taskstate reports it, still uploading. */
function taskFile(fileindex: number, name: string): TTaskDetails['files'][number] {
  return {
    fileindex,
    name,
    size: 4,
    received: [0],
    chunks: 1,
    state: 'uploading',
    reason: null,
    retryable: false,
    summary: null,
    changes: [],
    outputname: null,
    outputsize: null,
  };
}

const CODE_OF: Record<TTaskDetails['status'], number> = {
  uploading: 20000,
  queued: 20000,
  processing: 20000,
  done: 10000,
  failed: 18000,
  cancelled: 18000,
};

/** A fake of the conversion API: records what arrives, answers from scripts. */
function fakeApi(
  options: { taskstates?: (TTaskDetails | 'network')[]; sliceReplies?: Reply[]; uploadpar?: { status: number; body: unknown } } = {},
) {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  const slices: SentSlice[] = [];
  const sliceReplies = [...(options.sliceReplies ?? [])];
  const taskstates = [...(options.taskstates ?? [details({ status: 'done', progress: 100 })])];
  let received = new Set<string>();
  let expected = 0;

  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const parsed = new URL(url);
    if (parsed.pathname === '/api/v4/uploadfile') {
      const reply = sliceReplies.shift();
      if (reply === 'network') throw new TypeError('Failed to fetch');
      if (init.signal?.aborted) throw new DOMException('aborted', 'AbortError');
      const query = parsed.searchParams;
      const text = await (init.body as Blob).text();
      slices.push({
        fileindex: Number(query.get('fileindex')),
        chunk: Number(query.get('chunk')),
        chunks: Number(query.get('chunks')),
        text,
        query,
      });
      if (reply !== undefined) return json(reply.status, reply.body);
      received.add(`${query.get('fileindex')}/${query.get('chunk')}`);
      const isComplete = received.size === expected;
      return json(200, { code: isComplete ? 10000 : 11000, message: '', tasktag: TASKTAG, received: received.size, filesdone: 0 });
    }
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    calls.push({ path: parsed.pathname, body });
    if (parsed.pathname === '/api/v4/uploadpar') {
      if (options.uploadpar) return json(options.uploadpar.status, options.uploadpar.body);
      received = new Set();
      return json(200, { code: 10000, message: '', tasktag: TASKTAG, tasktoken: 'tok', timestamp: 1_760_000_000 });
    }
    if (parsed.pathname === '/api/v4/taskstate') {
      const next = taskstates.length > 1 ? taskstates.shift() : taskstates[0];
      if (next === undefined || next === 'network') throw new TypeError('Failed to fetch');
      return json(200, { code: CODE_OF[next.status], message: '', ...next });
    }
    if (parsed.pathname === '/api/v4/taskcancel') return json(200, { code: 10000, message: '', status: 'cancelled' });
    return json(404, { code: 404, message: 'not found' });
  };

  return {
    fetch,
    calls,
    slices,
    /** How many slices make the whole task (the fake answers 10000 once all are in). */
    expect(count: number) {
      expected = count;
    },
  };
}

/** A file whose slices are recorded: the helper must never ask for more than a slice. */
function source(name: string, text: string): UploadSource & { readonly sliced: [number, number][] } {
  const blob = new Blob([text]);
  const sliced: [number, number][] = [];
  return {
    name,
    size: blob.size,
    sliced,
    slice(start: number, end: number) {
      sliced.push([start, end]);
      return blob.slice(start, end);
    },
  };
}

function job(files: UploadSource[], overrides: Partial<ConversionJob> = {}): ConversionJob {
  return {
    tasktype: 'cad2pdf',
    params: { outputfileextension: 'pdf', parainfo: '{"paper":"A3"}' },
    files,
    limitsize: UPLOAD.limitsize,
    signed: {},
    ...overrides,
  };
}

function setup(api: ReturnType<typeof fakeApi>, onSleep?: (ms: number) => void) {
  const pauses: number[] = [];
  const snapshots: RunSnapshot[] = [];
  const client = createApiClient({
    baseUrl: ORIGIN,
    secret: 'test-secret',
    fetch: api.fetch,
    device: () => productDevice('device-1'),
    domain: 'site.test',
  });
  const deps = {
    client,
    transport: fetchTransport(api.fetch, {}),
    uploadUrl: `${ORIGIN}/api/v4/uploadfile`,
    chunkBytes: CHUNK,
    sleep: async (ms: number, signal: AbortSignal) => {
      pauses.push(ms);
      onSleep?.(ms);
      if (signal.aborted) throw signal.reason;
    },
  };
  return { deps, pauses, snapshots, onUpdate: (snapshot: RunSnapshot) => snapshots.push(snapshot) };
}

const A = '0123456789abcdefghij012'; // 23 bytes: 3 slices of 10
const B = 'second file'; // 11 bytes: 2 slices

describe('a conversion from start to download', () => {
  it('creates the task with every name, sends each file in slices of its own bytes, and asks until done', async () => {
    const api = fakeApi({
      taskstates: [
        details({ status: 'queued', progress: 40, files: [] }),
        details({
          status: 'done',
          progress: 100,
          files: [
            {
              fileindex: 0,
              name: '一层.dwg',
              size: 23,
              received: [0, 1, 2],
              chunks: 3,
              state: 'done',
              reason: null,
              retryable: false,
              summary: null,
              changes: [],
              outputname: '一层.pdf',
              outputsize: 900,
            },
            {
              fileindex: 1,
              name: 'b.dxf',
              size: 11,
              received: [0, 1],
              chunks: 2,
              state: 'done',
              reason: null,
              retryable: false,
              summary: null,
              changes: [],
              outputname: 'b.pdf',
              outputsize: 400,
            },
          ],
        }),
      ],
    });
    api.expect(5);
    const { deps, pauses, onUpdate } = setup(api);
    const first = source('一层.dwg', A);
    const second = source('b.dxf', B);

    const final = await startConversion(job([first, second], { signed: { account: '13800138000', usertoken: 'ut' } }), deps, onUpdate)
      .finished;

    const uploadpar = api.calls.find((call) => call.path === '/api/v4/uploadpar')?.body;
    expect(uploadpar).toMatchObject({
      filename: '["一层.dwg","b.dxf"]',
      filecount: 2,
      tasktype: 'cad2pdf',
      outputfileextension: 'pdf',
      limitsize: 51200,
      isshare: 0,
      account: '13800138000',
      usertoken: 'ut',
    });
    // The client sends the options as the protocol reads them (JSON text, or the object it parses to).
    const parainfo = uploadpar?.['parainfo'];
    expect(typeof parainfo === 'string' ? (JSON.parse(parainfo) as unknown) : parainfo).toEqual({ paper: 'A3' });
    expect(api.slices.map((slice) => [slice.fileindex, slice.chunk, slice.chunks, slice.text])).toEqual([
      [0, 0, 3, '0123456789'],
      [0, 1, 3, 'abcdefghij'],
      [0, 2, 3, '012'],
      [1, 0, 2, 'second fil'],
      [1, 1, 2, 'e'],
    ]);
    expect(Object.fromEntries(api.slices[0]?.query ?? [])).toMatchObject({ tasktag: TASKTAG, tasktoken: 'tok', timestamp: '1760000000' });
    // Never more than a slice at a time.
    expect(first.sliced).toEqual([
      [0, 10],
      [10, 20],
      [20, 23],
    ]);
    expect(pauses).toEqual([2000]);
    expect(final).toMatchObject({ phase: 'done', tasktag: TASKTAG, progress: 100, error: null, expiretime: 1_760_086_400 });
    expect(final.files.map((file) => [file.stage, file.sentBytes, file.outputname])).toEqual([
      ['done', 23, '一层.pdf'],
      ['done', 11, 'b.pdf'],
    ]);
  });

  it("reports each file's upload as it goes", async () => {
    const api = fakeApi();
    api.expect(5);
    const { deps, snapshots, onUpdate } = setup(api);
    await startConversion(job([source('a.dwg', A), source('b.dwg', B)]), deps, onUpdate).finished;
    const firstFile = snapshots.map((snapshot) => snapshot.files[0]?.sentBytes);
    expect(firstFile).toContain(10);
    expect(firstFile).toContain(20);
    const whileSecond = snapshots.find((snapshot) => snapshot.files[1]?.stage === 'uploading' && snapshot.files[1].sentBytes === 10);
    expect(whileSecond?.files[0]).toMatchObject({ stage: 'waiting', sentBytes: 23 });
    expect(snapshots.map((snapshot) => snapshot.phase)).toEqual(expect.arrayContaining(['starting', 'uploading', 'converting', 'done']));
  });

  it('sends one name as it is, and the target version of cad2ver', async () => {
    const api = fakeApi();
    api.expect(2);
    const { deps, onUpdate } = setup(api);
    await startConversion(
      job([source('plan.dwg', 'fifteen bytes!!')], {
        tasktype: 'cad2ver',
        params: { outputfileextension: 'dwg', fileversion: '2004', parainfo: '' },
      }),
      deps,
      onUpdate,
    ).finished;
    expect(api.calls[0]?.body).toMatchObject({
      filename: 'plan.dwg',
      filecount: 1,
      tasktype: 'cad2ver',
      fileversion: '2004',
      outputfileextension: 'dwg',
    });
  });
});

describe('when a slice fails', () => {
  it('sends it again after growing pauses when the network or the server fails', async () => {
    const api = fakeApi({
      sliceReplies: [{ status: 200, body: undefined }, 'network', { status: 503, body: { code: 500, message: 'busy' } }],
    });
    api.expect(2);
    const { deps, pauses, onUpdate } = setup(api);
    const final = await startConversion(job([source('a.dwg', 'twelve bytes')]), deps, onUpdate).finished;
    expect(pauses).toEqual(CHUNK_RETRY_DELAYS_MS.slice(0, 3));
    expect(final.phase).toBe('done');
    // An unreadable answer, a lost connection, a 503, then the slice is taken; the next follows.
    expect(api.slices.map((slice) => [slice.chunk, slice.text])).toEqual([
      [0, 'twelve byt'],
      [0, 'twelve byt'],
      [0, 'twelve byt'],
      [1, 'es'],
    ]);
  });

  it('gives up after the last retry and says the network failed', async () => {
    const api = fakeApi({ sliceReplies: Array.from({ length: CHUNK_RETRY_DELAYS_MS.length + 1 }, () => 'network' as const) });
    api.expect(1);
    const { deps, pauses, onUpdate } = setup(api);
    const final = await startConversion(job([source('a.dwg', 'short')]), deps, onUpdate).finished;
    expect(pauses).toEqual(CHUNK_RETRY_DELAYS_MS);
    expect(final).toMatchObject({ phase: 'failed', error: CLIENT_ERRORS.network.message });
    // The network may come back: the page offers to convert it again (decision 0036).
    expect(final.files[0]).toMatchObject({ stage: 'failed', reason: CLIENT_ERRORS.network.message, retryable: true });
    expect(api.calls.some((call) => call.path === '/api/v4/taskstate')).toBe(false);
  });

  it("shows the server's refusal at once, without retrying", async () => {
    const refusal = { code: 15005, message: CONVERSION_MESSAGES.wrongType('DWG/DXF') };
    const failedFile = { ...taskFile(0, 'fake.dwg'), state: 'failed' as const, reason: refusal.message };
    const api = fakeApi({
      sliceReplies: [{ status: 400, body: refusal }],
      taskstates: [details({ status: 'failed', reason: refusal.message, files: [failedFile] })],
    });
    api.expect(3);
    const { deps, pauses, onUpdate } = setup(api);
    const final = await startConversion(job([source('fake.dwg', A)]), deps, onUpdate).finished;
    expect(api.slices).toHaveLength(1);
    expect(pauses).toEqual([]);
    expect(final).toMatchObject({ phase: 'failed', error: refusal.message });
    expect(final.files[0]).toMatchObject({ stage: 'failed', reason: refusal.message, retryable: false });
  });

  it('goes on with the other files of a batch when the server refuses one (decision 0036)', async () => {
    const refusal = { code: 15005, message: CONVERSION_MESSAGES.wrongType('DWG或DXF') };
    const ok = { code: 11000, message: '', tasktag: TASKTAG, received: 1, filesdone: 1 };
    const api = fakeApi({
      // a.dxf's one slice, then notes.txt's first (refused), then c.dxf's.
      sliceReplies: [
        { status: 200, body: ok },
        { status: 400, body: refusal },
        { status: 200, body: ok },
      ],
      taskstates: [
        details({
          status: 'done',
          progress: 100,
          statusdetail: '转换完成：3个文件中2个转换成功',
          files: [
            { ...taskFile(0, 'a.dxf'), state: 'done', outputname: 'a.pdf', outputsize: 9 },
            { ...taskFile(1, 'notes.txt'), state: 'failed', reason: refusal.message },
            { ...taskFile(2, 'c.dxf'), state: 'done', outputname: 'c.pdf', outputsize: 9 },
          ],
        }),
      ],
    });
    const updates: RunSnapshot[] = [];
    const { deps } = setup(api);
    const final = await startConversion(job([source('a.dxf', 'AAAA'), source('notes.txt', B), source('c.dxf', 'CCCC')]), deps, (next) =>
      updates.push(next),
    ).finished;
    // notes.txt stopped at its first slice; c.dxf still went up.
    expect(api.slices.map((slice) => [slice.fileindex, slice.chunk])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    // While the rest uploads, the refused file already says why.
    const during = updates.find((update) => update.files[2]?.stage === 'uploading');
    expect(during?.files[1]).toMatchObject({ stage: 'failed', reason: refusal.message, retryable: false });
    expect(final.phase).toBe('done');
    expect(final.files.map((file) => [file.stage, file.outputname, file.reason])).toEqual([
      ['done', 'a.pdf', null],
      ['failed', null, refusal.message],
      ['done', 'c.pdf', null],
    ]);
  });

  it('sends the slices the server still lacks once, then waits for the result', async () => {
    const api = fakeApi({
      taskstates: [
        details({
          status: 'uploading',
          files: [
            {
              fileindex: 0,
              name: 'a.dwg',
              size: 23,
              received: [0, 2],
              chunks: 3,
              state: 'uploading',
              reason: null,
              retryable: false,
              summary: null,
              changes: [],
              outputname: null,
              outputsize: null,
            },
          ],
        }),
        details({ status: 'done', progress: 100 }),
      ],
    });
    // Never complete by count: the fake believes one slice is missing.
    api.expect(99);
    const { deps, onUpdate } = setup(api);
    const final = await startConversion(job([source('a.dwg', A)]), deps, onUpdate).finished;
    expect(api.slices.map((slice) => slice.chunk)).toEqual([0, 1, 2, 1]);
    expect(api.slices[3]?.text).toBe('abcdefghij');
    expect(final.phase).toBe('done');
  });
});

describe("the task's state", () => {
  it('shows why the conversion failed, per file and for the task', async () => {
    const reason = 'PDF转CAD功能即将上线，敬请期待';
    const api = fakeApi({
      taskstates: [
        details({
          status: 'failed',
          progress: 100,
          reason,
          files: [
            {
              fileindex: 0,
              name: 'a.pdf',
              size: 5,
              received: [0],
              chunks: 1,
              state: 'failed',
              reason,
              retryable: false,
              summary: null,
              changes: [],
              outputname: null,
              outputsize: null,
            },
          ],
        }),
      ],
    });
    api.expect(1);
    const { deps, onUpdate } = setup(api);
    const final = await startConversion(job([source('a.pdf', 'pdf!!')], { tasktype: 'pdf2cad' }), deps, onUpdate).finished;
    expect(final).toMatchObject({ phase: 'failed', error: reason });
    expect(final.files[0]).toMatchObject({ stage: 'failed', reason });
  });

  it('keeps asking through a few failed requests, and gives up after too many in a row', async () => {
    const api = fakeApi({
      taskstates: [
        'network',
        'network',
        details({ status: 'processing' }),
        ...Array.from({ length: POLL_FAILURE_LIMIT }, () => 'network' as const),
      ],
    });
    api.expect(1);
    const { deps, onUpdate, snapshots } = setup(api);
    const final = await startConversion(job([source('a.dwg', 'x')]), deps, onUpdate).finished;
    expect(snapshots.some((snapshot) => snapshot.statusdetail === '正在转换 1/2')).toBe(true);
    expect(final).toMatchObject({ phase: 'failed', error: CLIENT_ERRORS.network.message });
    expect(api.calls.filter((call) => call.path === '/api/v4/taskstate')).toHaveLength(3 + POLL_FAILURE_LIMIT);
  });

  it('stops asking when the server does not know the task', async () => {
    const api = fakeApi();
    api.expect(1);
    const { deps, onUpdate } = setup(api);
    const unknown = async (url: string, init: RequestInit) =>
      new URL(url).pathname === '/api/v4/taskstate'
        ? json(200, { code: 15001, message: CONVERSION_MESSAGES.taskUnknown })
        : api.fetch(url, init);
    const client = createApiClient({ baseUrl: ORIGIN, secret: 's', fetch: unknown, device: () => productDevice('d'), domain: 'site.test' });
    const final = await startConversion(job([source('a.dwg', 'x')]), { ...deps, client }, onUpdate).finished;
    expect(final).toMatchObject({ phase: 'failed', error: CONVERSION_MESSAGES.taskUnknown });
  });

  it('fails before any upload when the task is refused', async () => {
    const api = fakeApi({ uploadpar: { status: 200, body: { code: 15006, message: CONVERSION_MESSAGES.tooManyTasks } } });
    const { deps, onUpdate } = setup(api);
    const final = await startConversion(job([source('a.dwg', 'x')]), deps, onUpdate).finished;
    expect(final).toMatchObject({ phase: 'failed', tasktag: null, error: CONVERSION_MESSAGES.tooManyTasks });
    expect(api.slices).toHaveLength(0);
    // The day's quota is used up: converting again today would be refused the same way.
    expect(final.files[0]).toMatchObject({ stage: 'failed', retryable: false });
  });
});

describe('cancelling', () => {
  it('stops the upload and cancels the task on the server', async () => {
    const api = fakeApi();
    api.expect(3);
    let cancel = () => {};
    const { deps, onUpdate } = setup(api);
    const run = startConversion(job([source('a.dwg', A), source('b.dwg', B)]), deps, (snapshot) => {
      onUpdate(snapshot);
      if (snapshot.files[0]?.sentBytes === 10) cancel();
    });
    cancel = run.cancel;
    const final = await run.finished;
    expect(final.phase).toBe('cancelled');
    expect(final.error).toBeNull();
    expect(final.files.map((file) => file.stage)).toEqual(['cancelled', 'cancelled']);
    expect(api.slices.length).toBeLessThan(3);
    // The task's own token proves it is this page's (decision 0029).
    expect(api.calls.find((call) => call.path === '/api/v4/taskcancel')?.body).toMatchObject({ tasktag: TASKTAG, tasktoken: 'tok' });
  });

  it('stops waiting for the result and cancels the task', async () => {
    const api = fakeApi({ taskstates: [details({ status: 'processing' })] });
    api.expect(1);
    let polls = 0;
    let cancel = () => {};
    const { deps, onUpdate } = setup(api, () => {
      polls += 1;
      if (polls === 3) cancel();
    });
    const run = startConversion(job([source('a.dwg', 'x')]), deps, onUpdate);
    cancel = run.cancel;
    const final = await run.finished;
    expect(final.phase).toBe('cancelled');
    expect(api.calls.filter((call) => call.path === '/api/v4/taskstate')).toHaveLength(3);
    for (const call of api.calls.filter((candidate) => candidate.path === '/api/v4/taskstate'))
      expect(call.body).toMatchObject({ tasktag: TASKTAG, tasktoken: 'tok' });
    expect(api.calls.at(-1)?.path).toBe('/api/v4/taskcancel');
  });
});

describe('task details', () => {
  const files = [
    { name: 'a.dwg', size: 100 },
    { name: 'b.dwg', size: 50 },
  ];

  it("marks files by the server's word, and a cancelled task's unfinished files as cancelled", () => {
    const reported = details({
      status: 'cancelled',
      files: [
        {
          fileindex: 0,
          name: 'a.dwg',
          size: 100,
          received: [0],
          chunks: 1,
          state: 'done',
          reason: null,
          retryable: false,
          summary: null,
          changes: [],
          outputname: 'a.pdf',
          outputsize: 10,
        },
        {
          fileindex: 1,
          name: 'b.dwg',
          size: 50,
          received: [0],
          chunks: 1,
          state: 'converting',
          reason: null,
          retryable: false,
          summary: null,
          changes: [],
          outputname: null,
          outputsize: null,
        },
      ],
    });
    const next = withTaskDetails(initialSnapshot(files), reported);
    expect(next.phase).toBe('cancelled');
    expect(next.files.map((file) => file.stage)).toEqual(['done', 'cancelled']);
    expect(next.files[0]?.sentBytes).toBe(100);
  });

  it("carries each file's report and whether its failure is worth retrying (decision 0036)", () => {
    const summary = { layouts: ['Model', '布局1'], objects: 120 };
    const changes = [{ type: 'MULTILEADER', count: 3, outcome: 'lowered' as const, how: 'graphics' }];
    const reported = details({
      status: 'done',
      files: [
        { ...taskFile(0, 'a.dwg'), state: 'done', outputname: 'a_2004.dwg', outputsize: 10, summary, changes },
        { ...taskFile(1, 'b.dwg'), state: 'failed', reason: '图纸过于复杂，转换超时', retryable: true },
      ],
    });
    const next = withTaskDetails(initialSnapshot(files), reported);
    expect(next.files[0]).toMatchObject({ stage: 'done', outputname: 'a_2004.dwg', summary, changes, retryable: false });
    expect(next.files[1]).toMatchObject({ stage: 'failed', reason: '图纸过于复杂，转换超时', retryable: true });
  });

  it('lists the slices still missing', () => {
    const reported = details({
      files: [
        {
          fileindex: 0,
          name: 'a',
          size: 30,
          received: [1],
          chunks: 3,
          state: 'uploading',
          reason: null,
          retryable: false,
          summary: null,
          changes: [],
          outputname: null,
          outputsize: null,
        },
        {
          fileindex: 1,
          name: 'b',
          size: 5,
          received: [0],
          chunks: 1,
          state: 'waiting',
          reason: null,
          retryable: false,
          summary: null,
          changes: [],
          outputname: null,
          outputsize: null,
        },
      ],
    });
    expect(missingChunksOf(reported)).toEqual([
      { fileindex: 0, chunk: 0 },
      { fileindex: 0, chunk: 2 },
    ]);
  });

  it('cuts 50 MB slices, at least one for an empty file', () => {
    expect(chunkCountOf(0, UPLOAD.conversionChunkBytes)).toBe(1);
    expect(chunkCountOf(UPLOAD.conversionChunkBytes, UPLOAD.conversionChunkBytes)).toBe(1);
    expect(chunkCountOf(200 * 1024 * 1024 + 1, UPLOAD.conversionChunkBytes)).toBe(5);
  });
});

import type { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiError,
  CONVERSION_ERRORS,
  CONVERSION_PATHS,
  endpoints,
  SUCCESS_CODE,
  VISITOR_COOKIE,
  VISITOR_COOKIE_MAX_AGE_SECONDS,
  ZUploadFileQuery,
} from '@xcad/protocol';
import { z } from 'zod';
import { readFields } from '../../plugins/fields';
import { route, sessionOf } from '../../plugins/route';
import { cookieOf, setCookie } from '../../plugins/session';
import { sendStored } from '../../storage';
import type { SignedIn } from '../auth/session.service';
import { UploadAbortedError, discardBody, type ChunkBody } from './chunk-body';
import { receiveChunk } from './conversion-upload';
import { SWEEP_INTERVAL_MS, sweepConversions } from './conversion-sweep';
import { RESULT_PATH_PREFIX } from './conversion-rules';
import type { ConversionDeps } from './conversion.deps';
import type { Viewer } from './conversion.repository';
import {
  cancelTask,
  createTask,
  isVisitorSecret,
  listTasks,
  newVisitorSecret,
  shareUrlOf,
  shareView,
  signedResult,
  taskDownload,
  taskState,
  tokenHashOf,
  visibleTask,
  visitorHashOf,
} from './conversion.service';
import {
  FILE_UPLOAD_MESSAGES,
  FileUploadError,
  ZCreateUploadRequest,
  ZFileUploadQuery,
  createFileUpload,
  fileTokenUser,
  receiveFileChunk,
} from './file-upload.service';
import { qrPng } from './qr-png';

// Decision 0019, online conversion (spec §7 "Upload (conversion)"): the signed calls uploadpar,
// taskstate, taskdown, taskcancel and tasklist; uploadfile (unsigned: the tasktoken is its key;
// raw chunk bytes streamed to storage); the phone QR (GET, an <img>) and its share page's call;
// the signed result link; the second upload client (/api/file/create-upload, /api/file/upload,
// X-Auth-Token); and the retention sweep. Registered by app.ts with the jobs it runs.

export interface ConversionRoutesOptions {
  deps: ConversionDeps;
}

/** The visitor cookie's secret, if the request carries one of the form the API gives (256 bits, base64url). */
function visitorSecretOf(request: FastifyRequest): string | undefined {
  const secret = cookieOf(request, VISITOR_COOKIE);
  return secret !== undefined && isVisitorSecret(secret) ? secret : undefined;
}

/** The caller as a reader of tasks: its user, its visitor cookie and the tasktoken it gave (decision 0029). */
function viewerOf(request: FastifyRequest, session: SignedIn | null, tasktoken: string | undefined): Viewer {
  const visitorSecret = visitorSecretOf(request);
  return {
    userId: session === null ? null : session.user.id,
    visitorHash: visitorSecret === undefined ? null : visitorHashOf(visitorSecret),
    tokenHash: tasktoken === undefined ? null : tokenHashOf(tasktoken),
  };
}

/** The raw body of a chunk route: the request stream the content-type parser handed through. */
function chunkBodyOf(request: FastifyRequest): ChunkBody | undefined {
  const body = request.body as Readable | undefined;
  if (body === undefined || body === null || typeof body.pipe !== 'function') return undefined;
  const length = Number(request.headers['content-length']);
  return { stream: body, declaredBytes: Number.isSafeInteger(length) && length >= 0 ? length : undefined };
}

const ZResultQuery = z.object({ expires: z.coerce.number().int().positive(), sig: z.string().min(1).max(128) });
const ZQrQuery = z.object({ tasktag: z.string().min(1).max(64) });
const ZShareQuery = z.object({ code: z.string().min(1).max(64) });
const ZTagParams = z.object({ tasktag: z.string().min(1).max(64) });
const ZFileIndexParams = z.object({ fileindex: z.coerce.number().int().min(0).max(49) });

const LINK_MESSAGES = {
  forbidden: '下载链接无效，请回到转换页面重新下载',
  linkExpired: '下载链接已过期，请回到转换页面重新下载',
} as const;

function sendFileUploadError(reply: FastifyReply, error: FileUploadError): FastifyReply {
  reply.request.log.info({ code: error.status, reason: error.message }, 'file upload refused');
  return reply.code(error.status).send({ code: error.status, message: error.userMessage });
}

/** A client that went away mid-chunk: nothing was stored, and the answer most likely reaches no one. */
function sendAborted(reply: FastifyReply, code: number, message: string): FastifyReply {
  reply.request.log.info({ reason: 'client aborted' }, 'chunk upload aborted');
  return reply.code(400).send({ code, message });
}

export const conversionRoutes: FastifyPluginAsync<ConversionRoutesOptions> = async (app, { deps }) => {
  // A dead usertoken is refused rather than quietly starting a visitor's task (the reading calls
  // below go on as a visitor).
  route(app, endpoints.uploadpar, {
    auth: 'if-given',
    handler: async ({ fields, session, deviceId, request, reply }) => {
      const userId = session === null ? null : session.user.id;
      // A visitor's task belongs to this browser's visitor cookie: given with its first task, renewed with each.
      let visitorSecret: string | null = null;
      if (userId === null) {
        visitorSecret = visitorSecretOf(request) ?? newVisitorSecret();
        setCookie(reply, request, VISITOR_COOKIE, visitorSecret, VISITOR_COOKIE_MAX_AGE_SECONDS);
      }
      const creator = { deviceId, ip: request.ip, userId, visitorHash: visitorSecret === null ? null : visitorHashOf(visitorSecret) };
      return { code: SUCCESS_CODE, message: '', ...(await createTask(deps, fields, creator)) };
    },
  });

  route(app, endpoints.taskstate, {
    auth: 'optional',
    handler: async ({ fields, session, request }) =>
      taskState(deps, fields.tasktag, viewerOf(request, session, fields.tasktoken), fields.ifshowtxt !== 0),
  });

  route(app, endpoints.taskdown, {
    auth: 'optional',
    handler: async ({ fields, session, request }) => ({
      code: SUCCESS_CODE,
      message: '',
      ...(await taskDownload(deps, fields.tasktag, viewerOf(request, session, fields.tasktoken), fields.fileindex)),
    }),
  });

  route(app, endpoints.taskcancel, {
    auth: 'optional',
    handler: async ({ fields, session, request }) => ({
      code: SUCCESS_CODE,
      message: '',
      status: await cancelTask(deps, fields.tasktag, viewerOf(request, session, fields.tasktoken)),
    }),
  });

  route(app, endpoints.tasklist, {
    auth: 'optional',
    handler: async ({ fields, session, request }) => ({
      code: SUCCESS_CODE,
      message: '',
      ...(await listTasks(deps, viewerOf(request, session, undefined), fields.page, fields.pagesize)),
    }),
  });

  // The tool pages show the phone QR as <img src>: a GET the browser sends with its cookies, so it
  // cannot be signed; the session or visitor cookie shows whose task it is.
  app.get(CONVERSION_PATHS.sitetaskdownqrcode, { config: { signed: false } }, async (request, reply) => {
    const query = readFields(ZQrQuery, request.query);
    try {
      const task = await visibleTask(
        deps,
        query.tasktag,
        viewerOf(request, await sessionOf(app, 'optional', request.usertoken), undefined),
      );
      if (task.purged_at !== null) throw ApiError.business(CONVERSION_ERRORS.expired, 'qr of a purged task');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      request.log.info({ code: error.code, reason: error.logMessage }, 'request refused');
      return reply.code(404).send(error.toEnvelope());
    }
    return reply
      .header('content-type', 'image/png')
      .header('cache-control', 'private, max-age=600')
      .send(qrPng(shareUrlOf(deps, query.tasktag)));
  });

  // /share.html on a phone: the share code in the QR's link is the key.
  app.get('/api/file/share/:tasktag', async (request) => {
    const { tasktag } = readFields(ZTagParams, request.params);
    const { code } = readFields(ZShareQuery, request.query);
    return { code: SUCCESS_CODE, message: '', ...(await shareView(deps, tasktag, code)) };
  });

  // taskdown's link: signed and expiring, so it works in a plain <a href> or on another device; of
  // the whole result, or of one converted file (decision 0036).
  const sendResult = async (request: FastifyRequest, reply: FastifyReply, fileindex?: number) => {
    const { tasktag } = readFields(ZTagParams, request.params);
    const query = ZResultQuery.safeParse(request.query);
    const found = query.success
      ? await signedResult(deps, tasktag, { ...query.data, ...(fileindex === undefined ? {} : { fileindex }) })
      : 'forbidden';
    if (found === 'forbidden' || found === 'linkExpired') {
      request.log.info({ tasktag, reason: found }, 'result download refused');
      return reply.code(403).send({ code: 403, message: LINK_MESSAGES[found] });
    }
    if (found === 'gone')
      return reply.code(410).send({ code: CONVERSION_ERRORS.expired.codes[0], message: CONVERSION_ERRORS.expired.message });
    return sendStored(request, reply, deps.storage, found.object, { downloadName: found.name, cacheControl: 'private, no-store' });
  };
  app.get(`${RESULT_PATH_PREFIX}:tasktag`, async (request, reply) => sendResult(request, reply));
  app.get(`${RESULT_PATH_PREFIX}:tasktag/:fileindex`, async (request, reply) => {
    const { fileindex } = readFields(ZFileIndexParams, request.params);
    return sendResult(request, reply, fileindex);
  });

  app.post('/api/file/create-upload', async (request, reply) => {
    try {
      const userId = await fileTokenUser(deps, request.headers['x-auth-token']?.toString());
      const fields = ZCreateUploadRequest.safeParse(request.body);
      if (!fields.success)
        throw new FileUploadError(400, FILE_UPLOAD_MESSAGES.invalid, `invalid ${String(fields.error.issues[0]?.path[0] ?? 'body')}`);
      return { code: 0, data: await createFileUpload(deps, userId, fields.data) };
    } catch (error) {
      if (error instanceof FileUploadError) return sendFileUploadError(reply, error);
      throw error;
    }
  });

  // The two chunk routes take any content type and get the request stream itself: chunks go to
  // storage as they arrive (up to 50 MB each, many at once), never into memory.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    raw.post(CONVERSION_PATHS.uploadfile, { config: { signed: false } }, async (request, reply) => {
      const body = chunkBodyOf(request);
      try {
        const query = readFields(ZUploadFileQuery, request.query);
        if (body === undefined) throw ApiError.business(CONVERSION_ERRORS.chunkInvalid, 'chunk without a body');
        return await receiveChunk(deps, query, body);
      } catch (error) {
        if (error instanceof UploadAbortedError)
          return sendAborted(reply, CONVERSION_ERRORS.chunkInvalid.codes[0], CONVERSION_ERRORS.chunkInvalid.message);
        throw error;
      } finally {
        discardBody(body);
      }
    });

    raw.post('/api/file/upload', async (request, reply) => {
      const body = chunkBodyOf(request);
      try {
        const userId = await fileTokenUser(deps, request.headers['x-auth-token']?.toString());
        const query = ZFileUploadQuery.safeParse(request.query);
        if (!query.success)
          throw new FileUploadError(400, FILE_UPLOAD_MESSAGES.invalid, `invalid ${String(query.error.issues[0]?.path[0] ?? 'query')}`);
        if (body === undefined) throw new FileUploadError(400, FILE_UPLOAD_MESSAGES.invalid, 'chunk without a body');
        return { code: 0, data: await receiveFileChunk(deps, userId, query.data, body) };
      } catch (error) {
        if (error instanceof FileUploadError) return sendFileUploadError(reply, error);
        if (error instanceof UploadAbortedError) return sendAborted(reply, 400, FILE_UPLOAD_MESSAGES.invalid);
        throw error;
      } finally {
        discardBody(body);
      }
    });
  });

  const sweep = (): void => {
    sweepConversions(deps).catch((error: unknown) => deps.log.error({ err: error }, 'conversion retention sweep failed'));
  };
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
};

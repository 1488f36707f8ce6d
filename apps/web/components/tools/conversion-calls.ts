'use client';

import { HEADERS, UPLOAD, X_PRODUCT, endpoints, type TTaskDetails } from '@xcad/protocol';
import { apiClient } from '@/lib/api/client';
import type { SignedFields } from '@/lib/tools/upload';
import { xhrTransport } from '@/lib/tools/xhr-transport';

// The browser side of the online tools' calls: the signed client, the slice transport, the
// download link and the phone QR (decision 0019).

/** Slices go to the same origin as every call (decision 0003), with the product headers. */
export function uploadDeps() {
  return {
    transport: xhrTransport({ [HEADERS.product]: X_PRODUCT, [HEADERS.domain]: window.location.host }),
    uploadUrl: `${window.location.origin}/api/v4/uploadfile`,
  };
}

/** The phone QR of a task: an image the API draws, leading to /share.html (the browser's cookies show whose task it is). */
export function qrSrcOf(tasktag: string): string {
  return `/api/v4/sitetaskdownqrcode?${new URLSearchParams({ tasktag }).toString()}`;
}

/**
 * Asks for a fresh signed link to the result (or, with `fileindex`, to one converted file of it) and
 * follows it (the browser downloads the file); resolves with its name.
 */
export async function downloadResult(tasktag: string, signed: SignedFields, fileindex?: number): Promise<string> {
  const client = await apiClient();
  const answer = await client.call(endpoints.taskdown, {
    ...signed,
    tasktag,
    downtype: UPLOAD.downtype,
    ...(fileindex === undefined ? {} : { fileindex }),
  });
  window.location.assign(answer.downurl);
  return answer.filename;
}

export async function listTasks(signed: SignedFields, page: number, pagesize: number): Promise<{ tasks: TTaskDetails[]; total: number }> {
  const client = await apiClient();
  const answer = await client.call(endpoints.tasklist, { ...signed, page, pagesize });
  return { tasks: answer.tasks, total: answer.total };
}

import type { LimitName } from '@xcad/cad/errors';
import type { ConversionFileRow } from '@xcad/db';
import { ENGINE_LIMITS } from '@xcad/cad/limits';
import { CONVERSION_MESSAGES } from '@xcad/protocol';

// Decision 0019: why a file or a task failed, as the tool pages show it (conversion_file.reason,
// conversion_task.reason; taskstate answers 18000 with it, spec §8). Written for the person who
// uploaded the drawing: what went wrong and, where there is one, what to do about it.

/** A count as Chinese writes it: 3000000 -> 300万, 100000000 -> 1亿. */
function countText(count: number): string {
  if (count >= 1e8 && count % 1e8 === 0) return `${count / 1e8}亿`;
  if (count >= 1e4 && count % 1e4 === 0) return `${count / 1e4}万`;
  return String(count);
}

const megabytes = (bytes: number): number => Math.round(bytes / (1024 * 1024));

/** Decision 0027: an engine budget (packages/cad limits.ts) the drawing went over. */
const LIMIT_MESSAGES: Record<LimitName, string> = {
  entities: `图纸过于复杂：块参照展开后超过${countText(ENGINE_LIMITS.entities)}个图形，无法转换`,
  points: `图纸过于复杂：图形超过${countText(ENGINE_LIMITS.points)}个点，无法转换`,
  pdfPages: `PDF页数过多：一次最多转换${ENGINE_LIMITS.pdfPages}页，请在转换选项中填写页码范围`,
  pdfDecodedBytes: `PDF内容解压后超过${megabytes(ENGINE_LIMITS.pdfDecodedBytes)}MB，无法转换`,
  outputBytes: `转换结果超过${megabytes(ENGINE_LIMITS.outputBytes)}MB，无法转换`,
  pixels: `输出图片超过${countText(ENGINE_LIMITS.pixels)}像素，请减小图片宽度或DPI`,
};

export const JOB_MESSAGES = {
  unreadable: '文件已损坏或不是有效的DWG/DXF文件',
  empty: '图纸中没有可以转换的图形',
  unknownLayout: (layout: string) => `图纸中没有名为“${layout}”的布局`,
  badOptions: CONVERSION_MESSAGES.parainfo,
  internal: '这张图纸暂时无法转换，请检查图纸后重试或联系客服',
  timeout: '图纸过于复杂，转换超时',
  memory: '图纸过大，超出转换内存限制',
  limit: (limit: LimitName) => LIMIT_MESSAGES[limit],
  /** A tool or output the engine does not run; refused, never faked. */
  unsupported: '该转换暂未开放，敬请期待',
  /** A DWG version the writer does not write yet (DXF takes every version). */
  dwgVersion: (asked: string, written: readonly string[]) =>
    `暂不支持输出${asked}版本的DWG，可选择${written.join('、')}版本，或选择DXF格式（支持全部版本）`,
  unreadablePdf: '文件已损坏、已加密或不是有效的PDF文件',
  rasterPdf: '该PDF为扫描件或纯图片，没有可转换的矢量内容',
  wrongInput: CONVERSION_MESSAGES.wrongType,
  inputMissing: '文件上传不完整，请重新上传',
  busy: '转换服务繁忙，请稍后重试',
  /** A task with some files converted: which failed and why. */
  partial: (count: number, failures: string) => `${count}个文件转换失败：${failures}`,
  /** A task with every file failed for different reasons. */
  allFailed: (failures: string) => `文件均未能转换：${failures}`,
  failedFile: (name: string, reason: string) => `${name}（${reason}）`,
  /** The download of several converted files. */
  resultZipName: (files: number) => `转换结果_${files}个文件.zip`,
} as const;

/** The failed files and their reasons, the first few named: 'a.dwg（…）；b.dxf（…）'. */
export function failureList(files: readonly Pick<ConversionFileRow, 'name' | 'reason'>[]): string {
  const shown = files.slice(0, 5).map((file) => JOB_MESSAGES.failedFile(file.name, file.reason ?? JOB_MESSAGES.internal));
  return `${shown.join('；')}${files.length > shown.length ? '……' : ''}`;
}

/** Why a task with no file converted failed: the one reason they share, or each file's. */
export function failedTaskReason(files: readonly Pick<ConversionFileRow, 'name' | 'reason'>[]): string {
  const reasons = new Set(files.map((file) => file.reason ?? JOB_MESSAGES.internal));
  const [only] = reasons;
  return reasons.size === 1 && only !== undefined ? only : JOB_MESSAGES.allFailed(failureList(files));
}

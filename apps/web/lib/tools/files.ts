import { CONVERSION_LIMITS, UPLOAD, type LocalMembershipState, type TTaskType } from '@xcad/protocol';
import { extensionsOf, kindsLabelOf } from './tools';

// What the tool pages check before anything is sent (decision 0019): the file type by its name, the
// size and the number of files of the visitor's tier. The server checks again, the type by the
// file's bytes, and its refusal is shown as it comes.

/** Visitors and members of the converter (product 202) have different limits (CONVERSION_LIMITS). */
export type ConverterTier = 'visitor' | 'member';

/** A member of the converter: its expiry (the membership state's `zhuanhuanqi`) lies ahead. */
export function tierOf(membership: Pick<LocalMembershipState, 'zhuanhuanqi'> | null, nowSeconds: number): ConverterTier {
  const expiry = membership?.zhuanhuanqi.expireTime ?? null;
  return expiry !== null && expiry > nowSeconds ? 'member' : 'visitor';
}

export interface TierLimits {
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  readonly tasksPerDay: number;
}

export function limitsOf(tier: ConverterTier): TierLimits {
  return CONVERSION_LIMITS[tier];
}

/** Whole megabytes, as the limits are stated to people. */
export function megabytesOf(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}

/**
 * `limitsize` of uploadpar, in KB: spec §9's 51200 for visitors; the server applies the smaller of
 * it and the tier's limit, so a member sends the member limit.
 */
export function limitsizeOf(tier: ConverterTier): number {
  return Math.max(UPLOAD.limitsize, Math.floor(limitsOf(tier).maxFileBytes / 1024));
}

/** The part of a File the checks need (tests pass plain objects). */
export interface NamedSize {
  readonly name: string;
  readonly size: number;
}

export type FileProblem =
  | { readonly kind: 'wrongType'; readonly expected: string }
  | { readonly kind: 'tooLarge'; readonly maxMb: number }
  | { readonly kind: 'empty' };

/** The extension after the last dot, lower case; '' when there is none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function problemOf(file: NamedSize, tool: TTaskType, tier: ConverterTier): FileProblem | null {
  if (!(extensionsOf(tool) as readonly string[]).includes(extensionOf(file.name)))
    return { kind: 'wrongType', expected: kindsLabelOf(tool) };
  if (file.size === 0) return { kind: 'empty' };
  const { maxFileBytes } = limitsOf(tier);
  if (file.size > maxFileBytes) return { kind: 'tooLarge', maxMb: megabytesOf(maxFileBytes) };
  return null;
}

interface Refused<F> {
  readonly file: F;
  readonly problem: FileProblem;
}

export interface Added<F> {
  /** The list after adding: the files that passed, up to the tier's count. */
  readonly files: readonly F[];
  /** Files refused for their own sake (type, size, empty). */
  readonly refused: readonly Refused<F>[];
  /** Good files left out because the list was full; 0 when all fitted. */
  readonly overflow: number;
}

/** Same name, size and date: the same file picked twice. */
function isSameFile(a: NamedSize & { readonly lastModified?: number }, b: NamedSize & { readonly lastModified?: number }): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
}

/**
 * Adds picked or dropped files to the list: refused ones are reported, the same file twice is
 * added once, and no more than the tier's count are kept (the first ones).
 */
export function addFiles<F extends NamedSize & { readonly lastModified?: number }>(
  current: readonly F[],
  picked: readonly F[],
  tool: TTaskType,
  tier: ConverterTier,
): Added<F> {
  const refused: Refused<F>[] = [];
  const files = [...current];
  let overflow = 0;
  for (const file of picked) {
    const problem = problemOf(file, tool, tier);
    if (problem !== null) refused.push({ file, problem });
    else if (files.some((kept) => isSameFile(kept, file))) continue;
    else if (files.length >= limitsOf(tier).maxFiles) overflow += 1;
    else files.push(file);
  }
  return { files, refused, overflow };
}

export type StartProblem =
  { readonly kind: 'noFiles' } | { readonly kind: 'tooMany'; readonly max: number } | ({ readonly index: number } & FileProblem);

/** Checks the list again when the conversion starts (the tier may have changed since it was made). */
export function startProblemOf(files: readonly NamedSize[], tool: TTaskType, tier: ConverterTier): StartProblem | null {
  if (files.length === 0) return { kind: 'noFiles' };
  const { maxFiles } = limitsOf(tier);
  if (files.length > maxFiles) return { kind: 'tooMany', max: maxFiles };
  for (const [index, file] of files.entries()) {
    const problem = problemOf(file, tool, tier);
    if (problem !== null) return { index, ...problem };
  }
  return null;
}

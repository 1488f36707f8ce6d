export type CadReadErrorReason = 'not-dxf' | 'corrupt' | 'empty' | 'unsupported';

/** Thrown when input cannot be read as a drawing at all. `message` is one line. */
export class CadReadError extends Error {
  readonly reason: CadReadErrorReason;
  constructor(reason: CadReadErrorReason, message: string) {
    super(message);
    this.name = 'CadReadError';
    this.reason = reason;
  }
}

/**
 * The engine's budgets of one conversion (limits.ts): a small hostile file can describe an
 * enormous amount of work, so each is checked as the work goes and stops it.
 */
export type LimitName = 'entities' | 'points' | 'pdfPages' | 'pdfDecodedBytes' | 'outputBytes' | 'pixels';

/** Thrown when a budget is exceeded: `limit` names it, `max` is its value. `message` is one line. */
export class CadLimitError extends Error {
  readonly limit: LimitName;
  readonly max: number;
  constructor(limit: LimitName, max: number, message: string) {
    super(message);
    this.name = 'CadLimitError';
    this.limit = limit;
    this.max = max;
  }
}

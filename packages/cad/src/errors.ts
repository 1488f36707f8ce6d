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

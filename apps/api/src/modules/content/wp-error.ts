// WordPress REST errors (FACTS.md "WordPress REST API"): `{code, message, data: {status, ...}}`,
// with WordPress's own codes and English messages so WordPress clients read them unchanged.

export class WpError extends Error {
  override readonly name = 'WpError';

  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }

  toBody(): { code: string; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.extra } };
  }
}

export interface ParamProblem {
  /** WordPress's detail code: rest_invalid_type, rest_out_of_bounds, rest_not_in_enum, ... */
  code: string;
  message: string;
}

export function invalidParams(problems: ReadonlyMap<string, ParamProblem>): WpError {
  const names = [...problems.keys()];
  const params = Object.fromEntries([...problems].map(([name, problem]) => [name, problem.message]));
  const details = Object.fromEntries(
    [...problems].map(([name, problem]) => [name, { code: problem.code, message: problem.message, data: null }]),
  );
  return new WpError('rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, 400, { params, details });
}

export function missingParams(names: readonly string[]): WpError {
  return new WpError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, 400, { params: names });
}

export const invalidPostId = (): WpError => new WpError('rest_post_invalid_id', 'Invalid post ID.', 404);

export const invalidTerm = (): WpError => new WpError('rest_term_invalid', 'Term does not exist.', 404);

export const invalidPageNumber = (): WpError =>
  new WpError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);

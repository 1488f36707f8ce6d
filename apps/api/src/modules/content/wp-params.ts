import { invalidParams, missingParams, type ParamProblem } from './wp-error';

// Reads request parameters the way WordPress's REST schema validation does (rest_validate_value_from_schema):
// numeric strings count as integers, lists may be comma-separated or repeated, unknown parameters
// are ignored, and every bad parameter is reported at once in one rest_invalid_param answer.

/** Larger integers cannot be bound to a bigint column on every engine; they match nothing anyway. */
const INTEGER_LIMIT = Number.MAX_SAFE_INTEGER;
const INTEGER_TEXT = /^[+-]?\d+(?:\.0*)?$/;
const LIST_SEPARATOR = /[\s,]+/;

type Raw = unknown;

/** WordPress lists enum values as "a, b, and c" ("a and b" for two). */
export function listOfWords(values: readonly string[]): string {
  if (values.length <= 2) return values.join(' and ');
  return `${values.slice(0, -1).join(', ')}, and ${values.at(-1) ?? ''}`;
}

function clampInteger(value: number): number {
  return Math.max(-INTEGER_LIMIT, Math.min(INTEGER_LIMIT, Math.trunc(value)));
}

/** An integer as WordPress accepts one (`rest_is_integer`), or undefined. */
export function integerOf(raw: Raw): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) && Number.isInteger(raw) ? clampInteger(raw) : undefined;
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (!INTEGER_TEXT.test(text)) return undefined;
  return clampInteger(Number(text));
}

export class WpParams {
  private readonly values = new Map<string, Raw>();
  private readonly problems = new Map<string, ParamProblem>();

  /** `sources` in order of precedence (e.g. the query string, then a form body). */
  constructor(...sources: unknown[]) {
    for (const source of sources.toReversed()) {
      if (typeof source !== 'object' || source === null || Array.isArray(source)) continue;
      for (const [key, value] of Object.entries(source)) {
        // PHP reads `tags[]=1&tags[]=2` as the list `tags`.
        const name = key.endsWith('[]') ? key.slice(0, -2) : key;
        this.values.set(name, value);
      }
    }
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** Records a problem with `name` found by a rule of the caller's own. */
  reject(name: string, code: string, message: string): void {
    this.fail(name, code, message);
  }

  private fail(name: string, code: string, message: string): undefined {
    if (!this.problems.has(name)) this.problems.set(name, { code, message });
    return undefined;
  }

  integer(name: string, bounds: { minimum?: number; maximum?: number } = {}): number | undefined {
    if (!this.values.has(name)) return undefined;
    const value = integerOf(this.values.get(name));
    if (value === undefined) return this.fail(name, 'rest_invalid_type', `${name} is not of type integer.`);
    const { minimum, maximum } = bounds;
    const isBelow = minimum !== undefined && value < minimum;
    const isAbove = maximum !== undefined && value > maximum;
    if (minimum !== undefined && maximum !== undefined && (isBelow || isAbove)) {
      return this.fail(name, 'rest_out_of_bounds', `${name} must be between ${minimum} (inclusive) and ${maximum} (inclusive)`);
    }
    if (isBelow) return this.fail(name, 'rest_out_of_bounds', `${name} must be greater than or equal to ${minimum}`);
    if (isAbove) return this.fail(name, 'rest_out_of_bounds', `${name} must be less than or equal to ${maximum}`);
    return value;
  }

  private items(name: string): string[] | undefined {
    if (!this.values.has(name)) return undefined;
    const raw = this.values.get(name);
    const parts = Array.isArray(raw) ? raw : [raw];
    const items: string[] = [];
    for (const part of parts) {
      if (typeof part === 'number') items.push(String(part));
      else if (typeof part === 'string') items.push(...part.split(LIST_SEPARATOR));
      else return this.fail(name, 'rest_invalid_type', `${name} is not of type array.`);
    }
    return items.map((item) => item.trim()).filter((item) => item !== '');
  }

  integerList(name: string): number[] | undefined {
    const items = this.items(name);
    if (items === undefined) return undefined;
    const numbers: number[] = [];
    for (const [index, item] of items.entries()) {
      const value = integerOf(item);
      if (value === undefined) return this.fail(name, 'rest_invalid_type', `${name}[${index}] is not of type integer.`);
      numbers.push(value);
    }
    return numbers;
  }

  stringList(name: string): string[] | undefined {
    return this.items(name);
  }

  string(name: string): string | undefined {
    if (!this.values.has(name)) return undefined;
    const raw = this.values.get(name);
    if (typeof raw === 'number') return String(raw);
    if (typeof raw !== 'string') return this.fail(name, 'rest_invalid_type', `${name} is not of type string.`);
    return raw;
  }

  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
    if (!this.values.has(name)) return fallback;
    const raw = this.values.get(name);
    const match = values.find((value) => value === raw);
    if (match !== undefined) return match;
    this.fail(name, 'rest_not_in_enum', `${name} is not one of ${listOfWords(values)}.`);
    return fallback;
  }

  boolean(name: string, fallback: boolean): boolean {
    if (!this.values.has(name)) return fallback;
    const raw = this.values.get(name);
    if (raw === true || raw === 'true' || raw === '1' || raw === 1) return true;
    if (raw === false || raw === 'false' || raw === '0' || raw === 0 || raw === '') return false;
    this.fail(name, 'rest_invalid_type', `${name} is not of type boolean.`);
    return fallback;
  }

  /** Throws the missing or rest_invalid_param error for everything read so far. */
  check(required: readonly string[] = []): void {
    const missing = required.filter((name) => !this.values.has(name));
    if (missing.length > 0) throw missingParams(missing);
    if (this.problems.size > 0) throw invalidParams(this.problems);
  }
}

import { describe, expect, it } from 'vitest';
import { ImportError } from './import-error';

describe('ImportError', () => {
  it('names the import and lists every problem with its file, or the source file of the import', () => {
    const error = new ImportError(
      'drawing library',
      [
        { field: 'drawings.0.date', message: 'is not a calendar date' },
        { file: 'content/drawings/other.yml', field: 'file', message: 'is not valid YAML' },
      ],
      'content/drawings/library.yml',
    );
    expect(error.name).toBe('ImportError');
    expect(error.message).toBe(
      'drawing library import failed (2 problem(s)), nothing was written:\n' +
        '  content/drawings/library.yml: drawings.0.date: is not a calendar date\n' +
        '  content/drawings/other.yml: file: is not valid YAML',
    );
    expect(error.problems).toHaveLength(2);
  });
});

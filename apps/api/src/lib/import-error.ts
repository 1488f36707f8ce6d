// The one error of the content imports (posts, course, drawing library, software): an import
// checks every source file before it writes anything, so a refusal lists all problems at once
// and leaves the database as it was.

export interface ImportProblem {
  /** The source file, as `content/<folder>/<name>`; absent when the import reads one file only. */
  readonly file?: string;
  /** The field (dotted path), or `file` / `front matter` / `body`. */
  readonly field: string;
  readonly message: string;
}

/** The import refused its source files: nothing of the run was written. */
export class ImportError extends Error {
  readonly problems: readonly ImportProblem[];

  /**
   * `what` names the import in the message ("content", "course", ...); `source` is the file of
   * the problems that name none.
   */
  constructor(what: string, problems: readonly ImportProblem[], source?: string) {
    const lines = problems.map((problem) => `  ${problem.file ?? source ?? what}: ${problem.field}: ${problem.message}`);
    super(`${what} import failed (${problems.length} problem(s)), nothing was written:\n${lines.join('\n')}`);
    this.name = 'ImportError';
    this.problems = problems;
  }
}

/**
 * The one error type for everything a user can cause: bad content, bad settings, bad flags,
 * an unreachable CMS. It carries one or more problems, so validation can report all of them
 * at once. The CLI prints it without a stack trace and exits non-zero.
 */
export interface Problem {
  /** Short, permanent code, from the catalogue (`catalogue.ts`). */
  code: string;
  /** What happened, as a plain sentence. */
  message: string;
  /** The file concerned, relative to the project root where possible. */
  file?: string;
  /** Key path inside the file, e.g. `faq[3].a`. */
  field?: string;
  /** Line in the file, when known. */
  line?: number;
  /** Column of that line, counted from 1, when known (a YAML syntax error). */
  column?: number;
  /**
   * The lines of the file around `line`, as printed under the message: the line before, the
   * line (marked `>`), a caret under `column`, the line after (see util/code-frame.ts).
   */
  frame?: string[];
  /** The URL concerned (CMS errors). */
  url?: string;
  /** The next action for the user. */
  hint?: string;
}

export class StorefrontError extends Error {
  readonly problems: readonly Problem[];
  /** Said once after the problems, e.g. that dist/ was left untouched. */
  readonly footer?: string;

  /** `cause`: the error this one stands for (a refusal of the system), shown with --debug. */
  constructor(problems: Problem | readonly Problem[], footer?: string, options?: { cause?: unknown }) {
    const list = Array.isArray(problems) ? problems : [problems as Problem];
    // No cause given, none kept (an own `cause: undefined` would still be printed as one).
    super(list.map((p) => `${p.code} ${p.message}`).join('\n'), options?.cause === undefined ? undefined : options);
    this.name = 'StorefrontError';
    this.problems = list;
    this.footer = footer;
  }
}

/** Said after the problems of a build that stopped before writing. */
export const NOTHING_WRITTEN = 'Nothing was written; the output folder is as it was.';

/** Collects problems during a pass, then throws them together. */
export class ProblemList {
  readonly items: Problem[] = [];
  add(problem: Problem): void {
    this.items.push(problem);
  }
  get size(): number {
    return this.items.length;
  }
  throwIfAny(footer?: string): void {
    if (this.items.length > 0) throw new StorefrontError(this.items, footer);
  }
}

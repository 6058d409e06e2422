/**
 * The one way every command prints. The global flags --quiet and --verbose are applied here
 * (applyGlobalFlags in global-options.ts configures `output` before any command runs), so a
 * command never tests them itself:
 *
 *   import { output } from '../cli/output.js';
 *   output.result('Serving dist at http://127.0.0.1:4173');  // stdout; not with --quiet
 *   output.info('Rebuilding after content/site.yaml changed'); // stderr; not with --quiet
 *   output.warn('warning: ...');                              // stderr, yellow; not with --quiet
 *   output.detail('  GET /about 200');                        // stderr; only with --verbose
 *   output.progress('render', `Rendering pages: ${done} of ${total}`, done, total, 100);
 *   output.endProgress();                                     // when the long work is over
 *
 * Errors are not printed by commands: they throw (a StorefrontError for anything the user can
 * fix) and main.ts prints them with `output.error`, whatever the flags.
 *
 * Text leaves for the terminal here and nowhere else, and much of it comes from content or from a
 * server (a field name, a WordPress error, a product's name). So every call prints one line: its
 * control characters (ESC, CR, BEL, C1), line breaks and text-direction characters are shown as
 * escapes (`\x1b`, `\r`, `\n`, `\u202e`: util/plain-text.ts), and a line of several lines is
 * several calls. Our own colours still work: `output.colours` wraps text in seals only this
 * process can write, and the seals become colour codes after the text has been escaped.
 */
import { randomUUID } from 'node:crypto';
import { escapeForTerminal } from '../util/plain-text.js';
import { palette, type Palette } from './colours.js';
import { ProgressDisplay, type ProgressStyle } from './progress.js';
import type { Problem } from '../errors/storefront-error.js';
import { formatProblems, type ProblemFormat, type ProblemRun } from '../errors/problem-formats.js';
import { asStorefrontError, formatError } from './report-error.js';
import { canRedraw, wantsColour, type Env, type StreamInfo } from './terminal.js';

export type Verbosity = 'quiet' | 'normal' | 'verbose';

export interface OutputStream extends StreamInfo {
  write(text: string): unknown;
}

/**
 * Colour codes that text cannot forge: a palette's codes are replaced by seals (a noncharacter,
 * a secret of this process, a number), the text between seals is escaped, then each seal becomes
 * its code again. An ESC in the text is shown as `\x1b`; a colour of ours is written as colour.
 */
class Seals {
  private readonly secret = randomUUID().replace(/-/g, '');
  private readonly codes: string[] = [];
  private readonly pattern = new RegExp(`\ufdd0${this.secret}(\\d+)\ufdd1`, 'g');

  /** The palette with its codes sealed; a palette without colour stays without. */
  palette(real: Palette): Palette {
    const seal = (code: string) => {
      const index = this.codes.includes(code) ? this.codes.indexOf(code) : this.codes.push(code) - 1;
      return `\ufdd0${this.secret}${index}\ufdd1`;
    };
    const sealed = (colour: (text: string) => string) => {
      const [open = '', close = ''] = colour('\u0000').split('\u0000');
      if (!open && !close) return (text: string) => text;
      const [o, c] = [seal(open), seal(close)];
      return (text: string) => `${o}${text}${c}`;
    };
    return Object.fromEntries(
      Object.entries(real).map(([name, colour]) => [name, sealed(colour)]),
    ) as unknown as Palette;
  }

  /** The text escaped for the terminal (line feeds too, unless kept), the seals back to their codes. */
  render(text: string, keepLineBreaks = false): string {
    let out = '';
    let last = 0;
    for (const match of text.matchAll(this.pattern)) {
      out += escapeForTerminal(text.slice(last, match.index), keepLineBreaks) + this.codes[Number(match[1])]!;
      last = match.index + match[0].length;
    }
    return out + escapeForTerminal(text.slice(last), keepLineBreaks);
  }
}

export class Output {
  private level: Verbosity = 'normal';
  private format: ProblemFormat = 'text';
  private run: ProblemRun = { tool: 'storefront', version: '' };
  private readonly seals = new Seals();
  private progressDisplay: ProgressDisplay;
  /** Colours for what goes to stdout and to stderr: each is coloured only if it is a terminal. */
  readonly colours: { out: Palette; err: Palette };

  constructor(
    private readonly stdout: OutputStream = process.stdout,
    private readonly stderr: OutputStream = process.stderr,
    private readonly env: Env = process.env,
  ) {
    this.colours = {
      out: this.seals.palette(palette(wantsColour(stdout, env))),
      err: this.seals.palette(palette(wantsColour(stderr, env))),
    };
    this.progressDisplay = new ProgressDisplay(this.progressStyle(), stderr);
  }

  get verbosity(): Verbosity {
    return this.level;
  }

  get verbose(): boolean {
    return this.level === 'verbose';
  }

  get quiet(): boolean {
    return this.level === 'quiet';
  }

  configure(settings: { verbosity: Verbosity; format?: ProblemFormat; run?: ProblemRun }): void {
    this.progressDisplay.end();
    this.level = settings.verbosity;
    this.format = settings.format ?? 'text';
    this.run = settings.run ?? this.run;
    this.progressDisplay = new ProgressDisplay(this.progressStyle(), this.stderr);
  }

  /** What the command produced (the summary, the address served): stdout, or stderr when stdout is a report. */
  result(line: string): void {
    if (!this.quiet) this.print(this.format === 'text' || this.format === 'github' ? this.stdout : this.stderr, line);
  }

  /** What happens along the way (notes, retries): stderr. */
  info(line: string): void {
    if (!this.quiet) this.print(this.stderr, line);
  }

  /** Something the user should look at, though the command goes on: stderr, in yellow. */
  warn(line: string): void {
    if (!this.quiet) this.print(this.stderr, this.colours.err.yellow(line));
  }

  /** Detail asked for with --verbose: stderr. */
  detail(line: string): void {
    if (this.verbose) this.print(this.stderr, line);
  }

  /**
   * Printed whatever the flags: a code, the place, the message, a hint; the stack with --debug.
   * formatError escapes each piece of a problem (line feeds too); its own lines are kept.
   */
  error(err: unknown, debug: boolean): void {
    this.progressDisplay.end();
    this.stderr.write(`${this.seals.render(formatError(err, debug, this.colours.err), true)}\n`);
    const error = asStorefrontError(err);
    this.report(error.problems, error.footer);
  }

  /**
   * The command's problems (none when it succeeded) in the format CI reads (--format), on stdout:
   * GitHub's annotations, or a whole JUnit, SARIF or JSON document, which a run that passed
   * writes too. A line of annotations has its controls escaped like any other line.
   */
  report(problems: readonly Problem[], summary?: string): void {
    if (this.format === 'text') return;
    const text = formatProblems(this.format, problems, { ...this.run, summary });
    this.stdout.write(this.format === 'github' ? text.replace(/[^\n]+/g, (line) => escapeForTerminal(line)) : text);
  }

  /** Progress of a long task (see ProgressDisplay); nothing with --quiet. */
  progress(task: string, text: string, done: number, total: number, minStep = 1): void {
    this.progressDisplay.update(task, this.seals.render(text), done, total, minStep);
  }

  /** What is going on before there is anything to count (on a terminal only). */
  status(text: string): void {
    this.progressDisplay.status(this.seals.render(text));
  }

  /** Erases the progress line: call when the long work is over, whether it succeeded or not. */
  endProgress(): void {
    this.progressDisplay.end();
  }

  private progressStyle(): ProgressStyle {
    if (this.quiet) return 'off';
    return canRedraw(this.stderr, this.env) ? 'bar' : 'lines';
  }

  /** A progress line on screen is lifted off for the line and drawn again under it. */
  private print(stream: OutputStream, line: string): void {
    this.progressDisplay.suspend();
    stream.write(`${this.seals.render(line)}\n`);
    this.progressDisplay.resume();
  }
}

/** The output of this process, configured from the global flags by applyGlobalFlags. */
export const output = new Output();

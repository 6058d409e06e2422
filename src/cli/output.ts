/**
 * The one way every command prints. The global flags --quiet and --verbose are applied here
 * (main.ts configures `output` before any command runs), so a command never tests them itself:
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
 */
import { palette, type Palette } from './colours.js';
import { ProgressDisplay, type ProgressStyle } from './progress.js';
import { formatError } from './report-error.js';
import { canRedraw, wantsColour, type Env, type StreamInfo } from './terminal.js';

export type Verbosity = 'quiet' | 'normal' | 'verbose';

export interface OutputStream extends StreamInfo {
  write(text: string): unknown;
}

export class Output {
  private level: Verbosity = 'normal';
  private progressDisplay: ProgressDisplay;
  /** Colours for what goes to stdout and to stderr: each is coloured only if it is a terminal. */
  readonly colours: { out: Palette; err: Palette };

  constructor(
    private readonly stdout: OutputStream = process.stdout,
    private readonly stderr: OutputStream = process.stderr,
    private readonly env: Env = process.env,
  ) {
    this.colours = { out: palette(wantsColour(stdout, env)), err: palette(wantsColour(stderr, env)) };
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

  configure(settings: { verbosity: Verbosity }): void {
    this.progressDisplay.end();
    this.level = settings.verbosity;
    this.progressDisplay = new ProgressDisplay(this.progressStyle(), this.stderr);
  }

  /** What the command produced (the summary, the address served): stdout. */
  result(line: string): void {
    if (!this.quiet) this.print(this.stdout, line);
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

  /** Printed whatever the flags: a code, the place, the message, a hint; the stack with --debug. */
  error(err: unknown, debug: boolean): void {
    this.progressDisplay.end();
    this.stderr.write(`${formatError(err, debug, this.colours.err)}\n`);
  }

  /** Progress of a long task (see ProgressDisplay); nothing with --quiet. */
  progress(task: string, text: string, done: number, total: number, minStep = 1): void {
    this.progressDisplay.update(task, text, done, total, minStep);
  }

  /** What is going on before there is anything to count (on a terminal only). */
  status(text: string): void {
    this.progressDisplay.status(text);
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
    stream.write(`${line}\n`);
    this.progressDisplay.resume();
  }
}

/** The output of this process, configured from the global flags by main.ts. */
export const output = new Output();

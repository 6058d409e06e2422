/**
 * Progress of long work (the CMS fetch, rendering), in one of three styles:
 * - `bar`: one line on a terminal, redrawn in place with `\r` and erased at the end;
 * - `lines`: plain lines for logs and pipes, one per tenth of the work (and at most one per
 *   `minStep` units) and one for the end, so 40,000 pages make ten lines, not 40,000, and a
 *   site of 20 pages one line;
 * - `off`: nothing (--quiet).
 */

export type ProgressStyle = 'bar' | 'lines' | 'off';

/** Where the progress goes (process.stderr qualifies). */
export interface ProgressStream {
  write(text: string): unknown;
  columns?: number;
}

/** Back to the start of the line and erase it. */
const ERASE_LINE = '\r\x1b[2K';
const BAR_WIDTH = 30;

interface LineState {
  total: number;
  done: number;
  /** Steps of the work already reported. */
  steps: number;
}

export class ProgressDisplay {
  /** The line on screen (bar style), drawn again after other output. */
  private shown = '';
  private shownTask = '';
  private shownPercent = -1;
  private readonly lineStates = new Map<string, LineState>();

  constructor(
    readonly style: ProgressStyle,
    private readonly stream: ProgressStream,
  ) {}

  /**
   * Work of a task went on: `text` says where it is (`Rendering pages: 1200 of 4000`), `task`
   * names the task so that two tasks are counted apart. In plain lines, `minStep` is the least
   * work worth a line of its own (the last line is always printed).
   */
  update(task: string, text: string, done: number, total: number, minStep = 1): void {
    if (this.style === 'lines') this.updateLines(task, text, done, total, minStep);
    else if (this.style === 'bar') this.updateBar(task, text, done, total);
  }

  /** A line of status without a count (on a terminal only), e.g. while the content is read. */
  status(text: string): void {
    if (this.style !== 'bar') return;
    this.shownTask = '';
    this.draw(text);
  }

  /** Takes the line off the screen before other output; `resume` puts it back. */
  suspend(): void {
    if (this.shown) this.stream.write(ERASE_LINE);
  }

  resume(): void {
    if (this.shown) this.stream.write(this.shown);
  }

  /** The work is over: the line is erased for good. */
  end(): void {
    this.suspend();
    this.shown = '';
    this.shownTask = '';
    this.shownPercent = -1;
    this.lineStates.clear();
  }

  private updateLines(task: string, text: string, done: number, total: number, minStep: number): void {
    let state = this.lineStates.get(task);
    // A new run of the same task (another build in one process): counted afresh.
    if (!state || state.total !== total || done < state.done) state = { total, done: 0, steps: 0 };
    const step = Math.max(Math.ceil(total / 10), minStep, 1);
    const steps = Math.floor(done / step);
    if (done >= total || steps > state.steps) {
      this.stream.write(`${text}\n`);
      state.steps = steps;
    }
    state.done = done;
    this.lineStates.set(task, state);
  }

  private updateBar(task: string, text: string, done: number, total: number): void {
    const fraction = total > 0 ? Math.min(done / total, 1) : 1;
    const percent = Math.floor(fraction * 100);
    // Redrawn once per percent: writing to a terminal for every page would cost more than the page.
    if (task === this.shownTask && percent === this.shownPercent && done < total) return;
    this.shownTask = task;
    this.shownPercent = percent;
    const columns = this.stream.columns || 80;
    const room = columns - text.length - 8;
    const width = Math.min(BAR_WIDTH, room);
    const filled = Math.round(fraction * width);
    const bar = width >= 10 ? `  ${'█'.repeat(filled)}${'░'.repeat(width - filled)}` : '';
    this.draw(`${text}${bar} ${String(percent).padStart(3)}%`);
  }

  private draw(line: string): void {
    // One column short of the width: a line that wraps can no longer be redrawn in place.
    const columns = this.stream.columns || 80;
    const fitted = line.length >= columns ? line.slice(0, Math.max(columns - 1, 1)) : line;
    this.shown = `${ERASE_LINE}${fitted}`;
    this.stream.write(this.shown);
  }
}

/**
 * The few colours the CLI uses, as plain ANSI codes (no dependency needed for five of them).
 * With colour off every function returns its text unchanged, so callers never branch.
 */
export interface Palette {
  /** Problem codes (SF103). */
  red(text: string): string;
  /** Warnings. */
  yellow(text: string): string;
  /** The summary of a command that succeeded. */
  green(text: string): string;
  /** Hints: what to do next. */
  cyan(text: string): string;
  /** Secondary detail: timings. */
  dim(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

const colourPalette: Palette = {
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  green: wrap(32, 39),
  cyan: wrap(36, 39),
  dim: wrap(2, 22),
};

const same = (text: string) => text;

export const plainPalette: Palette = { red: same, yellow: same, green: same, cyan: same, dim: same };

export function palette(colour: boolean): Palette {
  return colour ? colourPalette : plainPalette;
}

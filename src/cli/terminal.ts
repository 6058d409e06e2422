/**
 * What the CLI may assume about where its output goes: whether to colour it and whether a
 * progress line can be redrawn in place. Decided from the stream and the environment only,
 * so a test can choose either with a few variables.
 */

export type Env = Readonly<Record<string, string | undefined>>;

/** The part of a stream the decisions look at (process.stdout and process.stderr qualify). */
export interface StreamInfo {
  isTTY?: boolean;
  columns?: number;
}

const isSet = (value: string | undefined): boolean => value !== undefined && value !== '';

/** `CI=true`, `CI=1`... as CI services set it; `CI=false` or `CI=0` is read as unset. */
export function isCi(env: Env): boolean {
  return isSet(env.CI) && env.CI !== '0' && env.CI !== 'false';
}

/**
 * Colour on a terminal only. NO_COLOR (any non-empty value, https://no-color.org) always wins;
 * FORCE_COLOR (non-empty, not "0" or "false") turns it on where there is no terminal, e.g. in
 * tests reading a pipe.
 */
export function wantsColour(stream: StreamInfo, env: Env): boolean {
  if (isSet(env.NO_COLOR)) return false;
  if (isSet(env.FORCE_COLOR)) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/**
 * A line can be redrawn with `\r` and erased with an escape code only on a real terminal; in CI
 * logs (often a pseudo-terminal that is kept as a file) every redraw would stay as a line.
 */
export function canRedraw(stream: StreamInfo, env: Env): boolean {
  return stream.isTTY === true && !isCi(env) && env.TERM !== 'dumb';
}

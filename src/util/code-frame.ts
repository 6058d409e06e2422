import { escapeForTerminal } from './plain-text.js';

/** The most characters of one line a frame shows; a longer line is cut around the column. */
const WIDTH = 100;

/**
 * The lines of `text` around `line` (from 1), as esbuild and Astro print them under an error:
 * the line before, the line marked `>`, a caret under `column` (from 1), the line after.
 *
 *     11 | claims:
 *   > 12 |   startTime about 15 minutes
 *        |   ^
 *     13 |   growthWindow: a few weeks
 *
 * The text comes from a content file, so its controls are shown escaped (`\x1b`) and a tab as a
 * space, before the caret is placed: the caret stays under its character.
 */
export function codeFrame(text: string, line: number, column = 1): string[] {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  // The empty "line" after the final line break is no line of the file, unless the error is there.
  if (lines.length > 1 && lines.at(-1) === '' && line < lines.length) lines.pop();
  if (line < 1 || line > lines.length) return [];
  const first = Math.max(1, line - 1);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const frame: string[] = [];
  for (let n = first; n <= last; n++) {
    const shown = n === line ? cut(lines[n - 1]!, column) : cut(lines[n - 1]!, 1);
    frame.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${shown.text}`.trimEnd());
    if (n === line) frame.push(`  ${' '.repeat(width)} | ${' '.repeat(shown.caret)}^`);
  }
  return frame;
}

/** The line as shown (escaped, at most WIDTH characters around the column) and where the caret goes in it. */
function cut(line: string, column: number): { text: string; caret: number } {
  const chars = [...line].map((char) => (char === '\t' ? ' ' : escapeForTerminal(char)));
  // A column past the end (a missing closing quote at the end of the line) points just after it.
  const at = Math.min(Math.max(0, column - 1), chars.length);
  const start = at > WIDTH - 20 ? at - (WIDTH - 40) : 0;
  const end = Math.min(chars.length, start + WIDTH);
  const head = start > 0 ? '…' : '';
  const shown = head + chars.slice(start, end).join('') + (end < chars.length ? '…' : '');
  return { text: shown, caret: head.length + chars.slice(start, at).join('').length };
}

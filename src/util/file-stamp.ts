import { statSync } from 'node:fs';

/**
 * Identifies a version of a file without reading it: its size and modification time, what make
 * and Hugo compare. The time is the plain stat's milliseconds, a double precise to a quarter of a
 * microsecond today: a nanosecond (bigint) stat costs half as much again, and a rebuild of a
 * large blog stamps thousands of files.
 */
export function fileStamp(absolute: string): { size: number; stamp: string } {
  const stat = statSync(absolute);
  return { size: stat.size, stamp: `${stat.size}:${stat.mtimeMs}` };
}

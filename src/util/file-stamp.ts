import { statSync } from 'node:fs';

/**
 * Identifies a version of a file without reading it: its size and modification time, to the
 * nanosecond on the file systems builds run on. What make and Hugo compare.
 */
export function fileStamp(absolute: string): { size: number; stamp: string } {
  const stat = statSync(absolute, { bigint: true });
  return { size: Number(stat.size), stamp: `${stat.size}:${stat.mtimeNs}` };
}

import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * A cache file of entries by name (the posts cache, the output manifest) that a rebuild which
 * changed a few entries appends to instead of writing whole: at 40,000 posts the two files are
 * 22 and 10 MB, and writing them again cost a seventh of such a rebuild.
 *
 * FILE is JSON: the header's fields (`folder` first, see orphans.ts), a `generation` and the
 * `entries`. FILE.log, when there is one, starts with `{"generation":...}`, the generation it
 * follows, then has one line per change: `[name, entry]`, or `[name, null]` for a removal. A log
 * of another generation (FILE was written whole since) is ignored. FILE is written whole, and
 * the log removed, when the header changed or the log would hold more than a tenth as many
 * changes as there are entries.
 */
export interface JournaledRead<H, E> {
  header: H;
  entries: Record<string, E>;
  /** Which FILE the log follows, and how many changes it holds. */
  generation: string;
  logged: number;
}

/** The file and its log as they are, or undefined when there is none or it cannot be read. */
export function readJournaled<H extends object, E>(file: string): JournaledRead<H, E> | undefined {
  let stored: H & { generation: string; entries: Record<string, E> };
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
  } catch {
    return undefined;
  }
  const { generation, entries, ...header } = stored;
  let logged = 0;
  let log: string[] = [];
  try {
    log = readFileSync(`${file}.log`, 'utf8').split('\n');
  } catch {
    // No changes since FILE was written.
  }
  if (log.length > 0 && log[0] === JSON.stringify({ generation })) {
    for (const line of log.slice(1)) {
      if (line === '') continue;
      try {
        const [name, entry] = JSON.parse(line) as [string, E | null];
        if (entry === null) delete entries[name];
        else entries[name] = entry;
        logged += 1;
      } catch {
        // A line cut short (the process was stopped while appending): what follows is lost, and
        // the next save writes the file whole. Entries are checked against stamps and keys on
        // use, so an older entry costs a render, never a wrong page.
        logged = Infinity;
        break;
      }
    }
  }
  return { header: header as unknown as H, entries, generation, logged };
}

/**
 * Saves `entries` with `header`. `previous` is what readJournaled gave at the start of the build:
 * an entry that is the very object read from it is unchanged, anything else is appended.
 * Returns the generation FILE has now.
 */
export function writeJournaled<H extends object, E>(
  file: string,
  header: H,
  entries: Record<string, E>,
  previous: JournaledRead<H, E> | undefined,
): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const changes: [string, E | null][] = [];
  if (previous && JSON.stringify(previous.header) === JSON.stringify(header)) {
    for (const name in entries) if (previous.entries[name] !== entries[name]) changes.push([name, entries[name]!]);
    for (const name in previous.entries) if (!(name in entries)) changes.push([name, null]);
    if (changes.length === 0) return previous.generation;
    if (previous.logged + changes.length <= Object.keys(entries).length / 10) {
      appendToLog(file, previous.generation, previous.logged === 0, changes);
      return previous.generation;
    }
  }
  const generation = randomUUID();
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ ...header, generation, entries }));
  renameSync(temporary, file);
  // A log left behind (by a build stopped just now) names the old generation and is ignored.
  rmSync(`${file}.log`, { force: true });
  return generation;
}

/**
 * Appends changes to FILE of a known generation without reading it (a rebuild that knows what
 * it changed, see posts-rebuild.ts). FILE is written whole again by the next writeJournaled
 * that finds the log long.
 */
export function appendJournaled<E>(file: string, generation: string, changes: [string, E | null][]): void {
  let logged = false;
  try {
    logged = readFileSync(`${file}.log`, 'utf8').startsWith(`${JSON.stringify({ generation })}\n`);
  } catch {
    // No log yet.
  }
  appendToLog(file, generation, !logged, changes);
}

function appendToLog<E>(file: string, generation: string, fresh: boolean, changes: [string, E | null][]): void {
  if (changes.length === 0) return;
  const lines = `${changes.map((change) => JSON.stringify(change)).join('\n')}\n`;
  // A first change starts the log afresh: one left by an older generation is replaced.
  if (fresh) writeFileSync(`${file}.log`, `${JSON.stringify({ generation })}\n${lines}`);
  else appendFileSync(`${file}.log`, lines);
}

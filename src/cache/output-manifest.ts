import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Stamps } from '../util/file-stamp.js';
import { hashText } from '../util/hash.js';
import { appendJournaled, readJournaled, writeJournaled, type JournaledRead } from './journaled-file.js';
import { removeOrphans } from './orphans.js';

function manifestFile(cacheDir: string, outDir: string): string {
  return path.join(cacheDir, `output-${hashText(outDir)}.json`);
}

/** A file as written: its path under the output folder, its size and its stamp (see fileStamp). */
export interface WrittenFile {
  file: string;
  size: number;
  stamp: string;
}

/** One page or other output, by the key of what it was made from, and the files written for it (itself, .br, .gz). */
interface Entry {
  key: string;
  files: WrittenFile[];
}

interface ManifestHeader {
  /** The output folder (first, for removeOrphans). */
  folder: string;
  /** The generator's code (see codeFingerprint). */
  fingerprint: string;
  /** Options that change which files are written (--precompress). */
  options: string;
}

/**
 * What the previous build wrote into an output folder, in `.cache/build/`: for every page and
 * other file, the key of its inputs and the files written. A build whose page has the same key,
 * and whose files are still in the folder exactly as written (same size and modification time,
 * so a hand edit or a deleted file is noticed), keeps them instead of rendering and writing
 * them again. Files in the folder that this build does not produce are removed, so the folder
 * ends up as a cold build would leave it.
 */
export class OutputManifest {
  private readonly next: Record<string, Entry> = {};

  /** Every file in the output folder now, with its stamp (see `checkFolder`). */
  private present: Stamps = new Map();

  private constructor(
    private readonly file: string | undefined,
    private readonly header: ManifestHeader,
    /** What was read (see journaled-file.ts), if it can be used. */
    private readonly stored: JournaledRead<ManifestHeader, Entry> | undefined,
  ) {
    this.previous = stored?.entries ?? {};
    this.sameCode = stored?.header.fingerprint === header.fingerprint;
  }

  private readonly previous: Record<string, Entry>;

  /** False when the previous build ran other code: its keys mean nothing now, its bytes still do. */
  private readonly sameCode: boolean;

  private get outDir(): string {
    return this.header.folder;
  }

  /** No earlier output to reuse (a cold build, or the cache turned off): everything is written. */
  static none(): OutputManifest {
    return new OutputManifest(undefined, { folder: '', fingerprint: '', options: '' }, undefined);
  }

  /** Reads what the previous build wrote; `checkFolder` then says what of it is still there. */
  static open(cacheDir: string, outDir: string, fingerprint: string, options: string): OutputManifest {
    const file = manifestFile(cacheDir, outDir);
    const stored = readJournaled<ManifestHeader, Entry>(file);
    // Other options, other files: nothing of that build is kept (and the manifest is written whole).
    // An output folder emptied since (as benchmarks do between runs) is built as a new one: on
    // two threads, with nothing to compare.
    const usable = stored && stored.header.options === options && existsSync(outDir) && readdirSync(outDir).length > 0;
    return new OutputManifest(file, { folder: outDir, fingerprint, options }, usable ? stored : undefined);
  }

  /** Whether this build can update the output folder in place rather than write it whole. */
  get reusable(): boolean {
    return this.previousFiles > 0;
  }

  /** How many files the previous build wrote (and `checkFolder` will look at). */
  get previousFiles(): number {
    return Object.keys(this.previous).length;
  }

  /**
   * Takes the stamps of the files in the output folder now (see stampFolder), before anything
   * is kept: a file edited or deleted since it was written is not kept, and a file this build
   * does not make is removed (see `leftovers`).
   */
  checkFolder(stamps: Stamps): void {
    this.present = stamps;
  }

  /** True when the output made with this key is in the folder as it was written; it is then kept. */
  keepIfUnchanged(name: string, key: string): boolean {
    if (!this.isUnchanged(name, key)) return false;
    this.next[name] = this.previous[name]!;
    return true;
  }

  /**
   * Keeps every output of the previous build made with this key, when there are some and all
   * are intact: for files made together from the same inputs, whose names are known only once
   * they are made.
   */
  keepAllWithKey(key: string): boolean {
    if (!this.sameCode) return false;
    const names = Object.keys(this.previous).filter((name) => this.previous[name]!.key === key);
    if (names.length === 0 || !names.every((name) => this.intact(this.previous[name]!))) return false;
    for (const name of names) this.next[name] = this.previous[name]!;
    return true;
  }

  /** Whether `keepIfUnchanged` would keep it, without keeping it. */
  isUnchanged(name: string, key: string): boolean {
    const entry = this.previous[name];
    return this.sameCode && entry !== undefined && entry.key === key && this.intact(entry);
  }

  /**
   * A page rendered again that comes out the same as the file in the folder is kept: only the
   * pages a change affects are written. After a change of code (a template edited under
   * `storefront dev`, a new version) every page is rendered again, and most come out the same.
   */
  keepIfSameBytes(name: string, key: string, contents: string | Buffer): boolean {
    const entry = this.previous[name];
    if (!entry || !this.intact(entry)) return false;
    const bytes = typeof contents === 'string' ? Buffer.from(contents) : contents;
    if (!readFileSync(path.join(this.outDir, name)).equals(bytes)) return false;
    this.next[name] = { key, files: entry.files };
    return true;
  }

  private intact(entry: Entry): boolean {
    return entry.files.every((f) => this.present.get(f.file) === f.stamp);
  }

  record(name: string, key: string, files: WrittenFile[]): void {
    this.next[name] = { key, files };
  }

  /** Files in the output folder that this build neither kept nor wrote. */
  leftovers(): string[] {
    const produced = new Set<string>();
    for (const entry of Object.values(this.next)) for (const f of entry.files) produced.add(f.file);
    return [...this.present.keys()].filter((file) => !produced.has(file));
  }

  /** The whole output of this build, kept and written. */
  totals(): { files: number; bytes: number } {
    let files = 0;
    let bytes = 0;
    for (const entry of Object.values(this.next)) {
      for (const f of entry.files) {
        files += 1;
        bytes += f.size;
      }
    }
    return { files, bytes };
  }

  /** The files of this build's output, kept and written. */
  fileNames(): string[] {
    return Object.values(this.next).flatMap((entry) => entry.files.map((f) => f.file));
  }

  /** Saves what this build wrote; returns the manifest's generation (see journaled-file.ts). */
  save(): string | undefined {
    if (!this.file) return undefined;
    const generation = writeJournaled(this.file, this.header, this.next, this.stored);
    removeOrphans(path.dirname(this.file), 'output', this.file);
    return generation;
  }

  /**
   * Records pages written by a posts-only rebuild (see posts-rebuild.ts) in the manifest of
   * this generation, without reading it, so that the next full build keeps them.
   */
  static record(cacheDir: string, outDir: string, generation: string, pages: { name: string; key: string; files: WrittenFile[] }[]): void {
    appendJournaled<Entry>(manifestFile(cacheDir, outDir), generation, pages.map(({ name, key, files }) => [name, { key, files }]));
  }
}

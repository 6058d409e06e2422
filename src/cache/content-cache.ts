import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import type { SiteFiles } from '../content/read-site-files.js';
import { hashText } from '../util/hash.js';

interface StoredSiteFiles {
  key: string;
  files: Omit<SiteFiles, 'lineOf'>;
}

/**
 * The site's own content files (everything but the blog), validated, in `.cache/build/`. Kept
 * by a key made of the generator's code, the settings and every file's stamp, so a rebuild
 * after a post changed neither parses nor validates YAML. Stored with v8.serialize, which
 * keeps dates as dates and reads back several times faster than JSON of the same data.
 */
export class SiteFilesCache {
  private readonly file: string;

  constructor(
    cacheDir: string,
    contentDir: string,
    private readonly key: string,
  ) {
    this.file = path.join(cacheDir, `content-${hashText(path.resolve(contentDir))}.bin`);
  }

  read(): Omit<SiteFiles, 'lineOf'> | undefined {
    try {
      const stored = v8.deserialize(readFileSync(this.file)) as StoredSiteFiles;
      return stored.key === this.key ? stored.files : undefined;
    } catch {
      return undefined; // None yet, or unreadable: the files are read.
    }
  }

  save(files: SiteFiles): void {
    const { lineOf: _functions, ...data } = files;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, v8.serialize({ key: this.key, files: data } satisfies StoredSiteFiles));
    renameSync(temporary, this.file);
  }
}

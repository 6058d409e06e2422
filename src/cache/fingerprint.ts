import { readdirSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';
import { fileStamp } from '../util/file-stamp.js';
import { hashText } from '../util/hash.js';

/** Bumped when the layout of the build cache changes, so an old cache is never misread. */
const CACHE_FORMAT = 4;

/**
 * What the generator's own code is, for the build cache: any change to the compiled code, the
 * templates or the sources (an edit, `npm run compile`, an upgrade) gives a new fingerprint and so
 * a full rebuild. File names, sizes and modification times are enough to notice a change, and
 * reading them costs a millisecond where hashing 2 MB of code would cost several.
 */
export function codeFingerprint(): string {
  const generator = packageRoot();
  const lines: string[] = [`format ${CACHE_FORMAT}`, process.version];
  // Paths by concatenation and folders told by their entries, not by stat and path.relative:
  // this runs at the start of every build, and a rebuild that changed one post takes 200 ms.
  const walk = (relative: string) => {
    let entries;
    try {
      entries = readdirSync(path.join(generator, relative), { withFileTypes: true });
    } catch {
      return; // Not there (a published package has no src/): nothing to fingerprint.
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const name = `${relative}/${entry.name}`;
      // A `storefront dev` bundle is made from src/ and templates/, whose stamps are here already;
      // the V8 code cache (see bin/storefront.js) is written by the CLI itself.
      if (entry.isDirectory()) walk(name);
      else if (!entry.name.startsWith('dev-bundle-') && !entry.name.endsWith('.v8-cache')) lines.push(`${name} ${fileStamp(`${generator}/${name}`).stamp}`);
    }
  };
  for (const file of ['package.json', 'package-lock.json']) {
    try {
      lines.push(`${file} ${fileStamp(path.join(generator, file)).stamp}`);
    } catch {
      // Not there: nothing to fingerprint.
    }
  }
  for (const dir of ['lib', 'templates', 'src']) walk(dir);
  return hashText(...lines);
}

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';
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
  for (const dir of ['package.json', 'package-lock.json', 'lib', 'templates', 'src']) {
    const walk = (absolute: string) => {
      let stat;
      try {
        stat = statSync(absolute);
      } catch {
        return; // Not there (a published package has no src/): nothing to fingerprint.
      }
      if (stat.isDirectory()) {
        // A `storefront dev` bundle is made from src/ and templates/, whose stamps are here already;
        // the V8 code cache (see bin/storefront.js) is written by the CLI itself.
        for (const name of readdirSync(absolute).sort()) if (!name.startsWith('dev-bundle-') && !name.endsWith('.v8-cache')) walk(path.join(absolute, name));
      } else {
        lines.push(`${path.relative(generator, absolute)} ${stat.size} ${stat.mtimeMs}`);
      }
    };
    walk(path.join(generator, dir));
  }
  return hashText(...lines);
}

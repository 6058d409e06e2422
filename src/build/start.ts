import path from 'node:path';
import { defaultCmsOptions } from '../cms/retry.js';
import { writeJsonSchemas } from '../content/json-schemas.js';
import { NOTHING_WRITTEN } from '../errors/storefront-error.js';
import { checkOutputFolder } from '../output/write-output.js';
import { packageRoot } from '../package-root.js';
import { OWN_FOLDERS, refuseForeignOwnFolders } from '../util/inside-project.js';
import type { BuildOptions } from './build-options.js';
import type { BuildStart } from './build-state.js';

/**
 * What the first stage is given: the options resolved, once the project's own folders and the
 * output folder are known to be safe to write to. Not a stage of its own: it is timed only in
 * the build's total, as it always was.
 */
export function startBuild(options: BuildOptions): BuildStart {
  const root = path.resolve(options.root);
  const outDir = path.resolve(root, options.outDir);
  const now = options.now ?? new Date();
  // Before anything is written: the caches and the schemas' folder must be the project's own
  // folders, not links to someone's files (see ownFolderProblems).
  refuseForeignOwnFolders(root, OWN_FOLDERS, NOTHING_WRITTEN);
  checkOutputFolder(outDir, root);
  // The content files' JSON Schemas for editors (.storefront/schemas), when missing or out of
  // date; first, so that an editor has them while the content is still being fixed. A project
  // folder that cannot be written to only goes without them.
  try {
    writeJsonSchemas(root);
  } catch {
    // Not the build's concern.
  }
  return {
    options,
    root,
    outDir,
    now,
    env: options.env ?? process.env,
    log: options.log ?? (() => {}),
    generatorRoot: packageRoot(),
    requests: {
      timeoutMs: options.cmsTimeoutMs ?? defaultCmsOptions.timeoutMs,
      retry: { ...defaultCmsOptions.retry, retries: options.cmsRetries ?? defaultCmsOptions.retry.retries },
    },
  };
}

import { CF_PAGES_PAID_FILES, type HostLimits } from '../config/deploy-target.js';
import { envNames } from '../config/load-config.js';
import { problem } from '../errors/catalogue.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';
import { CONFIG_FILE } from '../util/content-files.js';

/**
 * A site the host would refuse is refused here, before it replaces the output folder: a build
 * that goes green and a deploy that fails at the host would leave the old site up with no word
 * of why. `files` is what the build wrote, each path (with forward slashes) and its size: what
 * the host receives, .br and .gz copies included where the build wrote them.
 */
export function overHostLimits(files: ReadonlyMap<string, number>, limits: HostLimits | undefined): Problem[] {
  if (!limits) return [];
  const byName = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const bytesOf = (test: (file: string) => boolean) =>
    byName.reduce((sum, [file, size]) => sum + (test(file) ? size : 0), 0);
  const copy = (file: string) => /\.(br|gz)$/.test(file);
  const postImage = (file: string) => file.startsWith('assets/img/');
  const contentImage = (file: string) => file.startsWith('images/');
  // What every problem of this site says: the host, the .br and .gz copies, the post images' files.
  const site = {
    host: limits.host,
    copies: byName.filter(([file]) => copy(file)).length,
    images: byName.filter(([file]) => postImage(file)).length,
  };
  const problems: Problem[] = [];

  if (limits.files && files.size > limits.files.limit) {
    const paidPlan =
      limits.files.limit < CF_PAGES_PAID_FILES
        ? { files: CF_PAGES_PAID_FILES, configFile: CONFIG_FILE, variable: envNames.cfPagesMaxFiles }
        : undefined;
    problems.push(
      problem('overHostLimit', { ...site, limit: limits.files, over: 'files', files: files.size, paidPlan }),
    );
  }
  if (limits.fileBytes) {
    for (const [file, size] of byName) {
      if (size <= limits.fileBytes.limit) continue;
      const published = contentImage(file);
      problems.push(
        problem(
          'overHostLimit',
          { ...site, limit: limits.fileBytes, over: 'fileBytes', bytes: size, published },
          { file: published ? `content/${file}` : file },
        ),
      );
    }
  }
  if (limits.siteBytes) {
    const total = byName.reduce((sum, [, size]) => sum + size, 0);
    if (total > limits.siteBytes.limit) {
      const parts = { contentImages: bytesOf(contentImage), postImages: bytesOf(postImage), copies: bytesOf(copy) };
      problems.push(
        problem('overHostLimit', { ...site, limit: limits.siteBytes, over: 'siteBytes', bytes: total, parts }),
      );
    }
  }
  if (limits.filesPerFolder) {
    const perFolder = new Map<string, number>();
    for (const [file] of byName) {
      const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '/';
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    }
    for (const [folder, n] of perFolder) {
      if (n <= limits.filesPerFolder.limit) continue;
      problems.push(
        problem('overHostLimit', { ...site, limit: limits.filesPerFolder, over: 'filesPerFolder', folder, files: n }),
      );
    }
  }
  return problems;
}

/** Throws every limit the site is over, together. */
export function refuseOverHostLimits(files: ReadonlyMap<string, number>, limits: HostLimits | undefined): void {
  const problems = overHostLimits(files, limits);
  if (problems.length > 0)
    throw new StorefrontError(
      problems,
      'The output folder was not changed: it holds the previous build, if there was one.',
    );
}

import { CF_PAGES_PAID_FILES, type HostLimit, type HostLimits } from '../config/deploy-target.js';
import { CONFIG_FILE, envNames } from '../config/load-config.js';
import { codes } from '../errors/catalogue.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';

const count = (n: number) => n.toLocaleString('en-GB');

/**
 * A site the host would refuse is refused here, before it replaces the output folder: a build
 * that goes green and a deploy that fails at the host would leave the old site up with no word
 * of why. `files` is what the build wrote, each path (with forward slashes) and its size: what
 * the host receives, .br and .gz copies included where the build wrote them.
 */
export function overHostLimits(files: ReadonlyMap<string, number>, limits: HostLimits | undefined): Problem[] {
  if (!limits) return [];
  const problems: Problem[] = [];
  const over = (limit: HostLimit, what: string, most: string, hint: string, file?: string): void => {
    problems.push({
      code: codes.overHostLimit,
      ...(file ? { file } : {}),
      message: `${what}; ${limits.host} takes at most ${most}${limit.setting ? `, as ${limit.setting} sets` : ''} (${limit.docs}).`,
      hint,
    });
  };
  const byName = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const compressed = byName.filter(([file]) => /\.(br|gz)$/.test(file)).length;
  const noCopies =
    compressed > 0
      ? ` Build without --precompress: the ${count(compressed)} .br and .gz copies are of no use on ${limits.host}, which compresses by itself.`
      : '';
  const images = byName.filter(([file]) => file.startsWith('assets/img/')).length;
  const imageFiles = `post images make ${count(images)} of them (up to 13 an image: 4 widths in 3 formats, and a share image): use fewer images, or fewer widths (IMAGE_WIDTHS in src/images/process-images.ts)`;

  if (limits.files && files.size > limits.files.limit) {
    const paid =
      limits.files.limit < CF_PAGES_PAID_FILES
        ? `On a paid plan (${count(CF_PAGES_PAID_FILES)} files), set cfPagesMaxFiles in ${CONFIG_FILE}, or ${envNames.cfPagesMaxFiles}, to ${CF_PAGES_PAID_FILES}, and PAGES_WRANGLER_MAJOR_VERSION=4 in the Pages project's variables, as Cloudflare asks. Otherwise publish`
        : 'Publish';
    over(
      limits.files,
      `The site would be ${count(files.size)} files`,
      `${count(limits.files.limit)} files per site`,
      `${paid} fewer files: ${images > 0 ? `${imageFiles}, or ` : ''}leave older posts out.${noCopies}`,
    );
  }
  if (limits.fileBytes) {
    for (const [file, size] of byName) {
      if (size <= limits.fileBytes.limit) continue;
      const content = file.startsWith('images/');
      over(
        limits.fileBytes,
        `This file would be ${count(size)} bytes`,
        `${binary(limits.fileBytes.limit)} a file`,
        `Make it smaller, or put it on another host and link to it.${content ? ' Files in content/images/ are published as they are.' : ''}`,
        content ? `content/${file}` : file,
      );
    }
  }
  if (limits.siteBytes) {
    const total = byName.reduce((sum, [, size]) => sum + size, 0);
    if (total > limits.siteBytes.limit) {
      const bytesOf = (test: (file: string) => boolean) =>
        byName.reduce((sum, [file, size]) => sum + (test(file) ? size : 0), 0);
      const parts = [
        {
          bytes: bytesOf((file) => file.startsWith('images/')),
          what: 'in content/images/ (published as they are: put large files on another host and link to them)',
        },
        {
          bytes: bytesOf((file) => file.startsWith('assets/img/')),
          what: 'post images (use fewer, or fewer widths: IMAGE_WIDTHS in src/images/process-images.ts)',
        },
        {
          bytes: bytesOf((file) => /\.(br|gz)$/.test(file)),
          what: `.br and .gz copies (build without --precompress: ${limits.host} compresses by itself)`,
        },
      ].filter((part) => part.bytes > 0);
      const largest = parts
        .sort((a, b) => b.bytes - a.bytes)
        .map((part) => `${count(part.bytes)} bytes are ${part.what}`);
      over(
        limits.siteBytes,
        `The site would be ${count(total)} bytes`,
        `${binary(limits.siteBytes.limit)} per site`,
        `Publish fewer or smaller files${largest.length > 0 ? `: ${largest.join('; ')}` : ''}.`,
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
      const what =
        folder === 'blog/'
          ? 'Every post is a file of blog/: leave older posts out.'
          : folder === 'assets/img/'
            ? `Publish fewer files there: ${imageFiles}.`
            : 'Publish fewer files there.';
      over(
        limits.filesPerFolder,
        `The folder ${folder} would hold ${count(n)} files`,
        `${count(limits.filesPerFolder.limit)} files in one folder, and fails a deploy with more`,
        `${what}${noCopies}`,
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

/** 26214400 → `25 MiB (26,214,400 bytes)`: the binary unit the hosts' docs and tools use. */
function binary(n: number): string {
  const [unit, size] = n >= 1024 ** 3 ? ['GiB', 1024 ** 3] : ['MiB', 1024 ** 2];
  return `${Number((n / size).toFixed(2))} ${unit} (${count(n)} bytes)`;
}

import type { Host } from './host.js';

/** Any other host, a bucket behind a CDN: a page at each old path; headers set on the host (docs/hosts/static.md). */
export const staticHost: Host<'static'> = {
  name: 'static',
  title: 'a static host',
  files: (make) => make.redirectPages(),
  readBack: 'redirect pages',
  // No limits the build can know. Not known to compress: `--precompress` copies are for a server
  // that sends them, and for preview.
  compresses: false,
  servesAtRoot: false,
};

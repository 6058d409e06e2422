import type { Host } from './host.js';

/** Your own nginx: the include `_nginx.conf` (docs/hosts/nginx.md). */
export const nginx: Host<'nginx'> = {
  name: 'nginx',
  title: 'nginx',
  // One include with the redirects and headers; nginx answers 404 for `/_…`, so it is never published.
  files: (make) => [make.nginxConf()],
  readBack: 'nginx',
  // Whatever the server holds: none the build can know.
  // nginx sends the .br and .gz copies as they are (brotli_static, gzip_static).
  compresses: false,
  servesAtRoot: false,
};

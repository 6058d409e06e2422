import type { Target } from '../config/deploy-target.js';
import type { RouteTable } from '../routes/route-table.js';
import { headersFile } from './headers-file.js';
import { nginxConf } from './nginx-conf.js';
import { redirectPages } from './redirect-pages.js';
import { redirectsFile } from './redirects.js';
import type { OutputFile } from './write-output.js';

/**
 * The files a host reads besides the pages, for the target the build is for, in the form that
 * host accepts; and none it would publish as a page by mistake:
 *
 * | target       | redirects                  | headers     |
 * | netlify      | `_redirects`, `301!`       | `_headers`  |
 * | cloudflare   | `_redirects`, `301`        | `_headers`  |
 * | nginx        | `_nginx.conf` (the include: redirects and headers; it answers 404 for `/_…`) |
 * | github-pages | a small page at each old path (it has no redirect rules) | none possible |
 * | static       | a small page at each old path (any other host)           | set on the host |
 */
export function hostFiles(
  target: Target,
  table: RouteTable,
  security: Record<string, string>,
  absolute: (path: string) => string,
  base: string,
): OutputFile[] {
  switch (target) {
    case 'netlify':
    case 'cloudflare':
      return [
        { file: '_redirects', contents: redirectsFile(table, base, target === 'netlify') },
        { file: '_headers', contents: headersFile(security, base) },
      ];
    case 'nginx':
      return [{ file: '_nginx.conf', contents: nginxConf(table, security, base) }];
    case 'github-pages':
    case 'static':
      return redirectPages(table, absolute, base);
  }
}

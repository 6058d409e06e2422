import type { Host, HostFileMakers } from '../hosts/host.js';
import type { RouteTable } from '../routes/route-table.js';
import { headersFile } from './headers-file.js';
import { nginxConf } from './nginx-conf.js';
import { redirectPages } from './redirect-pages.js';
import { redirectsFile } from './redirects.js';
import type { OutputFile } from './write-output.js';

/**
 * The files a host reads besides the pages: its module (src/hosts/) says which, in the form that
 * host accepts; these makers write them from the route table and the settings. A host module
 * cannot call the makers itself: src/hosts/ runs before the routes it would need.
 */
export function hostFiles(
  host: Host,
  table: RouteTable,
  security: Record<string, string>,
  absolute: (path: string) => string,
  base: string,
): OutputFile[] {
  const make: HostFileMakers<OutputFile> = {
    redirects: (force) => ({ file: '_redirects', contents: redirectsFile(table, base, force) }),
    headers: () => ({ file: '_headers', contents: headersFile(security, base) }),
    nginxConf: () => ({ file: '_nginx.conf', contents: nginxConf(table, security, base) }),
    redirectPages: () => redirectPages(table, absolute, base),
  };
  return host.files(make);
}

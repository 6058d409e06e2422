import type { RouteTable } from '../routes/route-table.js';
import { IMMUTABLE, REVALIDATE } from './http-headers.js';

const quote = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * An nginx include for a `server { root …/dist; include …/dist/_nginx.conf; }` block: clean
 * URLs, the redirects, the 404 page, caching, security headers and the precompressed files.
 * The security headers are set for the whole server, `always` (so 3xx and 4xx answers carry
 * them too), and nginx drops those in any location that has add_header lines of its own, so
 * every such location repeats them. With a base path (`/shop`) every location is under
 * it, and the root is the folder that holds the site as `shop/`.
 */
export function nginxConf(table: RouteTable, security: Record<string, string>, base = ''): string {
  const addHeaders = (entries: [string, string][], indent: string) =>
    entries.map(([n, v]) => `${indent}add_header ${n} ${quote(v)} always;`).join('\n');
  const headers = (cache: string) => addHeaders([...Object.entries(security), ['Cache-Control', cache]], '    ');
  // A redirect's target is a route, [a-z0-9/-] only: nothing in it is read as an nginx variable.
  const redirects = table.redirects
    .map((r) => {
      const to = quote(`${base}${encodeURI(r.to)}$is_args$args`);
      return `location = ${quote(base + encodeURI(r.from))} {\n    return 301 ${to};\n}`;
    })
    .join('\n');
  const where = base
    ? `# Written by storefront build for a site under ${base}/. Include it inside a server block whose root
# holds this folder as ${base.slice(1)}/:
#   server { listen 80; root /srv/www; include /srv/www${base}/_nginx.conf; }`
    : `# Written by storefront build. Include it inside a server block whose root is this folder:
#   server { listen 80; root /srv/site/dist; include /srv/site/dist/_nginx.conf; }`;
  const homeRedirect = base
    ? "\n# The home page's address ends with a slash, as a folder's does.\n" +
      `location = ${base} {\n    return 301 ${base}/$is_args$args;\n}\n`
    : '';
  return `${where}
# Precompressed .gz files are sent by gzip_static. For the .br files, add \`brotli_static on;\` to
# the server block where the brotli static module is loaded (Debian: libnginx-mod-http-brotli-static);
# it is not here, so that this include works on an nginx without the module.
charset utf-8;
# Redirects name the path only, so they work behind any proxy or port; each keeps the query
# (?utm_source=…), as the other hosts' redirects do.
absolute_redirect off;
charset_types text/css application/javascript application/xml text/plain application/atom+xml image/svg+xml;
gzip_static on;
# Vary: Accept-Encoding on every answer gzip_static (and brotli_static) may compress, so a shared
# cache never hands a Brotli or gzip body to a client that did not ask for it.
gzip_vary on;
error_page 404 ${base}/404.html;
# Every answer, redirects and errors included.
${addHeaders(Object.entries(security), '')}

# Old and misspelt addresses, from content/redirects.yaml.
${redirects}

# The home page in one redirect: /index.html would go to /index, which is a redirect or a 404.
location = ${base}/index.html {
    return 301 ${base}/$is_args$args;
}

# Clean URLs: /about/ and /about.html go to /about. The path nginx matches is decoded, and a
# browser reads a Location of /\\x or /<tab>/x as //x, another host: the part kept must not
# start with a slash, a backslash (\\x5C: nginx reads \\\\ as one backslash), a dot or white space,
# nor hold a backslash or white space.
location ~ ^${base}/(?<clean>[^/\\x5C.\\s][^\\x5C\\s]*?)/+$ {
    return 301 ${base}/$clean$is_args$args;
}
location ~ ^${base}/(?<clean>[^/\\x5C.\\s][^\\x5C\\s]*)\\.html$ {
    return 301 ${base}/$clean$is_args$args;
}

# Files for the host (_redirects, …) and hidden files, in any folder, not for visitors: the
# build writes no page there, and this keeps a file put there by hand from being served.
location ~ /[_.] {
    return 404;
}

# A .br or .gz copy of a built file is sent only as that file's Content-Encoding: asked for by
# name it would be served as application/octet-stream. A .gz or .br file of the site's own (an
# upload with no file of the shorter name beside it) is still served.
location ~ ^(?<plain>.+)\\.(?:br|gz)$ {
${headers(REVALIDATE)}
    if (-f $document_root$plain) {
        return 404;
    }
    try_files $uri =404;
}

location ${base}/assets/ {
${headers(IMMUTABLE)}
    try_files $uri =404;
}

location ${base}/ {
${headers(REVALIDATE)}
    try_files $uri $uri.html =404;
}

location = ${base}/ {
${headers(REVALIDATE)}
    try_files ${base}/index.html =404;
}
${homeRedirect}
# The 404 page is the answer to unknown paths, never a page of its own.
location = ${base}/404 {
    return 404;
}

location = ${base}/404.html {
    internal;
${headers(REVALIDATE)}
}

location = ${base}/blog/feed.xml {
${headers(REVALIDATE)}
    types { }
    default_type application/atom+xml;
}
`;
}

import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import { parseRedirectsFile } from '../output/redirects.js';
import { headersFor, parseHeadersFile, type HeaderRule } from './headers-rules.js';
import { hostProblem, LOOPBACK, servingAddresses, type ServingAddresses } from './listen-address.js';


/**
 * `/about/` → `/about`, `/about.html` → `/about`, `/index.html` → `/`, `//x` → `/x`: the final
 * address in one step, so a request is redirected once (`/blog/index.html/` → `/blog`). The
 * home page of a site in a folder (`base`, `/shop`) keeps its slash: `/shop/index.html`,
 * `/shop/index` and `/shop` → `/shop/`. A backslash is sent percent-encoded: a browser reads
 * `/\x` in a Location as `//x`, another host.
 */
export function cleanPath(pathname: string, base = ''): string {
  let clean = `/${pathname.replace(/^\/+/, '').replace(/\\/g, '%5C')}`;
  // Until nothing changes: each step can uncover another (`/a/index.html/`, `/index/index`).
  for (let before = ''; before !== clean; ) {
    before = clean;
    if (clean.length > 1) clean = clean.replace(/\/+$/, '');
    if (clean.endsWith('.html')) clean = clean.slice(0, -'.html'.length);
    if (clean.endsWith('/index')) clean = clean.slice(0, -'index'.length);
  }
  if (base && clean === base) return `${base}/`;
  return clean;
}

function decodePath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

export interface PreviewServer {
  server: Server;
  /**
   * The URL to open on this computer, without a trailing slash: `http://127.0.0.1:4173`, or the
   * address listened on (`http://[::1]:4173`); the loopback URL when listening on every interface.
   */
  url: string;
  /** Where it listens and every URL it can be opened at (what `preview` and `dev` print). */
  addresses: ServingAddresses;
  /** Reads `_redirects` and `_headers` again (after a rebuild). */
  reload(): void;
  close(): Promise<void>;
}

/** What `storefront dev` adds to the preview server; `preview` uses none of it. */
export interface DevHooks {
  /** Answers requests of its own (the dev client, its event stream); true when it did. */
  intercept(req: IncomingMessage, res: ServerResponse): boolean;
  /** Changes every HTML page as it is sent (adds the dev client); the files stay as built. */
  transformHtml(html: string): string;
}

/**
 * The folder of its origin a built site is served from (its basePath): the path of its home
 * page, the shortest address of its sitemap, without the trailing slash. '' at the root.
 */
export function servedBasePath(outDir: string): string {
  const sitemap = path.join(outDir, 'sitemap.xml');
  if (!existsSync(sitemap)) return '';
  const paths = [...readFileSync(sitemap, 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&')).pathname);
  const home = paths.sort((a, b) => a.length - b.length)[0] ?? '/';
  return home.endsWith('/') ? home.slice(0, -1) : '';
}

/**
 * Serves a built folder the way a static host does: clean URLs (`/about` → about.html), the
 * redirects of `_redirects`, the headers of `_headers`, and 404.html with status 404 for
 * anything else; a site built for a folder of its origin (basePath) under that folder only. It listens on `host` (127.0.0.1 unless `--host` says otherwise; 0.0.0.0 or ::
 * for every interface); an address this computer does not have is a flag problem (SF170).
 */
export async function startPreview(outDir: string, port: number, host = LOOPBACK, dev?: DevHooks): Promise<PreviewServer> {
  const notFoundPath = path.join(outDir, '404.html');
  let redirects = new Map<string, { to: string; status: number }>();
  let headerRules: HeaderRule[] = [];
  const reload = () => {
    const redirectsPath = path.join(outDir, '_redirects');
    const headersPath = path.join(outDir, '_headers');
    redirects = existsSync(redirectsPath) ? parseRedirectsFile(readFileSync(redirectsPath, 'utf8')) : new Map();
    headerRules = existsSync(headersPath) ? parseHeadersFile(readFileSync(headersPath, 'utf8')) : [];
  };
  reload();
  const base = servedBasePath(outDir);
  // brotli and gzip: sirv sends the precompressed .br / .gz beside a file when the client accepts it.
  // In dev, sirv reads files on every request (they change with each rebuild) and sets no cache headers.
  const serve = sirv(outDir, { extensions: ['html'], dotfiles: false, etag: true, brotli: true, gzip: true, dev: dev !== undefined });
  const sendHtml = (res: ServerResponse, status: number, file: string): void => {
    res.statusCode = status;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    const html = existsSync(file) ? readFileSync(file, 'utf8') : 'Not found';
    if (dev) res.setHeader('Cache-Control', 'no-store');
    res.end(dev ? dev.transformHtml(html) : html);
  };
  const notFound = (res: ServerResponse) => sendHtml(res, 404, notFoundPath);
  /** The page a clean, decoded path names, when there is one: dev sends pages itself to add its client. */
  const pageFile = (decoded: string): string | undefined => {
    const file = path.join(outDir, decoded === '/' ? 'index.html' : `${decoded}.html`);
    return file.startsWith(outDir + path.sep) && existsSync(file) ? file : undefined;
  };
  const server = createServer((req, res) => {
    if (dev?.intercept(req, res)) return;
    // A static host answers reading only.
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed\n');
      return;
    }
    const [pathname = '/', query] = (req.url ?? '/').split(/\?(.*)/s);
    if (base && pathname === base) {
      // The home page of a site in a folder is the folder's address, with its slash.
      res.writeHead(301, { Location: `${base}/` });
      res.end();
      return;
    }
    if (base && !pathname.startsWith(`${base}/`)) return notFound(res);
    // Not valid percent-encoding: header rules match it as it is, and it names no page.
    const decoded = decodePath(pathname);
    for (const [name, value] of headersFor(headerRules, decoded ?? pathname)) res.setHeader(name, value);
    const redirect = redirects.get(pathname) ?? redirects.get(pathname.replace(/\/+$/, ''));
    if (redirect) {
      res.writeHead(redirect.status, { Location: redirect.to });
      res.end();
      return;
    }
    // Clean URLs only, as the canonical URLs say: /about/ and /about.html → /about.
    // The location always starts with exactly one slash, so it can never name another host.
    const clean = cleanPath(pathname, base);
    if (clean !== pathname) {
      res.writeHead(301, { Location: clean });
      res.end();
      return;
    }
    // Files for the host (_redirects, _headers, _nginx.conf) and hidden files, however encoded:
    // a static host publishes neither.
    if ((decoded ?? pathname).split('/').some((part) => part.startsWith('.') || part.startsWith('_'))) return notFound(res);
    // Here the path is clean already (anything else was redirected above); files are looked up
    // without the base path.
    const inFolder = pathname.slice(base.length);
    const page = dev && decoded !== undefined && pageFile(decoded);
    if (page) return sendHtml(res, 200, page);
    if (base) req.url = query === undefined ? inFolder : `${inFolder}?${query}`;
    serve(req, res, () => notFound(res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(hostProblem(err, host) ?? err));
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const addresses = servingAddresses(host, actualPort);
  return {
    server,
    url: addresses.url,
    addresses,
    reload,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

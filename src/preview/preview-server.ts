import { statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { parseRedirectsFile } from '../output/redirects.js';
import { headersFor, parseHeadersFile, type HeaderRule } from './headers-rules.js';
import {
  hostAllowed,
  hostOfHeader,
  hostProblem,
  LOOPBACK,
  servingAddresses,
  type ServingAddresses,
} from './listen-address.js';
import { readInside, serveFile } from './static-files.js';

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
  /**
   * Reads `_redirects`, `_headers` and the base path again. Done by itself at the first request
   * after a build swapped another folder in; dev calls it after each build all the same.
   */
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
  const sitemap = readInside(outDir, 'sitemap.xml');
  if (sitemap === undefined) return '';
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map((m) => m[1]!.replace(/&amp;/g, '&'))
    .filter((url) => URL.canParse(url))
    .map((url) => new URL(url).pathname);
  const home = paths.sort((a, b) => a.length - b.length)[0] ?? '/';
  return home.endsWith('/') ? home.slice(0, -1) : '';
}

/** What a served folder says about how it is served; read again whenever another folder is swapped in. */
interface SiteRules {
  /** The folder's identity (its inode; a build swaps in a new folder); '' while there is none. */
  id: string;
  redirects: Map<string, { to: string; status: number }>;
  headerRules: HeaderRule[];
  base: string;
}

const folderId = (dir: string): string => {
  try {
    return String(statSync(dir).ino);
  } catch {
    return '';
  }
};

function readRules(outDir: string, id: string): SiteRules {
  // Any file may be missing, half a build away or a link out of the folder: then it says nothing.
  const redirectsText = readInside(outDir, '_redirects');
  const headersText = readInside(outDir, '_headers');
  return {
    id,
    redirects: redirectsText === undefined ? new Map() : parseRedirectsFile(redirectsText),
    headerRules: headersText === undefined ? [] : parseHeadersFile(headersText),
    base: servedBasePath(outDir),
  };
}

/**
 * Serves a built folder the way a static host does: clean URLs (`/about` → about.html), the
 * redirects of `_redirects`, the headers of `_headers`, and 404.html with status 404 for
 * anything else; a site built for a folder of its origin (basePath) under that folder only. It
 * listens on `host` (127.0.0.1 unless `--host` says otherwise; 0.0.0.0 or :: for every
 * interface); an address this computer does not have is a flag problem (SF170).
 *
 * The folder is looked up by its path at every request (see static-files.ts): a build swaps a new
 * one in by renames under a running server, which answers from the new one (404 for the moment
 * between the renames), and never serves a file whose real location is outside the folder.
 * Requests whose `Host` is no name of this server are refused with 403 (see hostAllowed).
 */
export async function startPreview(
  outDir: string,
  port: number,
  host = LOOPBACK,
  dev?: DevHooks,
): Promise<PreviewServer> {
  let rules = readRules(outDir, folderId(outDir));
  const reload = () => {
    rules = readRules(outDir, folderId(outDir));
  };
  /** The rules of the folder served now: read again when a build has swapped another one in. */
  const currentRules = (): SiteRules => {
    const id = folderId(outDir);
    if (id !== rules.id) rules = readRules(outDir, id);
    return rules;
  };
  const allowed = hostAllowed(host);
  let url = '';
  const sendHtml = (res: ServerResponse, status: number, html: string): void => {
    res.statusCode = status;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (dev) res.setHeader('Cache-Control', 'no-store');
    res.end(dev ? dev.transformHtml(html) : html);
  };
  const notFound = (res: ServerResponse) => sendHtml(res, 404, readInside(outDir, '404.html') ?? 'Not found');
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!allowed(req.headers.host)) {
      // Against DNS rebinding: a page of another site whose name was made to point here.
      const name = hostOfHeader(req.headers.host ?? '') ?? req.headers.host ?? '';
      res.writeHead(403, {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      });
      res.end(
        'Forbidden: this server answers to localhost, IP addresses and the --host name, ' +
          `not to the host ${JSON.stringify(name.slice(0, 100))}. Open ${url}/ instead.\n`,
      );
      return;
    }
    if (dev?.intercept(req, res)) return;
    // A static host answers reading only.
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed\n');
      return;
    }
    const { redirects, headerRules, base } = currentRules();
    const [pathname = '/'] = (req.url ?? '/').split(/\?(.*)/s);
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
    if ((decoded ?? pathname).split('/').some((part) => part.startsWith('.') || part.startsWith('_')))
      return notFound(res);
    // Here the path is clean already (anything else was redirected above); files are looked up
    // without the base path.
    const inFolder = decoded === undefined ? undefined : decoded.slice(base.length) || '/';
    if (inFolder === undefined) return notFound(res);
    // dev sends pages itself, to add its client.
    const page = dev ? readInside(outDir, inFolder === '/' ? 'index.html' : `${inFolder.slice(1)}.html`) : undefined;
    if (page !== undefined) return sendHtml(res, 200, page);
    // In dev, files change with each rebuild: asked again every time unless _headers says otherwise.
    if (await serveFile(outDir, inFolder, req, res, { cacheControl: dev ? 'no-cache' : undefined })) return;
    notFound(res);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // Nothing a request meets may stop the server: this request alone fails.
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal Server Error\n');
      } else {
        res.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(hostProblem(err, host) ?? err));
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const addresses = servingAddresses(host, actualPort);
  url = addresses.url;
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

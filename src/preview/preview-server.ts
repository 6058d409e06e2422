import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import { parseRedirectsFile } from '../output/redirects.js';
import { headersFor, parseHeadersFile } from './headers-rules.js';

/** Files for the host, not for visitors. */
const HOST_FILES = new Set(['/_redirects', '/_headers']);

/** `/about/` → `/about`, `/about.html` → `/about`, `/index.html` → `/`, `//x` → `/x`. */
export function cleanPath(pathname: string): string {
  let clean = `/${pathname.replace(/^\/+/, '')}`;
  if (clean.endsWith('.html')) clean = clean.slice(0, -'.html'.length);
  if (clean.endsWith('/index')) clean = clean.slice(0, -'index'.length);
  if (clean.length > 1) clean = clean.replace(/\/+$/, '');
  return clean || '/';
}

export interface PreviewServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a built folder the way a static host does: clean URLs (`/about` → about.html), the
 * redirects of `_redirects`, and 404.html with status 404 for anything else.
 */
export async function startPreview(outDir: string, port: number, host = '127.0.0.1'): Promise<PreviewServer> {
  const redirectsPath = path.join(outDir, '_redirects');
  const redirects = existsSync(redirectsPath) ? parseRedirectsFile(readFileSync(redirectsPath, 'utf8')) : new Map();
  const notFoundPath = path.join(outDir, '404.html');
  const headersPath = path.join(outDir, '_headers');
  const headerRules = existsSync(headersPath) ? parseHeadersFile(readFileSync(headersPath, 'utf8')) : [];
  // brotli and gzip: sirv sends the precompressed .br / .gz beside a file when the client accepts it.
  const serve = sirv(outDir, { extensions: ['html'], dotfiles: false, etag: true, brotli: true, gzip: true });
  const notFound = (res: ServerResponse) => {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(existsSync(notFoundPath) ? readFileSync(notFoundPath) : 'Not found');
  };
  const server = createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0]!;
    let decoded = pathname;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      // Not valid percent-encoding: matched as it is.
    }
    for (const [name, value] of headersFor(headerRules, decoded)) res.setHeader(name, value);
    const redirect = redirects.get(pathname) ?? redirects.get(pathname.replace(/\/+$/, ''));
    if (redirect) {
      res.writeHead(redirect.status, { Location: redirect.to });
      res.end();
      return;
    }
    // Clean URLs only, as the canonical URLs say: /about/ and /about.html → /about.
    // The location always starts with exactly one slash, so it can never name another host.
    const clean = cleanPath(pathname);
    if (clean !== pathname) {
      res.writeHead(301, { Location: clean });
      res.end();
      return;
    }
    if (HOST_FILES.has(pathname)) return notFound(res);
    serve(req, res, () => notFound(res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    server,
    url: `http://${host}:${actualPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

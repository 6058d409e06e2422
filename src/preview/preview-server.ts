import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import { parseRedirectsFile } from '../output/redirects.js';

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
  const serve = sirv(outDir, { extensions: ['html'], dotfiles: false, etag: true });
  const server = createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0]!;
    const redirect = redirects.get(pathname) ?? redirects.get(pathname.replace(/\/+$/, ''));
    if (redirect) {
      res.writeHead(redirect.status, { Location: redirect.to });
      res.end();
      return;
    }
    // A trailing slash is not a route: /about/ → /about, as the canonical URLs say.
    if (pathname.length > 1 && pathname.endsWith('/')) {
      res.writeHead(301, { Location: pathname.replace(/\/+$/, '') || '/' });
      res.end();
      return;
    }
    serve(req, res, () => {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(existsSync(notFoundPath) ? readFileSync(notFoundPath) : 'Not found');
    });
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

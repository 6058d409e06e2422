import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { Problem } from '../errors/storefront-error.js';
import { packageRoot } from '../package-root.js';
import { LOOPBACK, type ServingAddresses } from '../preview/listen-address.js';
import { startPreview, type PreviewServer } from '../preview/preview-server.js';

/** What the open pages are told after every build. */
export interface DevState {
  /** Number of the last good build; a page served from an older one is brought up to date. */
  build: number;
  /** The problems of the latest build when it failed; the pages show them over themselves. */
  problems: Problem[] | null;
  footer?: string;
}

const CLIENT_PATH = '/__storefront/dev.js';
const EVENTS_PATH = '/__storefront/events';

export interface DevServer {
  /** The URL to open on this computer (the loopback one when listening on every interface). */
  url: string;
  /** Where it listens and every URL it can be opened at. */
  addresses: ServingAddresses;
  /** Tells every open page about a build (it updates itself, or shows the problems). */
  publish(state: DevState): void;
  close(): Promise<void>;
}

/**
 * The preview server (clean URLs, redirects, headers, 404) plus what dev needs: each HTML page
 * gets the dev client (compiled into lib/assets/dev-client.js), which keeps a server-sent events
 * stream open. Only responses are changed, never the built files, so `build` output has no
 * trace of it. The client is a same-origin script and the stream a same-origin connection, both
 * allowed by the site's Content-Security-Policy. Both are named by path only, so a page opened at
 * a network address (`dev --host`, from a phone) reaches them at that address too. Both answer
 * GET and HEAD only (405 with Allow otherwise), and, as every address of dev, only requests
 * whose `Host` is one of the server's own names (403 otherwise: the drafts dev shows must not
 * reach a page of another site through DNS rebinding).
 */
export async function startDevServer(outDir: string, port: number, host = LOOPBACK): Promise<DevServer> {
  const clientJs = readFileSync(path.join(packageRoot(), 'lib', 'assets', 'dev-client.js'), 'utf8');
  const streams = new Set<ServerResponse>();
  let state: DevState = { build: 0, problems: null };
  // Builds are numbered from 1 in every run of dev: the session tells a page served by an
  // earlier run (a tab left open across a restart) that it is out of date even when the numbers match.
  const session = randomBytes(4).toString('hex');
  const buildId = () => `${session}.${state.build}`;
  const send = (res: ServerResponse) =>
    res.write(`event: state\ndata: ${JSON.stringify({ ...state, build: buildId() })}\n\n`);
  let preview: PreviewServer | undefined;
  preview = await startPreview(outDir, port, host, {
    intercept(req, res) {
      const pathname = (req.url ?? '/').split('?')[0];
      if (pathname !== CLIENT_PATH && pathname !== EVENTS_PATH) return false;
      // dev's own addresses are read only, as the site's are.
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, {
          Allow: 'GET, HEAD',
          'Content-Type': 'text/plain; charset=utf-8',
          'Cache-Control': 'no-store',
        });
        res.end('Method Not Allowed\n');
        return true;
      }
      if (pathname === CLIENT_PATH) {
        res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(clientJs);
        return true;
      }
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      if (req.method === 'HEAD') {
        res.end();
        return true;
      }
      // The current state at once: a page opened while a build is failing shows the problems.
      send(res);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return true;
    },
    transformHtml(html) {
      const tag = `<script src="${CLIENT_PATH}?build=${buildId()}" defer></script>`;
      // Before the page's first script: deferred like the site's, the client runs first, and so
      // keeps the page as served, before the site's script changes it (see dev-client.ts).
      const head = html.indexOf('</head>');
      const script = html.indexOf('<script');
      const at = script !== -1 && (head === -1 || script < head) ? script : head;
      return at === -1 ? `${html}${tag}` : `${html.slice(0, at)}${tag}${html.slice(at)}`;
    },
  });
  return {
    url: preview.url,
    addresses: preview.addresses,
    publish(next) {
      state = next;
      preview!.reload();
      for (const res of streams) send(res);
    },
    async close() {
      for (const res of streams) res.end();
      streams.clear();
      await preview!.close();
    },
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real newsletter endpoint on 127.0.0.1 that accepts or refuses sign-ups, with CORS. */
export class NewsletterEndpoint {
  accept = true;
  readonly received: string[] = [];
  url = '';
  private server: Server | undefined;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*' };
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors);
        res.end();
        return;
      }
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        this.received.push(body);
        res.writeHead(this.accept ? 200 : 500, { ...cors, 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ok: this.accept }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/subscribe`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

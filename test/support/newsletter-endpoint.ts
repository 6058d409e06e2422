import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A newsletter provider's plain-HTML form endpoint on 127.0.0.1, shaped like Mailchimp's (the
 * list named in the query, the address in a field called EMAIL): it records each form body and
 * answers with its own confirmation page, as the providers do.
 */
export class NewsletterEndpoint {
  readonly received: string[] = [];
  url = '';
  private server: Server | undefined;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (req.method !== 'POST') {
          res.writeHead(405, { Allow: 'POST' }).end();
          return;
        }
        this.received.push(body);
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(
          '<!doctype html><title>Subscribed</title><p>Thank you: please confirm your address from the e-mail we ' +
            'have sent you.</p>',
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/subscribe/post?u=1a2b3c&id=4d5e6f`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

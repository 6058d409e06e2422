/**
 * End to end: the real CLI builds into a temporary folder, the real `preview` command serves it
 * on a free port, and every sitemap URL answers 200 with its page.
 */
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runCli, startPreviewProcess, tempProject } from '../helpers.js';

const SITE = 'https://www.example.com';
let project: Awaited<ReturnType<typeof tempProject>>;
let preview: Awaited<ReturnType<typeof startPreviewProcess>> | undefined;

beforeAll(async () => {
  project = await tempProject();
  // Hidden files an editor's tools leave in content/: none may be published.
  await writeFile(path.join(project.root, 'content', '.env'), 'SECRET=1');
  await writeFile(path.join(project.root, 'content', 'images', '.env'), 'SECRET=1');
  await mkdir(path.join(project.root, 'content', 'images', '.git'), { recursive: true });
  await writeFile(path.join(project.root, 'content', 'images', '.git', 'config'), 'SECRET=1');
  // A link in content/images/ to a file of the project is followed (links out of it are refused:
  // test/hostile/links.test.ts).
  // (Only images are published there, so the file is a GIF: its signature and a marker.)
  await writeFile(path.join(project.root, 'inside.gif'), 'GIF89a shared notes');
  await symlink(path.join(project.root, 'inside.gif'), path.join(project.root, 'content', 'images', 'linked.gif'));
  const out = path.join(project.root, 'out');
  // preview serves the redirects and headers of _redirects and _headers, as Cloudflare Pages does.
  const built = await runCli(['--root', project.root, 'build', '--out', 'out', '--target', 'cloudflare'], {
    SITE_URL: SITE,
  });
  expect(built.code, built.stderr).toBe(0);
  preview = await startPreviewProcess(['--root', project.root, '--out', 'out', '--port', String(await freePort())]);
  expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('<!DOCTYPE html>');
});

afterAll(async () => {
  await preview?.stop();
  await project?.cleanup();
});

describe('preview', () => {
  it('publishes no hidden file of content/, and a link to a file of the project as that file', async () => {
    const files = (await readdir(path.join(project.root, 'out'), { recursive: true })).map(String);
    expect(files.length).toBeGreaterThan(30);
    expect(files.filter((file) => file.split(path.sep).some((part) => part.startsWith('.')))).toEqual([]);
    expect(await readFile(path.join(project.root, 'out', 'images', 'linked.gif'), 'utf8')).toBe('GIF89a shared notes');
  });

  it('answers every sitemap URL with 200 and the page whose canonical it is', async () => {
    const sitemap = await (await fetch(`${preview!.url}/sitemap.xml`)).text();
    const urls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(17);
    for (const url of urls) {
      const local = url.replace(SITE, preview!.url);
      const response = await fetch(local, { redirect: 'manual' });
      expect(response.status, local).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      const html = await response.text();
      expect(html).toContain(`<link rel="canonical" href="${url}"/>`);
    }
  });

  it('answers an unknown path with 404 and the 404 page', async () => {
    const response = await fetch(`${preview!.url}/no-such-page`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('PAGE NOT FOUND');
  });

  it('redirects /index and the misspelt paths with 301', async () => {
    const cases: [string, string][] = [
      ['/index', '/'],
      ['/buy-instagrm-followers', '/buy-instagram-followers'],
      ['/buy-youtube-watch-time', '/buy-youtube-watch-hours'],
    ];
    for (const [from, to] of cases) {
      const response = await fetch(preview!.url + from, { redirect: 'manual' });
      expect(response.status, from).toBe(301);
      expect(response.headers.get('location')).toBe(to);
    }
  });

  it('keeps to clean URLs: trailing slashes and .html redirect, never to another host', async () => {
    const cases: [string, string][] = [
      ['/about/', '/about'],
      ['/about.html', '/about'],
      ['/index.html', '/'],
      ['//evil.example/', '/evil.example'],
      ['//evil.example', '/evil.example'],
    ];
    for (const [from, to] of cases) {
      const response = await fetch(preview!.url + from, { redirect: 'manual' });
      expect(response.status, from).toBe(301);
      expect(response.headers.get('location'), from).toBe(to);
    }
  });

  it('does not serve the host configuration files or hidden files, however the path is encoded', async () => {
    await writeFile(path.join(project.root, 'out', '.env'), 'SECRET=1');
    for (const p of [
      '/_redirects',
      '/_headers',
      '/_nginx.conf',
      '/%5Fheaders',
      '/%5fnginx.conf',
      '/.env',
      '/%2Eenv',
      '/images/.env',
    ]) {
      const response = await fetch(`${preview!.url}${p}`, { redirect: 'manual' });
      expect(response.status, p).toBe(404);
      expect(await response.text(), p).not.toContain('SECRET');
    }
  });

  it('answers only GET and HEAD, as a static host does', async () => {
    expect((await fetch(`${preview!.url}/`, { method: 'HEAD' })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await fetch(`${preview!.url}/`, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('sends HSTS and allows images only from the site for an https site', async () => {
    const headers = (await fetch(`${preview!.url}/`)).headers;
    expect(headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect(headers.get('content-security-policy')).toContain("img-src 'self' data:;");
  });

  it('serves the stylesheet and the favicon', async () => {
    const home = await (await fetch(`${preview!.url}/`)).text();
    const css = /href="(\/assets\/site\.[0-9a-f]+\.css)"/.exec(home)![1]!;
    const response = await fetch(preview!.url + css);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/css/);
    expect((await fetch(`${preview!.url}/favicon.svg`)).status).toBe(200);
  });
});

/**
 * `preview --host`: where the real `preview` listens, the addresses it prints, and the values it
 * refuses. Real servers on free ports; the network addresses are this machine's own, from
 * `os.networkInterfaces()`, and when it has none the printed lines and the listening socket say
 * what they would otherwise.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseHost, servingAddresses, servingLines } from '../../src/preview/listen-address.js';
import { startPreview } from '../../src/preview/preview-server.js';
import { builtProject, runCli, startPreviewProcess, type CliServer } from '../helpers.js';

let project: Awaited<ReturnType<typeof builtProject>>;
let out: string;

/** This machine's addresses other than loopback, as `preview --host` lists them (IPv4 for 0.0.0.0). */
function networkAddresses(family: 'IPv4' | 'IPv6'): string[] {
  const all = Object.values(networkInterfaces()).flatMap((infos) => infos ?? []);
  return all
    .filter((info) => !info.internal && info.family === family && !/^fe[89ab]/i.test(info.address))
    .map((info) => info.address);
}

const hasIpv6Loopback = () =>
  Object.values(networkInterfaces())
    .flatMap((infos) => infos ?? [])
    .some((info) => info.address === '::1');

const urlOf = (address: string, port: number) =>
  address.includes(':') ? `http://[${address}]:${port}` : `http://${address}:${port}`;

/** `preview` with these arguments on the built project, a free port; stopped by the caller. */
const preview = (...args: string[]) =>
  startPreviewProcess(['--root', project.root, '--out', 'dist', '--port', '0', ...args]);

/** Waits until the process has printed every one of these lines on stdout. */
async function printed(server: CliServer, lines: string[]): Promise<string[]> {
  await expect
    .poll(() => lines.filter((line) => !server.stdout().split('\n').includes(line)), { timeout: 5000 })
    .toEqual([]);
  return server.stdout().trimEnd().split('\n');
}

const portOf = (url: string) => Number(new URL(url).port);

/** What `preview --host 0.0.0.0` prints on this machine. */
function allInterfacesLines(port: number): string[] {
  const network = networkAddresses('IPv4');
  return [
    'Serving dist on all IPv4 network interfaces (Ctrl-C to stop):',
    `  Local:   http://127.0.0.1:${port}/`,
    ...(network.length > 0
      ? network.map((address) => `  Network: http://${address}:${port}/`)
      : ['  Network: none (this computer has no network address besides loopback)']),
  ];
}

beforeAll(async () => {
  project = await builtProject(['--quiet']);
  out = path.join(project.root, 'dist');
});

afterAll(async () => {
  await project?.cleanup();
});

describe('preview --host', () => {
  it('--host 0.0.0.0 answers on 127.0.0.1 and on each network address of this machine, and prints each', async () => {
    const server = await preview('--host', '0.0.0.0');
    try {
      const port = portOf(server.url);
      const network = networkAddresses('IPv4');
      const expected = allInterfacesLines(port);
      expect(await printed(server, expected)).toEqual(expected);
      await expect.poll(server.stderr).toContain('other devices on the network can open the site');
      for (const base of [`http://127.0.0.1:${port}`, ...network.map((address) => urlOf(address, port))]) {
        const response = await fetch(`${base}/about`);
        expect(response.status, base).toBe(200);
        expect(await response.text(), base).toContain('<link rel="canonical"');
        expect((await fetch(`${base}/no-such-page`)).status, base).toBe(404);
      }
    } finally {
      await server.stop();
    }
  });

  it(
    'listens on 0.0.0.0 over IPv4, ' + 'with the loopback URL as its url and one network URL per address (in process)',
    async () => {
      const server = await startPreview(out, 0, '0.0.0.0');
      try {
        const address = server.server.address();
        expect(address).toMatchObject({ address: '0.0.0.0', family: 'IPv4' });
        const port = (address as { port: number }).port;
        expect(server.url).toBe(`http://127.0.0.1:${port}`);
        expect(server.addresses.network).toEqual(networkAddresses('IPv4').map((a) => `http://${a}:${port}`));
        expect((await fetch(`${server.url}/`)).status).toBe(200);
      } finally {
        await server.close();
      }
    },
  );

  it('--host alone listens on every IPv4 interface, and does not take the next flag as its value', async () => {
    const server = await startPreviewProcess(['--root', project.root, '--out', 'dist', '--host', '--port', '0']);
    try {
      const expected = allInterfacesLines(portOf(server.url));
      expect(await printed(server, expected)).toEqual(expected);
      expect((await fetch(`${server.url}/`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('--host 127.0.0.1 prints only the loopback URL, and no network address reaches it', async () => {
    const server = await preview('--host', '127.0.0.1');
    try {
      const port = portOf(server.url);
      expect(await printed(server, [`Serving dist at http://127.0.0.1:${port} (Ctrl-C to stop)`])).toEqual([
        `Serving dist at http://127.0.0.1:${port} (Ctrl-C to stop)`,
      ]);
      expect(server.stderr()).not.toContain('other devices');
      expect((await fetch(`${server.url}/`)).status).toBe(200);
      for (const address of networkAddresses('IPv4')) await expect(fetch(urlOf(address, port))).rejects.toThrow();
    } finally {
      await server.stop();
    }
  });

  it('without --host listens on 127.0.0.1 as before, as `storefront check` does (port 0)', async () => {
    const server = await startPreview(out, 0);
    try {
      expect(server.server.address()).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.addresses.network).toEqual([]);
    } finally {
      await server.close();
    }
    const child = await preview();
    try {
      expect(await printed(child, [`Serving dist at ${child.url} (Ctrl-C to stop)`])).toEqual([
        `Serving dist at ${child.url} (Ctrl-C to stop)`,
      ]);
    } finally {
      await child.stop();
    }
  });

  it('--host ::1 listens on the IPv6 loopback, in brackets in its URL (or says the machine has no IPv6)', async () => {
    if (hasIpv6Loopback()) {
      const server = await startPreview(out, 0, '::1');
      try {
        expect(server.server.address()).toMatchObject({ address: '::1', family: 'IPv6' });
        expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
        expect((await fetch(`${server.url}/`)).status).toBe(200);
      } finally {
        await server.close();
      }
    } else {
      const result = await runCli(['--root', project.root, 'preview', '--port', '0', '--host', '::1']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('SF170');
    }
  });

  it(
    'refuses a value that is no address or host name: SF170 naming --host, no stack trace, ' + 'nothing served',
    async () => {
      for (const value of ['bad_host!', 'http://192.168.1.20', '1.2.3', '300.1.1.1', '', '[not-ipv6]']) {
        const result = await runCli(['--root', project.root, 'preview', '--port', '0', '--host', value]);
        expect(result.code, value).toBe(1);
        expect(result.stdout, value).toBe('');
        expect(result.stderr, value).toContain('SF170  --host');
        expect(result.stderr, value).toContain(
          `argument '${value}' is invalid. must be an IP address (192.168.1.20, ::) or a host name (my-laptop.local).`,
        );
        expect(result.stderr, value).not.toMatch(/^\s+at /m);
      }
    },
  );

  it('refuses an address this machine does not have, and a name that does not resolve, as SF170', async () => {
    const foreign = '203.0.113.7';
    expect(networkAddresses('IPv4')).not.toContain(foreign);
    const cases: [string, string][] = [
      [foreign, `This computer has no address ${foreign} to listen on.`],
      ['no-such-host.invalid', 'The host name no-such-host.invalid does not resolve to an address.'],
    ];
    for (const [value, message] of cases) {
      const result = await runCli(['--root', project.root, 'preview', '--port', '0', '--host', value]);
      expect(result.code, value).toBe(1);
      expect(result.stderr, value).toContain('SF170  --host');
      expect(result.stderr, value).toContain(message);
      expect(result.stderr, value).not.toMatch(/^\s+at /m);
    }
  });
});

describe('the addresses --host lists', () => {
  const info = (address: string, family: 'IPv4' | 'IPv6', internal = false): NetworkInterfaceInfo =>
    ({
      address,
      family,
      internal,
      netmask: '',
      mac: '',
      cidr: null,
      ...(family === 'IPv6' ? { scopeid: 0 } : {}),
    }) as NetworkInterfaceInfo;
  const machine = {
    lo: [info('127.0.0.1', 'IPv4', true), info('::1', 'IPv6', true)],
    wlan0: [info('192.168.1.20', 'IPv4'), info('fd00::20', 'IPv6'), info('fe80::1', 'IPv6')],
    eth0: [info('10.0.0.5', 'IPv4')],
  };

  it('0.0.0.0: the loopback URL and each IPv4 address; :: adds IPv6 but not link-local', () => {
    expect(servingLines('Serving dist', servingAddresses('0.0.0.0', 4173, machine))).toEqual([
      'Serving dist on all IPv4 network interfaces (Ctrl-C to stop):',
      '  Local:   http://127.0.0.1:4173/',
      '  Network: http://192.168.1.20:4173/',
      '  Network: http://10.0.0.5:4173/',
    ]);
    expect(servingAddresses('::', 4173, machine).network).toEqual([
      'http://192.168.1.20:4173',
      'http://10.0.0.5:4173',
      'http://[fd00::20]:4173',
    ]);
  });

  it('a machine with no network address says so; one address prints one line', () => {
    expect(servingLines('Serving', servingAddresses('0.0.0.0', 4321, { lo: machine.lo }))).toEqual([
      'Serving on all IPv4 network interfaces (Ctrl-C to stop):',
      '  Local:   http://127.0.0.1:4321/',
      '  Network: none (this computer has no network address besides loopback)',
    ]);
    expect(servingLines('Serving', servingAddresses('192.168.1.20', 4321, machine))).toEqual([
      'Serving at http://192.168.1.20:4321 (Ctrl-C to stop)',
    ]);
    expect(servingAddresses('fe80::1%wlan0', 4321, machine).url).toBe('http://[fe80::1%25wlan0]:4321');
  });

  it('accepts addresses and host names, and nothing else', () => {
    const good: [string, string][] = [
      ['0.0.0.0', '0.0.0.0'],
      ['192.168.1.20', '192.168.1.20'],
      ['::', '::'],
      ['[::1]', '::1'],
      ['fd00::20', 'fd00::20'],
      ['localhost', 'localhost'],
      ['my-laptop.local', 'my-laptop.local'],
      ['shop.example.co.uk.', 'shop.example.co.uk'],
    ];
    for (const [value, host] of good) expect(normaliseHost(value), value).toBe(host);
    for (const value of [
      '',
      ' ',
      'a b',
      'bad_host',
      'http://x',
      'x:80',
      '1.2.3',
      '256.1.1.1',
      '-x',
      'x-',
      'a..b',
      `${'a'.repeat(64)}.example`,
      '[localhost]',
    ]) {
      expect(normaliseHost(value), value).toBeUndefined();
    }
  });
});

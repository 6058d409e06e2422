/**
 * Where `preview` and `dev` listen (`--host`), and the addresses they can be opened at. By
 * default only this computer can open them (127.0.0.1); `--host` alone listens on every IPv4
 * interface (0.0.0.0), so a phone on the same network can open the site too.
 */
import { isIP } from 'node:net';
import { hostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { problem } from '../errors/catalogue.js';
import { StorefrontError, type Problem } from '../errors/storefront-error.js';

/** Where the servers listen without `--host`: this computer only. */
export const LOOPBACK = '127.0.0.1';
/** What `--host` without a value listens on: every IPv4 interface (`--host ::` adds IPv6). */
export const ALL_INTERFACES = '0.0.0.0';

/** The unspecified addresses: listening there is listening on every interface. */
export function isAllInterfaces(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

/** One label of a host name (RFC 1123): letters, digits and inner hyphens, at most 63. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

/**
 * A `--host` value as the address to listen on, or undefined when it is none: an IPv4 address,
 * an IPv6 address (brackets allowed: `[::1]`), or a host name (`localhost`, `my-laptop.local`).
 * A name whose last label is all digits (`1.2.3`, `300.1.1.1`) is refused: the system would read
 * it as a malformed address, not as a name.
 */
export function normaliseHost(value: string): string | undefined {
  const trimmed = value.trim();
  const unbracketed = /^\[(.*)\]$/.exec(trimmed)?.[1] ?? trimmed;
  if (isIP(unbracketed) !== 0) return unbracketed;
  if (unbracketed !== trimmed) return undefined;
  const name = trimmed.replace(/\.$/, '');
  if (name.length === 0 || name.length > 253) return undefined;
  const labels = name.split('.');
  if (!labels.every((label) => LABEL.test(label))) return undefined;
  if (/^\d+$/.test(labels.at(-1)!)) return undefined;
  return name;
}

/** An address or a name as it goes into a URL: IPv6 in brackets, its zone's `%` encoded. */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host.replace(/%/g, '%25')}]` : host;
}

/** `http://host:port`, without a trailing slash (as `server.url` always was). */
export function httpUrl(host: string, port: number): string {
  return `http://${urlHost(host)}:${port}`;
}

export interface ServingAddresses {
  /** The address listened on, as given (`127.0.0.1`, `0.0.0.0`, `::1`, `my-laptop.local`). */
  host: string;
  port: number;
  /** Listening on every interface (0.0.0.0 or ::). */
  allInterfaces: boolean;
  /** The URL to open on this computer: the loopback one when listening everywhere. */
  url: string;
  /**
   * When listening on every interface, one URL per network address of this computer (not the
   * loopback ones): IPv4 for 0.0.0.0; IPv4 and IPv6 for ::, without link-local IPv6 addresses
   * (fe80::, which browsers cannot open). Empty when listening on one address.
   */
  network: string[];
}

const family = (info: NetworkInterfaceInfo): 4 | 6 => (info.family === 'IPv6' ? 6 : 4);

/** The URLs a server listening on `host`:`port` can be opened at. */
export function servingAddresses(
  host: string,
  port: number,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): ServingAddresses {
  const allInterfaces = isAllInterfaces(host);
  if (!allInterfaces) return { host, port, allInterfaces, url: httpUrl(host, port), network: [] };
  const withIpv6 = host === '::';
  const network = Object.values(interfaces)
    .flatMap((infos) => infos ?? [])
    .filter((info) => !info.internal && (family(info) === 4 || (withIpv6 && !/^fe[89ab]/i.test(info.address))))
    // IPv4 first, as the one most likely to work from a phone; each address once.
    .sort((a, b) => family(a) - family(b))
    .map((info) => httpUrl(info.address, port));
  return { host, port, allInterfaces, url: httpUrl(LOOPBACK, port), network: [...new Set(network)] };
}

/**
 * What `preview` and `dev` print when they start (`what`: `Serving dist`, `Serving`). On one
 * address, the line they always printed, `Serving dist at http://127.0.0.1:4173 (Ctrl-C to
 * stop)`; on every interface, Vite's way: the loopback URL, then one per network address.
 */
export function servingLines(what: string, addresses: ServingAddresses): string[] {
  if (!addresses.allInterfaces) return [`${what} at ${addresses.url} (Ctrl-C to stop)`];
  return [
    `${what} on all ${addresses.host === '::' ? '' : 'IPv4 '}network interfaces (Ctrl-C to stop):`,
    `  Local:   ${addresses.url}/`,
    ...(addresses.network.length > 0
      ? addresses.network.map((url) => `  Network: ${url}/`)
      : ['  Network: none (this computer has no network address besides loopback)']),
  ];
}

/** Whether other devices may open what listens on `host`: anything but a loopback address or `localhost`. */
export function reachableFromNetwork(host: string): boolean {
  const loopback = host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
  return !loopback;
}

/** Said after the addresses when the site can be opened from other devices. */
export const EXPOSED_NOTE =
  'note: other devices on the network can open the site too; use --host only on a network you trust.';

interface SystemError extends Error {
  code?: string;
}

/**
 * A listen that failed because of the `--host` value (an address this computer does not have,
 * a name that does not resolve, IPv6 where the system has none, a link-local address without its
 * interface) as a flag problem, SF170;
 * undefined for any other error (a port in use stays SF901).
 */
export function hostProblem(err: unknown, host: string): StorefrontError | undefined {
  const code = (err as SystemError | null)?.code;
  const refused = (found: Problem) => new StorefrontError(found, undefined, { cause: err });
  const at = { field: '--host' };
  if (code === 'EAFNOSUPPORT')
    return refused(
      problem('listenHostUnusable', { host, why: 'no such family', family: isIP(host) === 6 ? 6 : 4 }, at),
    );
  const why =
    code === 'EADDRNOTAVAIL'
      ? 'not ours'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL'
        ? 'no such name'
        : code === 'EINVAL' && /^fe[89ab][^%]*$/i.test(host)
          ? 'needs its interface'
          : code === 'EINVAL'
            ? 'refused'
            : undefined;
  return why ? refused(problem('listenHostUnusable', { host, why }, at)) : undefined;
}

/**
 * The host name of a `Host` header (`localhost:4173` → `localhost`, `[::1]:4173` → `::1`),
 * lower-case and without a trailing dot; undefined when it is not one.
 */
export function hostOfHeader(header: string): string | undefined {
  const match = /^(?:\[([0-9a-f:.]+(?:%[\w.~-]+)?)\]|([a-z0-9_.-]+))(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!match) return undefined;
  const name = (match[1] ?? match[2]!).toLowerCase().replace(/\.$/, '');
  if (match[1] !== undefined && isIP(name.replace(/%.*$/, '')) !== 6) return undefined;
  return name;
}

/**
 * Which `Host` headers the servers answer, as Vite's `server.allowedHosts` does against DNS
 * rebinding (a page of evil.example whose name is made to point at 127.0.0.1 would otherwise read
 * the site, drafts included, in dev): `localhost` and `*.localhost`, any IP address (a browser
 * sends one only when it was opened at that address, which no other site can make it do), the
 * `--host` name, and, when listening on every interface, this computer's own name. Any port:
 * a tunnel or a container's published port (`ssh -L 9000:localhost:4321`) changes it, and no
 * rebinding page can choose a name through it. Anything else is answered 403.
 */
export function hostAllowed(listenHost: string): (header: string | undefined) => boolean {
  const names = new Set(['localhost']);
  if (isIP(listenHost) === 0) names.add(listenHost.toLowerCase().replace(/\.$/, ''));
  if (isAllInterfaces(listenHost)) {
    const own = hostname().toLowerCase();
    names.add(own);
    if (!own.includes('.')) names.add(`${own}.local`);
  }
  return (header) => {
    // HTTP/1.0 clients may send none; a browser always sends one.
    if (header === undefined) return true;
    const name = hostOfHeader(header);
    if (name === undefined) return false;
    return isIP(name.replace(/%.*$/, '')) !== 0 || names.has(name) || name.endsWith('.localhost');
  };
}

// What the commands share: their options' parsers, the project-folder check and stopping on a signal.
import { InvalidArgumentError, Option } from 'commander';
import { StorefrontError } from '../errors/storefront-error.js';
import { ALL_INTERFACES, LOOPBACK, normaliseHost } from '../preview/listen-address.js';
import { noContentFolder } from '../util/project-folder.js';

/** Decimal digits only: Number() would also take `0x50` (port 80), `1e3`, ` 80` and `+80`. */
export function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('must be a whole number from 0 to 65535, in decimal digits.');
  }
  return port;
}

/** `--host` of preview and dev: without a value every IPv4 interface, else one address or name. */
export function hostOption(): Option {
  return new Option(
    '--host [addr]',
    'address to listen on; alone, all IPv4 interfaces, so other devices on the network can open the site',
  )
    .default(LOOPBACK)
    .preset(ALL_INTERFACES)
    .argParser((value: string) => {
      const host = normaliseHost(value);
      if (host === undefined)
        throw new InvalidArgumentError('must be an IP address (192.168.1.20, ::) or a host name (my-laptop.local).');
      return host;
    });
}

export function parseWhole(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number.');
  return n;
}

/** The signals that end a long-running command: Ctrl-C, a service manager's TERM, a closed terminal's HUP. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Ctrl-C, a service manager's TERM or a closed terminal's HUP closes what a long-running command
 * started (dev removes its temporary folder), then exits 0. Closed once, whatever signals follow.
 */
export function stopOnSignal(close: () => Promise<void>): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void close().then(() => process.exit(0));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
}

/**
 * Outside a project folder (no content/ under --root, by default the current folder) a command
 * that reads the content stops with one problem, before it reads any setting or file.
 */
export function requireProjectFolder(root: string): void {
  const problem = noContentFolder(root);
  if (problem) throw new StorefrontError(problem);
}

import type { BuildService, HostLimits } from '../hosts/host.js';
import { DEFAULT_TARGET, HOSTS, hostNamed, type Target } from '../hosts/hosts.js';

/**
 * The host a build is for. Each gets the files its host reads, in the form it accepts, and
 * nothing it would publish by mistake (see src/hosts/, one module per host). Chosen by
 * `--target`, DEPLOY_TARGET or `target:` in content/config.yaml; otherwise detected from the
 * variables a host's build service sets; otherwise `static`.
 */
export { TARGETS, type Target } from '../hosts/hosts.js';

type Env = Readonly<Record<string, string | undefined>>;

const running = (service: BuildService | undefined, env: Env): service is BuildService =>
  service !== undefined && env[service.variable] === service.value;

/**
 * The target to build for, and why: the setting when there is one (`from` says where it was
 * set), else the host whose build service this is.
 */
export function resolveTarget(setting: Target | '', env: Env, from: string): { target: Target; why: string } {
  if (setting !== '') return { target: setting, why: `from ${from}` };
  for (const host of HOSTS) {
    const service = host.buildService;
    if (service?.setsTarget && running(service, env))
      return { target: host.name, why: `detected: ${service.variable} is set` };
  }
  return { target: DEFAULT_TARGET, why: 'the default; --target names a host' };
}

/** The host build service this build runs on, if any: the target's own, or one that sets a target. */
export function buildService(target: Target, env: Env): BuildService | undefined {
  const own = hostNamed(target).buildService;
  if (running(own, env)) return own;
  return HOSTS.map((host) => host.buildService).find((service) => service?.setsTarget && running(service, env));
}

/** The limits of a target's host (in its module), or undefined if it has none the build can know. */
export function hostLimits(target: Target, cfPagesMaxFiles?: number): HostLimits | undefined {
  return hostNamed(target).limits?.({ cfPagesMaxFiles });
}

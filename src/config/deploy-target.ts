/**
 * The host a build is for. Each gets the files its host reads, in the form it accepts, and
 * nothing it would publish by mistake (see output/host-files.ts). Chosen by `--target`,
 * DEPLOY_TARGET or `target:` in content/config.yaml; otherwise detected from the variables a
 * host's build service sets; otherwise `static`.
 */
export const TARGETS = ['netlify', 'cloudflare', 'github-pages', 'nginx', 'static'] as const;
export type Target = (typeof TARGETS)[number];

/** A host's build service: the variable it sets, and where its settings (SITE_URL) are kept. */
interface BuildService {
  name: string;
  variable: string;
  value: string;
  settings: string;
}

/** The services a build can find itself on. A GitHub Actions run may deploy anywhere, so it sets no target. */
export const BUILD_SERVICES: Partial<Record<Target, BuildService>> = {
  netlify: {
    name: 'Netlify',
    variable: 'NETLIFY',
    value: 'true',
    settings: "Netlify's site settings: Site configuration › Environment variables",
  },
  cloudflare: {
    name: 'Cloudflare Pages',
    variable: 'CF_PAGES',
    value: '1',
    settings: 'the Cloudflare dashboard: Workers & Pages › your project › Settings › Variables and Secrets',
  },
  'github-pages': {
    name: 'GitHub Actions',
    variable: 'GITHUB_ACTIONS',
    value: 'true',
    settings: "the workflow's env, or the repository's Settings › Secrets and variables › Actions › Variables",
  },
};

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The target to build for, and why: the setting when there is one (`from` says where it was
 * set), else the host whose build service this is.
 */
export function resolveTarget(setting: Target | '', env: Env, from: string): { target: Target; why: string } {
  if (setting !== '') return { target: setting, why: `from ${from}` };
  for (const target of ['netlify', 'cloudflare'] as const) {
    const service = BUILD_SERVICES[target]!;
    if (env[service.variable] === service.value) return { target, why: `detected: ${service.variable} is set` };
  }
  return { target: 'static', why: 'the default; --target names a host' };
}

/** The host build service this build runs on, if any: its own variable, or the target's. */
export function buildService(target: Target, env: Env): BuildService | undefined {
  const running = (service: BuildService | undefined) => service !== undefined && env[service.variable] === service.value;
  if (running(BUILD_SERVICES[target])) return BUILD_SERVICES[target];
  return [BUILD_SERVICES.netlify, BUILD_SERVICES.cloudflare].find(running);
}

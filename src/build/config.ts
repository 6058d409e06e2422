import { buildService, resolveTarget, type Target } from '../config/deploy-target.js';
import { hostNamed } from '../hosts/hosts.js';
import { imageOrigins, loadConfig, type Config } from '../config/load-config.js';
import { isReservedHost } from '../content/placeholders.js';
import { problem } from '../errors/catalogue.js';
import { NOTHING_WRITTEN, ProblemList } from '../errors/storefront-error.js';
import type { BuildStart, Configured } from './build-state.js';
import type { Stage } from './run-stages.js';
import { CONFIG_FILE } from '../util/content-files.js';

/**
 * The settings (defaults, file, environment, flags), the host the site is for, and the site's
 * address checked for that host.
 */
export const configStage: Stage<BuildStart, Configured> = { name: 'config', run: configure };

/** Whether the blog comes from the CMS (the cms stage runs, and the routes stage again after it). */
export const usesCms = (state: Configured): boolean => state.config.cmsApiUrl !== '';

async function configure(state: BuildStart): Promise<Configured> {
  const { options, env } = state;
  const config = await loadConfig(state.root, env, {
    ...(options.cmsApiUrl !== undefined ? { cmsApiUrl: options.cmsApiUrl } : {}),
    ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
    ...(options.target !== undefined ? { target: options.target } : {}),
  });
  const target = resolveTarget(
    config.target,
    env,
    options.target !== undefined ? '--target' : env.DEPLOY_TARGET ? 'DEPLOY_TARGET' : CONFIG_FILE,
  );
  const basePathFrom =
    options.basePath !== undefined
      ? '--base'
      : env.BASE_PATH !== undefined
        ? 'environment variable BASE_PATH'
        : CONFIG_FILE;
  checkAddressForHost(config, target.target, basePathFrom, env, options.allowPlaceholders === true, state.log);
  const { warning } = hostNamed(target.target);
  if (warning) state.log(warning);
  return { ...state, config, target, imageOrigins: imageOrigins(config) };
}

/**
 * Refuses what would publish a site at the wrong address without a word: a build on a host's
 * build service for the example origin (canonical URLs, the sitemap and og:url would all name
 * it), and a base path on a host that serves a site at the root of its domain. In any other CI,
 * the example origin is a warning.
 */
function checkAddressForHost(
  config: Config,
  target: Target,
  basePathFrom: string,
  env: Readonly<Record<string, string | undefined>>,
  allowPlaceholders: boolean,
  log: (line: string) => void,
): void {
  const problems = new ProblemList();
  const host = hostNamed(target);
  if (host.servesAtRoot && config.basePath) {
    problems.add(
      problem(
        'basePathOnRootHost',
        { basePath: config.basePath, host: host.title },
        { file: basePathFrom, field: 'basePath' },
      ),
    );
  }
  if (isReservedHost(new URL(config.siteUrl).hostname)) {
    const service = buildService(target, env);
    if (service && !allowPlaceholders) {
      const { name, variable, settings } = service;
      problems.add(
        problem(
          'exampleAddressOnBuildService',
          { service: name, variable, siteUrl: config.siteUrl, settings },
          { file: 'environment variable SITE_URL' },
        ),
      );
    } else if (service || (env.CI && !['false', '0'].includes(env.CI))) {
      log(
        `WARNING: building ${service ? `on ${service.name}` : 'in CI'} for ${config.siteUrl}, an example address: ` +
          'canonical URLs, the sitemap and share links name it. Set SITE_URL.',
      );
    }
  }
  problems.throwIfAny(NOTHING_WRITTEN);
}

import { buildService, resolveTarget, type Target } from '../config/deploy-target.js';
import { CONFIG_FILE, imageOrigins, loadConfig, type Config } from '../config/load-config.js';
import { isReservedHost } from '../content/placeholders.js';
import { codes } from '../errors/catalogue.js';
import { NOTHING_WRITTEN, ProblemList } from '../errors/storefront-error.js';
import type { BuildStart, Configured } from './build-state.js';
import type { Stage } from './run-stages.js';

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
  if ((target === 'netlify' || target === 'cloudflare') && config.basePath) {
    problems.add({
      code: codes.badSetting,
      file: basePathFrom,
      field: 'basePath',
      message: `The site is built for ${config.basePath}/, but ${target === 'netlify' ? 'Netlify' : 'Cloudflare Pages'} serves a site at the root of its domain.`,
      hint: 'Leave basePath (BASE_PATH, --base) empty for this host, or build for github-pages, nginx or static.',
    });
  }
  if (isReservedHost(new URL(config.siteUrl).hostname)) {
    const service = buildService(target, env);
    if (service && !allowPlaceholders) {
      problems.add({
        code: codes.placeholder,
        file: 'environment variable SITE_URL',
        message: `This build runs on ${service.name} (${service.variable} is set) for ${config.siteUrl}, an example address: every canonical URL, the sitemap and the share links would name it.`,
        hint: `Set SITE_URL to the site's address in ${service.settings} (or siteUrl in ${CONFIG_FILE}); for a staging build, pass --allow-placeholders.`,
      });
    } else if (service || (env.CI && !['false', '0'].includes(env.CI))) {
      log(
        `WARNING: building ${service ? `on ${service.name}` : 'in CI'} for ${config.siteUrl}, an example address: canonical URLs, the sitemap and share links name it. Set SITE_URL.`,
      );
    }
  }
  problems.throwIfAny(NOTHING_WRITTEN);
}

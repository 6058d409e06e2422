import path from 'node:path';
import { loadConfig, type Config } from './config/load-config.js';
import { loadContent } from './content/load-content.js';
import { stylesheetAsset, staticAssets } from './output/assets.js';
import { redirectsFile } from './output/redirects.js';
import { robotsTxt, sitemapXml } from './output/sitemap.js';
import { writeOutput, type OutputFile } from './output/write-output.js';
import { packageRoot } from './package-root.js';
import { renderRoutes } from './render/render-routes.js';
import { checkContentLinks } from './routes/check-links.js';
import { buildRouteTable, outputFile, type RouteKind } from './routes/route-table.js';

export interface BuildOptions {
  /** The project root: where content/ and templates/ are. */
  root: string;
  /** Output folder, absolute or relative to the root. */
  outDir: string;
  /** Local blog posts folder (default content/blog). */
  postsDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  now?: Date;
  log?: (line: string) => void;
}

export interface BuildSummary {
  pages: number;
  pagesByKind: Record<RouteKind, number>;
  files: number;
  bytes: number;
  warnings: string[];
  stages: { name: string; ms: number }[];
  totalMs: number;
  outDir: string;
}

/**
 * The build, stage by stage: settings → content → route table → render → write.
 * Every check runs before anything is written; the output folder is swapped in at the end.
 */
export async function build(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const stages: BuildSummary['stages'] = [];
  const step = async <T>(name: string, work: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const result = await work();
    stages.push({ name, ms: performance.now() - t0 });
    return result;
  };
  const root = path.resolve(options.root);
  const outDir = path.resolve(root, options.outDir);
  const now = options.now ?? new Date();

  const config: Config = await step('config', () => loadConfig(root, options.env ?? process.env));
  const content = await step('content', () =>
    loadContent(root, config, { postsDir: options.postsDir ? path.resolve(root, options.postsDir) : undefined }),
  );
  const table = await step('routes', () => {
    const routeTable = buildRouteTable(content);
    checkContentLinks(content, routeTable);
    return routeTable;
  });
  const stylesheet = await stylesheetAsset(packageRoot());
  const pages = await step('render', () =>
    renderRoutes(config, content, table, {
      stylesheetHref: `/${stylesheet.file}`,
      ogImagePath: '/assets/og-image.png',
      now,
    }),
  );
  const absolute = (p: string) => `${config.siteUrl}${encodeURI(p)}`;
  const files: OutputFile[] = [
    ...pages.map((page) => ({ file: outputFile(page.route.path), contents: page.html })),
    stylesheet,
    ...(await staticAssets(packageRoot())),
    { file: 'sitemap.xml', contents: sitemapXml(table, absolute) },
    { file: 'robots.txt', contents: robotsTxt(absolute('/sitemap.xml')) },
    { file: '_redirects', contents: redirectsFile(table) },
  ];
  const bytes = await step('write', () => writeOutput(outDir, files));

  const pagesByKind = {} as Record<RouteKind, number>;
  for (const page of pages) pagesByKind[page.route.kind] = (pagesByKind[page.route.kind] ?? 0) + 1;
  return {
    pages: pages.length,
    pagesByKind,
    files: files.length,
    bytes,
    warnings: content.warnings,
    stages,
    totalMs: performance.now() - started,
    outDir,
  };
}

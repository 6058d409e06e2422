import type { Target } from '../config/deploy-target.js';
import { siteRoot, type Config } from '../config/load-config.js';
import type { SiteContent } from '../content/load-content.js';
import { contentImages, staticAssets } from '../output/assets.js';
import { atomFeed } from '../output/feed.js';
import { hostNamed } from '../hosts/hosts.js';
import { hostFiles } from '../output/host-files.js';
import { securityHeaders } from '../output/http-headers.js';
import { robotsTxt, sitemapXml } from '../output/sitemap.js';
import type { OutputFile } from '../output/write-output.js';
import { absoluteUrl, postPath, type RouteTable } from '../routes/route-table.js';
import type { CardsDrawn } from './build-state.js';
import type { Stage } from './run-stages.js';

/** The feed carries the newest posts only, as feed readers expect. */
export const FEED_SIZE = 20;

/**
 * The rest of the site beside the pages (assets, images, share cards, sitemap, robots, host
 * files, feed), then the new output folder swapped in for the previous one at once (see
 * SiteWriter), so a failed or killed build leaves the previous one as it was.
 */
export const writeStage: Stage<CardsDrawn, CardsDrawn> = { name: 'write', run: writeSite };

async function writeSite(state: CardsDrawn): Promise<CardsDrawn> {
  const { output, precompress, generatorRoot } = state;
  const assets = [
    state.stylesheet,
    state.script,
    ...(await staticAssets(generatorRoot)),
    ...state.images.files,
    ...state.cardFiles,
  ];
  for (const file of [
    ...assets,
    ...siteFiles(state.config, state.target.target, state.content, state.table, state.now),
  ])
    await output.write(file, precompress);
  // content/images/: SVGs as rebuilt, other images copied one at a time as streams.
  for (const image of await contentImages(state.contentDir)) {
    if ('contents' in image) await output.write(image, precompress);
    else await output.copy(image.file, image.source, image.limit, precompress);
  }
  output.commit();
  return state;
}

/**
 * The files of the site that are not pages: the sitemap, the host's files (made from the route
 * table and the settings), and the feed of the newest posts.
 */
function siteFiles(config: Config, target: Target, content: SiteContent, table: RouteTable, now: Date): OutputFile[] {
  const absolute = (p: string) => absoluteUrl(siteRoot(config), p);
  const base = config.basePath;
  const published = content.posts.filter((post) => !post.unpublished);
  const feed = atomFeed(published.slice(0, FEED_SIZE), {
    title: `${content.site.blog.title} | ${config.brandName}`,
    subtitle: content.site.blog.description,
    siteUrl: siteRoot(config),
    feedUrl: absolute('/blog/feed.xml'),
    blogUrl: absolute('/blog'),
    updated: published[0]?.modified ?? now,
    author: config.brandName,
    postUrl: (post) => absolute(postPath(post.slug)),
  });
  return [
    { file: 'sitemap.xml', contents: sitemapXml(table, absolute) },
    { file: 'robots.txt', contents: robotsTxt(absolute('/sitemap.xml')) },
    ...hostFiles(hostNamed(target), table, securityHeaders(config), absolute, base),
    { file: 'blog/feed.xml', contents: feed },
  ];
}

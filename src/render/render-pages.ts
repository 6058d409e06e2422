import type { WrittenFile } from '../cache/output-manifest.js';
import type { PagesRequest } from '../content/posts-thread.js';
import { StorefrontError, NOTHING_WRITTEN, type Problem } from '../errors/storefront-error.js';
import type { StagedOutput } from '../output/write-output.js';
import type { Route } from '../routes/route-table.js';
import { renderRoutes, type PageSink, type RenderSetup } from './render-routes.js';

/** Where pages rendered by the posts worker are written, and how they are reported back. */
export interface PagesElsewhere {
  output: StagedOutput;
  precompress: boolean;
  /** A page the worker rendered and wrote into the staging folder. */
  writtenElsewhere(route: Route, key: string, written: WrittenFile[]): void;
}

/**
 * Renders every route. The pages of posts whose bodies a posts worker thread holds (a new
 * output folder for a large blog, see posts-thread.ts) are rendered and written by that
 * thread while this one does the rest, so both cores work. Returns this thread's render time.
 */
export async function renderPages(setup: RenderSetup, routes: readonly Route[], sink: PageSink, elsewhere: PagesElsewhere): Promise<number> {
  const { config, content, options } = setup;
  const thread = content.postsThread;
  if (!thread) return renderRoutes(config, content, routes, options, sink);

  const here: Route[] = [];
  const there: PagesRequest['routes'] = [];
  const byPath = new Map<string, Route>();
  for (const route of routes) {
    if (route.kind === 'blog-post' && thread.holds(route.post)) {
      const { post, ...rest } = route;
      there.push({ ...rest, postId: post.id });
      byPath.set(route.path, route);
    } else {
      here.push(route);
    }
  }
  const reply = thread.renderPages({
    // Plain data only: the posts stay behind (the worker has its own), and line lookups are functions.
    setup: { config, content: { ...content, posts: [], lineOf: {}, postsThread: undefined, cachedBodies: undefined }, options },
    routes: there,
    target: elsewhere.output.target,
    precompress: elsewhere.precompress,
    keyed: sink.keyed,
  });
  // Awaited below; if this thread fails first, the worker is ended and its answer never comes.
  reply.catch(() => {});
  const failures: Problem[] = [];
  let renderMs = 0;
  try {
    renderMs = await renderRoutes(config, content, here, options, sink);
  } catch (err) {
    if (!(err instanceof StorefrontError)) throw err;
    failures.push(...err.problems);
  }
  const { pages, failures: theirs, writeError } = await reply;
  if (writeError !== undefined) throw elsewhere.output.writeFailed(writeError);
  failures.push(...theirs);
  // Which thread rendered a page depends on which took its post: sorted, the report does not.
  failures.sort((a, b) => (a.file ?? '').localeCompare(b.file ?? '') || a.message.localeCompare(b.message));
  if (failures.length) throw new StorefrontError(failures, NOTHING_WRITTEN);
  for (const page of pages) elsewhere.writtenElsewhere(byPath.get(page.path)!, page.key, elsewhere.output.adopt(page.written));
  return renderMs;
}

/**
 * Worker thread of loadLocalPosts (see posts-thread.ts): parses and renders chunks of the post
 * files as it claims them, sending them back as it goes so that neither side holds two copies
 * at once. When it holds the bodies, it then renders and writes those posts' pages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ProblemList, StorefrontError } from '../errors/storefront-error.js';
import { FileWriter } from '../output/write-output.js';
import { renderRoutes } from '../render/render-routes.js';
import { outputFile, type Route } from '../routes/route-table.js';
import { collectGarbage, LARGE_BLOG } from '../util/collect-garbage.js';
import { parsePostFiles } from './load-posts.js';
import type { Post } from './post.js';
import { ChunkClaims, type PagesReply, type PagesRequest, type PostsJob, type PostsMessage } from './posts-thread.js';

const { holdBodies } = workerData as { holdBodies: boolean };
const port = parentPort!;
const held = new Map<string, Post>();

port.once('message', (job: PostsJob) => {
  const claims = new ChunkClaims(job.claims);
  for (let chunk = claims.claim(job.names); chunk; chunk = claims.claim(job.names)) {
    const problems = new ProblemList();
    const posts = parsePostFiles(job.root, job.dir, chunk.names, job.facts, problems);
    if (holdBodies) for (const post of posts) held.set(post.id, post);
    const sent = holdBodies ? posts.map(({ contentHtml: _body, ...post }) => post as Post) : posts;
    port.postMessage({ index: chunk.index, posts: sent, problems: problems.items } satisfies PostsMessage);
  }
  port.postMessage('parsed' satisfies PostsMessage);
  if (holdBodies) port.once('message', (request: PagesRequest) => void renderHeldPages(request).then((reply) => port.postMessage(reply)));
});

async function renderHeldPages(request: PagesRequest): Promise<PagesReply> {
  const { config, content, options } = request.setup;
  const routes: Route[] = request.routes.map(({ postId, ...route }) => ({ ...route, post: held.get(postId)! }));
  const writer = new FileWriter(request.target);
  const reply: PagesReply = { pages: [], failures: [], renderMs: 0 };
  try {
    reply.renderMs = await renderRoutes(config, content, routes, options, {
      keyed: request.keyed,
      // This thread only renders for a new output folder: there is nothing to keep.
      isUnchanged: () => false,
      wouldKeep: () => false,
      kept: () => {},
      rendered: async (route, key, html) => {
        let written;
        try {
          written = await writer.writeWithCopies({ file: outputFile(route.path), contents: html }, request.precompress);
        } catch (err) {
          reply.writeError = (err as Error).message;
          throw err;
        }
        reply.pages.push({ path: route.path, key, written });
        if (reply.pages.length % LARGE_BLOG === 0) collectGarbage();
      },
    });
  } catch (err) {
    if (err instanceof StorefrontError) reply.failures = [...err.problems];
    else if (reply.writeError === undefined) throw err;
  }
  return reply;
}

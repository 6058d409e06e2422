import { defaultCmsOptions } from '../cms/retry.js';
import type { Routed } from './build-state.js';
import { publish } from './content.js';
import type { Stage } from './run-stages.js';

/**
 * The blog from WordPress, fetched or from the cache, in place of the local posts (when the
 * settings name a CMS). The route table it leaves is the local content's: the routes stage runs
 * again after it.
 */
export const cmsStage: Stage<Routed, Routed> = { name: 'cms', run: loadBlog };

async function loadBlog(state: Routed): Promise<Routed> {
  const { config, content } = state;
  // Loaded on demand: the HTTP client and the sanitiser are only needed for a CMS blog.
  const { loadCmsPosts } = await import('../cms/load-cms-posts.js');
  const cms = await loadCmsPosts({
    root: state.root,
    apiUrl: config.cmsApiUrl,
    mode: state.options.cmsMode ?? 'online',
    fullFetch: state.options.cmsFullFetch,
    timeoutMs: state.requests.timeoutMs,
    retry: state.requests.retry,
    concurrency: defaultCmsOptions.concurrency,
    maxPosts: config.cmsMaxPosts,
    imageOrigins: state.imageOrigins,
    env: state.env,
    log: state.log,
    onProgress: (done, total) => state.options.progress?.('fetch', done, total),
  });
  content.posts = publish(state, cms.posts, cms.notes);
  return {
    ...state,
    blog: { source: cms.source, posts: content.posts.length, fetchMs: cms.fetchMs, sync: cms.sync, notes: cms.notes },
  };
}

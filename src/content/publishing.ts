import type { Post } from './post.js';

/** Why a post is not public yet: a draft, or dated after the build. */
function unpublishedReason(post: Post, now: Date): Post['unpublished'] {
  if (post.draft) return 'draft';
  return post.date.getTime() > now.getTime() ? 'scheduled' : undefined;
}

/**
 * The posts a build publishes: neither drafts nor dated after the build, as Hugo, Astro and
 * Eleventy do; a post dated in the future appears with the first build on or after its date.
 * With `drafts` (`build --drafts`, `dev`) those are kept too, marked, so that an editor can see
 * them; their pages are noindex, and the sitemap and the feed leave them out.
 */
export function publishedPosts(posts: readonly Post[], now: Date, drafts: boolean): Post[] {
  const shown: Post[] = [];
  for (const post of posts) {
    const unpublished = unpublishedReason(post, now);
    if (!unpublished) shown.push(post);
    else if (drafts) shown.push({ ...post, unpublished });
  }
  return shown;
}

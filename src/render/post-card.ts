import type { Post } from '../content/post.js';
import type { SiteImages } from '../images/process-images.js';
import { postPath } from '../routes/route-table.js';
import type { PostCard } from '../../templates/view-model.js';
import { formatDay } from './format-day.js';
import { imageView } from './image-view.js';

/** Makes a post's card, once per post: it appears on the post's page and on a list page. */
export function postCardMaker(sets: SiteImages['sets']): (post: Post) => PostCard {
  const cards = new WeakMap<Post, PostCard>();
  return (post) => {
    let card = cards.get(post);
    if (!card) {
      card = postCard(post, sets);
      cards.set(post, card);
    }
    return card;
  };
}

function postCard(post: Post, sets: SiteImages['sets']): PostCard {
  return {
    // Percent-encoded as WordPress gives it, so non-ASCII slugs make plain ASCII links.
    path: encodeURI(postPath(post.slug)),
    titleHtml: post.titleHtml,
    titleText: post.titleText,
    excerptHtml: post.excerptHtml,
    date: formatDay(post.date),
    dateIso: post.date.toISOString(),
    image: post.image && imageView(sets, post.image.src, post.image.alt, post.image),
    unpublished:
      post.unpublished &&
      (post.unpublished === 'draft'
        ? 'Draft: not published'
        : `Scheduled for ${formatDay(post.date)}: not published yet`),
  };
}

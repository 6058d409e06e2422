import { Breadcrumb } from '../sections/Breadcrumb.js';
import { Picture } from '../sections/Picture.js';

/** The post's column is at most 48rem wide (.container-narrow), less its padding. */
export const POST_IMAGE_SIZES = '(min-width: 48rem) 45rem, calc(100vw - 2.5rem)';
import type { Crumb, PostCard } from '../view-model.js';

export function BlogPostPage({
  post,
  contentHtml,
  breadcrumb,
}: {
  post: PostCard;
  contentHtml: string;
  breadcrumb: Crumb[];
}) {
  return (
    <article className="post">
      <header className="hero">
        <div className="container container-narrow">
          <Breadcrumb crumbs={breadcrumb} />
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a title the content stage rendered and checked
              (content/markdown.ts, cms/sanitize.ts) */}
          <h1 id="page-heading" dangerouslySetInnerHTML={{ __html: post.titleHtml }} />
          <p className="muted">
            <time dateTime={post.dateIso}>{post.date}</time>
          </p>
          {post.unpublished ? (
            <p className="notice" role="note">
              {post.unpublished}
            </p>
          ) : null}
        </div>
      </header>
      <div className="section">
        <div className="container container-narrow">
          {post.image ? <Picture className="post-image" image={post.image} sizes={POST_IMAGE_SIZES} priority /> : null}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the post as the content stage rendered and
              checked it (content/markdown.ts, cms/sanitize.ts) */}
          <div className="prose" dangerouslySetInnerHTML={{ __html: contentHtml }} />
          <p className="post-back">
            <a href="/blog">Back to the blog</a>
          </p>
        </div>
      </div>
    </article>
  );
}

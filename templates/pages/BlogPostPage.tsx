import { Breadcrumb } from '../sections/Breadcrumb.js';
import type { Crumb, PostCard } from '../view-model.js';

export function BlogPostPage({ post, contentHtml, breadcrumb }: { post: PostCard; contentHtml: string; breadcrumb: Crumb[] }) {
  return (
    <article className="post">
      <header className="hero">
        <div className="container container-narrow">
          <Breadcrumb crumbs={breadcrumb} />
          <h1 id="page-heading" dangerouslySetInnerHTML={{ __html: post.titleHtml }} />
          <p className="muted">
            <time dateTime={post.dateIso}>{post.date}</time>
          </p>
        </div>
      </header>
      <div className="section">
        <div className="container container-narrow">
          {post.image ? (
            <img className="post-image" src={post.image.src} alt={post.image.alt} width={post.image.width} height={post.image.height} />
          ) : null}
          <div className="prose" dangerouslySetInnerHTML={{ __html: contentHtml }} />
          <p>
            <a href="/blog">Back to the blog</a>
          </p>
        </div>
      </div>
    </article>
  );
}

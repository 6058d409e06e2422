import { Hero } from '../sections/Hero.js';
import type { HeroView, PostCard } from '../view-model.js';

export interface BlogListPageProps {
  hero: HeroView;
  posts: PostCard[];
  previousPath?: string;
  nextPath?: string;
  pageNumber: number;
  pageCount: number;
}

/** A page of post cards: 1, 2 or 3 columns by screen width. */
export function BlogListPage(props: BlogListPageProps) {
  return (
    <>
      <Hero hero={props.hero} />
      <section className="section" aria-label="Posts">
        <div className="container">
          {props.posts.length === 0 ? <p>No posts yet.</p> : null}
          <ul className="post-grid">
            {props.posts.map((post, i) => (
              <li className="post-card" key={post.path}>
                {post.image ? (
                  <img
                    src={post.image.src}
                    alt={post.image.alt}
                    width={post.image.width}
                    height={post.image.height}
                    loading={i < 3 ? 'eager' : 'lazy'}
                    decoding="async"
                  />
                ) : null}
                <div className="post-card-body">
                  <p className="muted">
                    <time dateTime={post.dateIso}>{post.date}</time>
                  </p>
                  <h2>
                    <a href={post.path} dangerouslySetInnerHTML={{ __html: post.titleHtml }} />
                  </h2>
                  <div className="post-excerpt" dangerouslySetInnerHTML={{ __html: post.excerptHtml }} />
                  <p>
                    <a className="read-more" href={post.path}>
                      Read More<span className="visually-hidden">{`: ${post.titleText}`}</span>
                    </a>
                  </p>
                </div>
              </li>
            ))}
          </ul>
          {props.pageCount > 1 ? (
            <nav className="pagination" aria-label="Blog pages">
              {props.previousPath ? (
                <a href={props.previousPath} rel="prev">
                  Newer posts
                </a>
              ) : (
                <span />
              )}
              <span>{`Page ${props.pageNumber} of ${props.pageCount}`}</span>
              {props.nextPath ? (
                <a href={props.nextPath} rel="next">
                  Older posts
                </a>
              ) : (
                <span />
              )}
            </nav>
          ) : null}
        </div>
      </section>
    </>
  );
}

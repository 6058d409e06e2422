import { Hero } from '../sections/Hero.js';
import { Picture } from '../sections/Picture.js';
import type { HeroView, PostCard } from '../view-model.js';

/** A card is the whole column on a phone, half from 40rem and a third from 64rem (.post-grid). */
const CARD_SIZES = '(min-width: 64rem) 23rem, (min-width: 40rem) calc(50vw - 2rem), calc(100vw - 2.5rem)';

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
                {post.image ? <Picture image={post.image} sizes={CARD_SIZES} priority={i === 0} lazy={i >= 3} /> : null}
                <div className="post-card-body">
                  <p className="muted">
                    <time dateTime={post.dateIso}>{post.date}</time>
                  </p>
                  {post.unpublished ? <p className="notice">{post.unpublished}</p> : null}
                  <h2>
                    {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a title the content stage rendered
                        and checked (content/markdown.ts, cms/sanitize.ts) */}
                    <a href={post.path} dangerouslySetInnerHTML={{ __html: post.titleHtml }} />
                  </h2>
                  {/* biome-ignore lint/security/noDangerouslySetInnerHtml: an excerpt the content stage rendered
                      and checked (content/markdown.ts, cms/sanitize.ts) */}
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

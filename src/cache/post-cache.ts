import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Post } from '../content/post.js';
import { hashText } from '../util/hash.js';
import { removeOrphans } from './orphans.js';

/**
 * A post as the cache keeps it: everything but the body, which is read again only if needed.
 * Compact, because every rebuild reads it and a rebuild that parsed a post writes it, whole:
 * dates in milliseconds, the HTML of the title and excerpt only where it is not the text
 * itself, and no path (the file name is the key; the path is the folder's).
 */
interface StoredPost {
  slug: string;
  title: string;
  titleHtml?: string;
  excerpt: string;
  excerptHtml?: string;
  contentKey: string;
  links: readonly string[];
  image?: Post['image'];
  date: number;
  modified?: number;
}

interface PostCacheFile {
  /** The posts folder (first, for removeOrphans). */
  folder: string;
  fingerprint: string;
  /** By file name in the posts folder. */
  posts: Record<string, StoredPost>;
}

/**
 * The parsed local posts of the previous build, by file name, in `.cache/build/`. A post is
 * reused when its file's size and modification time (its `contentKey`) are unchanged, as make,
 * Hugo and Eleventy's incremental mode decide; parsing and rendering Markdown is most of a cold
 * build. Anything that changes how a post is parsed (the code, the `{{token}}` values) is in the
 * fingerprint, which discards the whole cache.
 */
export class PostCache {
  private readonly next: Record<string, StoredPost> = {};
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly folder: string,
    /** The posts folder as messages show it, relative to the project root. */
    private readonly shownFolder: string,
    private readonly fingerprint: string,
    private readonly previous: Record<string, StoredPost>,
  ) {}

  /** With `reuse` false nothing is read: every post is parsed, and the cache written afresh. */
  static open(cacheDir: string, root: string, postsDir: string, fingerprint: string, reuse: boolean): PostCache {
    const folder = path.resolve(postsDir);
    const file = path.join(cacheDir, `posts-${hashText(folder)}.json`);
    let previous: Record<string, StoredPost> = {};
    if (reuse) {
      try {
        const stored = JSON.parse(readFileSync(file, 'utf8')) as PostCacheFile;
        if (stored.fingerprint === fingerprint) previous = stored.posts;
      } catch {
        // No cache yet, or an unreadable one: every post is parsed.
      }
    }
    return new PostCache(file, folder, path.relative(root, folder).split(path.sep).join('/'), fingerprint, previous);
  }

  /**
   * The cached post of this file if its key is unchanged; its body comes from `readBody`, which
   * reads it on first use and keeps it (see CachedBodies in load-posts.ts). Only the pages of
   * changed posts are rendered, so usually it is never read.
   */
  reuse(name: string, contentKey: string, readBody: () => string): Post | undefined {
    const stored = this.previous[name];
    if (!stored || stored.contentKey !== contentKey) return undefined;
    this.next[name] = stored;
    // As displayPath gives it, without a path.relative call for each of thousands of posts.
    const source = this.shownFolder ? `${this.shownFolder}/${name}` : name;
    return {
      id: source,
      slug: stored.slug,
      titleHtml: stored.titleHtml ?? stored.title,
      titleText: stored.title,
      excerptHtml: stored.excerptHtml ?? stored.excerpt,
      excerptText: stored.excerpt,
      contentKey: stored.contentKey,
      links: stored.links,
      image: stored.image,
      date: new Date(stored.date),
      modified: new Date(stored.modified ?? stored.date),
      source,
      get contentHtml() {
        return readBody();
      },
    };
  }

  /** Records a freshly parsed post. */
  keep(name: string, post: Post): void {
    // Field by field: the body is not kept, and may not even be in this thread (posts-thread.ts).
    this.next[name] = {
      slug: post.slug,
      title: post.titleText,
      titleHtml: post.titleHtml === post.titleText ? undefined : post.titleHtml,
      excerpt: post.excerptText,
      excerptHtml: post.excerptHtml === post.excerptText ? undefined : post.excerptHtml,
      contentKey: post.contentKey,
      links: post.links,
      image: post.image,
      date: post.date.getTime(),
      modified: post.modified.getTime() === post.date.getTime() ? undefined : post.modified.getTime(),
    };
    this.changed = true;
  }

  /** Saves the posts of this build (posts whose files are gone are dropped). */
  save(): void {
    const dropped = Object.keys(this.previous).some((name) => !(name in this.next));
    if (!this.changed && !dropped) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ folder: this.folder, fingerprint: this.fingerprint, posts: this.next } satisfies PostCacheFile));
    renameSync(temporary, this.file);
    removeOrphans(path.dirname(this.file), 'posts', this.file);
  }
}

import path from 'node:path';
import type { Post } from '../content/post.js';
import { hashText } from '../util/hash.js';
import { readJournaled, writeJournaled, type JournaledRead } from './journaled-file.js';
import { removeOrphans } from './orphans.js';

/**
 * A post as the cache keeps it: everything but the body, which is read again only if needed.
 * Compact, because every rebuild reads it whole: dates in milliseconds, the HTML of the title and excerpt only where it is not the text
 * itself, and no path (the file name is the key; the path is the folder's).
 */
interface StoredPost {
  slug: string;
  title: string;
  titleHtml?: string;
  excerpt: string;
  excerptHtml?: string;
  contentKey: string;
  cardKey: string;
  links: readonly string[];
  image?: Post['image'];
  date: number;
  modified?: number;
}

interface PostCacheHeader {
  /** The posts folder (first, for removeOrphans). */
  folder: string;
  fingerprint: string;
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

  private constructor(
    private readonly file: string,
    private readonly header: PostCacheHeader,
    /** The posts folder as messages show it, relative to the project root. */
    private readonly shownFolder: string,
    /** What was read, by file name in the posts folder (see journaled-file.ts). */
    private readonly stored: JournaledRead<PostCacheHeader, StoredPost> | undefined,
  ) {}

  /** With `reuse` false nothing is read: every post is parsed, and the cache written afresh. */
  static open(cacheDir: string, root: string, postsDir: string, fingerprint: string, reuse: boolean): PostCache {
    const folder = path.resolve(postsDir);
    const file = path.join(cacheDir, `posts-${hashText(folder)}.json`);
    const stored = reuse ? readJournaled<PostCacheHeader, StoredPost>(file) : undefined;
    return new PostCache(file, { folder, fingerprint }, path.relative(root, folder).split(path.sep).join('/'), stored?.header.fingerprint === fingerprint ? stored : undefined);
  }

  /**
   * The cached post of this file if its key is unchanged; its body comes from `readBody`, which
   * reads it on first use and keeps it (see CachedBodies in load-posts.ts). Only the pages of
   * changed posts are rendered, so usually it is never read.
   */
  reuse(name: string, contentKey: string, readBody: () => string): Post | undefined {
    const stored = this.stored?.entries[name];
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
      cardKey: stored.cardKey,
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
      cardKey: post.cardKey,
      links: post.links,
      image: post.image,
      date: post.date.getTime(),
      modified: post.modified.getTime() === post.date.getTime() ? undefined : post.modified.getTime(),
    };
  }

  /** Saves the posts of this build (posts whose files are gone are dropped). */
  save(): void {
    writeJournaled(this.file, this.header, this.next, this.stored);
    removeOrphans(path.dirname(this.file), 'posts', this.file);
  }
}

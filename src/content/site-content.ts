import type { SourceFile } from '../util/source-file.js';
import type { Markdown } from './markdown.js';
import type { Post } from './post.js';
import type {
  Catalogue,
  Page,
  Redirect,
  Reviews,
  ServicePageContent,
  Site,
  TextPageFrontMatter,
  Trader,
} from './schemas.js';

/** Every content file, validated. What the route table and the renderer are built from. */
export interface SiteContent {
  site: Site;
  /** Who the customer is buying from (content/trader.yaml). */
  trader: Trader;
  catalogue: Catalogue;
  /** Where ratings come from (content/reviews.yaml); none, no rating is shown. */
  reviews?: Reviews;
  redirects: { file: string; list: Redirect[] };
  pages: { file: string; page: Page }[];
  textPages: { file: string; page: TextPageFrontMatter; body: Markdown }[];
  services: { file: string; page: ServicePageContent }[];
  posts: Post[];
  /** Non-fatal notes for the user (e.g. a contact channel left out). */
  warnings: string[];
  /** Line numbers of key paths, by file, for problems found after parsing. */
  lineOf: Record<string, SourceFile['lineOf']>;
  /**
   * What the page files that could not be read or validated state (their problems are listed):
   * their paths, and a service page's sub-category. Links, redirects and cross-sells to them are
   * not reported as broken too, which would bury the one real problem under its echoes.
   */
  unreadable: { paths: string[]; subCategories: number[] };
}

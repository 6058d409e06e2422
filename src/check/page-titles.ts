import { decodeHTML } from 'entities';

/** Search results show about 60 characters of a title and cut the rest: longer is a warning. */
export const MAX_TITLE_LENGTH = 60;

export interface LongTitle {
  /** The page's path as check shows it: `/buy-instagram-followers`. */
  page: string;
  /** Characters (code points) of the title as a visitor reads it, entities decoded. */
  length: number;
  title: string;
}

/** The text of a page's <title>, its entities decoded and spaces collapsed; undefined without one. */
export function pageTitle(html: string): string | undefined {
  const raw = /<title(?:\s[^>]*)?>([^<]*)<\/title>/i.exec(html)?.[1];
  return raw === undefined ? undefined : decodeHTML(raw).replace(/\s+/g, ' ').trim();
}

/** The page's title when it is longer than MAX_TITLE_LENGTH; undefined when it fits. */
export function longTitle(page: string, html: string): LongTitle | undefined {
  const title = pageTitle(html);
  if (title === undefined) return undefined;
  const length = [...title].length;
  return length > MAX_TITLE_LENGTH ? { page, length, title } : undefined;
}

/** One line for `output.warn`, in the form of the build's warnings: place, message, hint. */
export function longTitleWarning({ page, length, title }: LongTitle): string {
  return (
    `warning: on ${page} › <title>  The title is ${length} characters, over ${MAX_TITLE_LENGTH}: "${title}". ` +
    "Search results cut it: shorten the `title:` field of the page's content file, " +
    'or a WordPress post\'s title (the <title> is that title, " | " and brandName).'
  );
}

import type { Problem } from './storefront-error.js';

/**
 * The catalogue of problems: every code with its title and docs anchor, and every problem the
 * build reports with its code, message and hint, as Astro's `errors-data.ts` keeps them. A throw
 * site names a problem and gives its values and place:
 *
 *   problems.add(problem('postsFolderMissing', {}, { file: options.postsDir, field: '--posts' }));
 *
 * A code never changes meaning once published; a new one takes the next number. The table of
 * codes in docs/problem-codes.md is generated from `codeTitles` (`npm run compile`), and the test
 * command fails when the two differ.
 */

/** The codes by name, for the places that compare or choose a code. */
export const codes = {
  yamlSyntax: 'SF101',
  frontMatterSyntax: 'SF102',
  schema: 'SF103',
  unknownToken: 'SF104',
  typedPrice: 'SF105',
  unpricedUpsell: 'SF106',
  duplicateProductId: 'SF110',
  slugQuantityMismatch: 'SF111',
  badPrice: 'SF112',
  unknownSubCategory: 'SF113',
  badReview: 'SF114',
  duplicateSubCategoryId: 'SF115',
  supportTileMismatch: 'SF116',
  twoPopularPackages: 'SF117',
  popularWithoutSource: 'SF118',
  duplicateRoute: 'SF120',
  brokenInternalLink: 'SF121',
  badRedirect: 'SF122',
  duplicateSectionId: 'SF123',
  badPostSlug: 'SF124',
  unsafePath: 'SF125',
  emptyContactChannel: 'SF130',
  badSetting: 'SF140',
  missingFile: 'SF141',
  placeholder: 'SF142',
  outsideProject: 'SF143',
  renderFailed: 'SF150',
  outputFailed: 'SF160',
  overHostLimit: 'SF161',
  badFlag: 'SF170',
  cmsFetchFailed: 'SF201',
  cmsBadResponse: 'SF202',
  cmsNoCache: 'SF203',
  cmsBadPost: 'SF204',
  duplicatePostSlug: 'SF205',
  badImage: 'SF206',
  brokenLink: 'SF301',
  badCanonical: 'SF302',
  badSitemapUrl: 'SF303',
  orphanPage: 'SF304',
  badRedirectTarget: 'SF305',
  checkoutNoProduct: 'SF401',
  checkoutNotForSale: 'SF402',
  checkoutPriceDiffers: 'SF403',
  checkoutElsewhere: 'SF404',
  internal: 'SF900',
  systemError: 'SF901',
} as const;

export type Code = (typeof codes)[keyof typeof codes];

/** Each code's title: what the problems of that code have in common, as the docs' table shows it. */
export const codeTitles: Record<Code, string> = {
  SF101: 'A YAML content file cannot be read, or is too large',
  SF102: "A Markdown file's front matter cannot be read, or the file is too large",
  SF103: 'A field is missing, unknown or of the wrong type',
  SF104: 'A {{token}} in the copy names no claim or setting',
  SF105: 'A price typed into the copy instead of taken from the catalogue',
  SF106: 'A paid tier or upgrade offered in the copy without a price in the catalogue',
  SF110: 'Two packages share a product id',
  SF111: "A package's slug and quantity disagree",
  SF112: 'A price that is not a positive amount of pounds and pence',
  SF113: 'A page names a sub-category the catalogue does not have',
  SF114: 'A review of a service the site does not show, or dated in the future',
  SF115: 'Two sub-categories share an id',
  SF116: 'A support tile names another size than the largest package of its grid',
  SF117: 'More than one package of a grid marked "Most popular"',
  SF118: 'A "Most popular" badge without its source, or counted over a period not yet ended',
  SF120: 'Two pages at one address',
  SF121: 'A link to a page the site does not have',
  SF122: 'A redirect that loops, shadows a page or leads nowhere',
  SF123: 'Two sections of a page share an id',
  SF124: 'A post slug that cannot be an address',
  SF125: 'A path outside the output folder, hidden, or over a file the build writes',
  SF130: 'A contact channel with nothing in it',
  SF140: 'A setting that is missing or wrong',
  SF141: 'A file or folder that is missing, or not a regular file',
  SF142: 'An example value in a build for a real site address',
  SF143: 'A link in the project that leads out of it',
  SF150: 'A page failed to render',
  SF160: 'The output folder could not be written',
  SF161: 'The site is over a limit its host publishes',
  SF170: 'A flag or argument the command does not take',
  SF201: 'The CMS could not be reached',
  SF202: 'The CMS answered something that is not its API',
  SF203: 'No cached posts to build from offline',
  SF204: 'A post from the CMS that cannot be published',
  SF205: 'Two posts share a slug',
  SF206: "A post's image that cannot be read, downloaded or made",
  SF301: 'check: a broken link',
  SF302: 'check: a wrong canonical URL',
  SF303: 'check: a sitemap URL that is not a page',
  SF304: 'check: a page nothing links to',
  SF305: 'check: a redirect to a page that is not there',
  SF401: 'A Buy Now whose product the checkout does not have',
  SF402: 'A checkout product that cannot be bought or is out of stock',
  SF403: 'A checkout product charging another price or currency',
  SF404: 'A checkout product at another address than its Buy Now',
  SF900: 'A bug: an error the code did not expect',
  SF901: 'The operating system refused',
};

/** Where a code is explained: its row of the generated table. */
export function docsAnchor(code: Code): string {
  return `docs/problem-codes.md#${code.toLowerCase()}`;
}

/** One problem of the catalogue: its code, and its message and hint made from its values. */
interface Entry<V> {
  code: Code;
  message: (values: V) => string;
  hint?: string | ((values: V) => string);
}

/** No values: the message and hint are the same wherever the problem is reported. */
type None = Record<string, never>;

const entry = <V = None>(e: Entry<V>): Entry<V> => e;

/**
 * The problems, by name. Grouped by the stage that reports them; each group keeps to its own
 * part of the file.
 */
export const catalogue = {
  // --- settings (config/, build.ts) ---------------------------------------------------------------

  // --- content (content/) ------------------------------------------------------------------------

  // --- files and folders (util/) ------------------------------------------------------------------

  // --- routes and links (routes/) ---------------------------------------------------------------

  // --- CMS and images (cms/, images/) -------------------------------------------------------------

  // --- output (output/) --------------------------------------------------------------------------

  // --- render (render/) ---------------------------------------------------------------------------

  // --- check and checkout (check/, checkout/) -----------------------------------------------------

  // --- dev (dev/) --------------------------------------------------------------------------------
  // dev/dev-command.ts
  buildCrashed: entry<{ message: string }>({
    code: 'SF900',
    message: ({ message }) => `The build stopped unexpectedly: ${message}`,
    hint: 'This may be a bug in the generator; the terminal has the details with --debug.',
  }),

  // --- the command line and preview (cli/, preview/) ----------------------------------------------
  systemRefused: entry<{ message: string; hint: string }>({
    code: 'SF901',
    message: ({ message }) => `The operating system refused: ${message}.`,
    hint: ({ hint }) => hint,
  }),
  unexpected: entry<{ described: string }>({
    code: 'SF900',
    message: ({ described }) => `An unexpected error stopped the command: ${described}`,
    hint: 'This is a bug in storefront. Run the command again with --debug to see the stack trace, and report it with that output.',
  }),
} satisfies Record<string, Entry<never>>;

export type ProblemName = keyof typeof catalogue;
type ValuesOf<N extends ProblemName> = (typeof catalogue)[N] extends Entry<infer V> ? V : never;

/** Where a problem is: the file, the field, the line, the URL... (everything but what the catalogue says). */
export type Place = Omit<Problem, 'code' | 'message' | 'hint'>;

/** A problem of the catalogue, with its values, at a place. */
export function problem<N extends ProblemName>(name: N, values: ValuesOf<N>, place: Place = {}): Problem {
  const { code, message, hint } = catalogue[name] as Entry<ValuesOf<N>>;
  const hinted = typeof hint === 'function' ? hint(values) : hint;
  return { code, ...place, message: message(values), ...(hinted !== undefined ? { hint: hinted } : {}) };
}

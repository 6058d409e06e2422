import { CATALOGUE_FILE, CONFIG_FILE, TRADER_FILE } from '../util/content-files.js';
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

/** Where each kind of contact channel's value is set, for the hint of an empty one. */
const CHANNEL_SETTING = { chat: 'MESSAGING_NUMBER', email: 'SUPPORT_EMAIL', phone: 'phone in content/trader.yaml' };

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
  factWithoutSale: 'SF119',
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
  outputNotOurs: 'SF171',
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
  SF118: 'A "Most popular" badge without its source, or over a period not yet ended',
  SF119: 'A platform sold without its rules line, or a promise for a service not sold',
  SF120: 'Two pages at one address',
  SF121: 'A link to a page, or a part of a page, the site does not have',
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
  SF171: 'A file in the output folder, or a record beside it, that no build wrote',
  SF201: 'The CMS could not be reached',
  SF202: 'The CMS answered something that is not its API',
  SF203: 'No cached posts to build from offline',
  SF204: 'A post from the CMS that cannot be published',
  SF205: 'Two posts share a slug',
  SF206: "An image (a post's, or in content/images/) that cannot be read, fetched or made",
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

/** An entry of the catalogue: its values are the type argument given, or none (never inferred). */
const entry = <V = None>(e: Entry<NoInfer<V>>): Entry<V> => e;

/**
 * Why a record beside the output folder proves nothing (output/output-record.ts): damaged (empty,
 * cut short, not a record), written by an earlier version (without a proof) or with another key,
 * not a plain file, over its limit, changing while read, or unreadable.
 */
export type RecordDistrust =
  | { kind: 'empty' | 'cutShort' | 'notRecord' | 'earlier' | 'wrongProof' | 'changing' }
  | { kind: 'notPlain'; what: string }
  | { kind: 'overLimit'; size: string; limit: string }
  | { kind: 'unreadable'; reason: string };
const recordDistrust = (why: RecordDistrust): string => {
  switch (why.kind) {
    case 'empty':
      return 'it is damaged: empty';
    case 'cutShort':
      return 'it is damaged: cut short (it does not end as a record does)';
    case 'notRecord':
      return 'it is damaged, or no record: it does not begin as a record a build writes';
    case 'earlier':
      return (
        'it was written by an earlier version of storefront (or by hand), ' +
        'without the proof builds now sign it with'
      );
    case 'wrongProof':
      return (
        "its proof (an HMAC of its contents with the project's key, .storefront/record-key) does not match: it " +
        'was changed or written by hand, or signed with another key'
      );
    case 'changing':
      return 'it changed while it was read';
    case 'notPlain':
      return `it is ${why.what}, not a plain file`;
    case 'overLimit':
      return `it is ${why.size}, more than the ${why.limit} a record may be (it was not read)`;
    case 'unreadable':
      return `it cannot be read (${why.reason})`;
  }
};

// A file over its kind's limit (util/read-bounded.ts), and YAML text over it (util/source-file.ts).
type OverLimit = { size: string; limit: string; kind: string };
type GrewPastLimit = { limit: string; kind: string };
type TextTooLarge = { kilobytes: number; megabytes: number };
const overLimit = ({ size, limit, kind }: OverLimit) =>
  `The file is ${size}, more than the ${limit} ${kind} may be: it was not read.`;
const grewPastLimit = ({ limit, kind }: GrewPastLimit) =>
  `The file grew past the ${limit} ${kind} may be while it was read: it was not used.`;
const textTooLarge = ({ kilobytes, megabytes }: TextTooLarge) =>
  `The file is ${kilobytes} KB, more than the ${megabytes} MB a content file may be.`;
const TOO_LARGE_HINT = 'Split it, or keep large data (images, exports) out of content files.';
const IMAGE_TOO_LARGE_HINT =
  "Make it smaller (a photo for the web is rarely over 1 MB): 25 MB is Cloudflare Pages' limit for one file.";

/**
 * YAML that cannot be read (util/source-file.ts): `reason` is the yaml library's message without
 * its position and full stop, `yamlCode` its code for the error (BLOCK_AS_IMPLICIT_KEY...), and
 * `alias` whether an alias was refused (a "billion laughs").
 */
type YamlUnreadable = { reason: string; yamlCode?: string; alias?: boolean };
const yamlUnreadable = ({ reason }: YamlUnreadable) => `The YAML cannot be read: ${reason}.`;
/** What to do about a syntax error, by the yaml library's code; any other: the default. */
const YAML_SYNTAX_HINTS: Record<string, string> = {
  BLOCK_AS_IMPLICIT_KEY:
    'Put text that contains ": " in double quotes (q: "Refills: how do they work?"); ' +
    'if the next line is a field of its own, indent it like the others.',
  MULTILINE_IMPLICIT_KEY:
    'Each line of a mapping is key: value: add the missing ": " after the key, ' +
    'or indent the line like the others (spaces, never tabs).',
  TAB_AS_INDENT: 'Indent with spaces: YAML does not allow tabs.',
  DUPLICATE_KEY: 'A field may appear once: remove one of the two, or rename it.',
  BAD_DQ_ESCAPE: 'Inside double quotes write a backslash as \\\\, or put the text in single quotes.',
  BAD_SCALAR_START: 'Put the text in double quotes: it starts with a character YAML keeps for itself (@, `, %).',
  MULTIPLE_DOCS: 'A content file is one document: remove the line "---" and what belongs to another file.',
};
const yamlSyntaxHint = ({ yamlCode, alias }: YamlUnreadable) =>
  alias
    ? 'Write the values out instead of repeating them with anchors (&name) and aliases (*name).'
    : (YAML_SYNTAX_HINTS[yamlCode ?? ''] ??
      'Check the indentation (spaces, never tabs) and the quoting on this line and the one above; ' +
        'put text that contains ": " or starts with {{ in double quotes.');

// Wording several problems share.
const BLOCK_FORM =
  'a block is a line <!-- if newsletter -->, the Markdown it shows, and a line <!-- end if --> ' +
  '(docs/content-model.md, "Text pages").';
const TRADER_HINT = `Put the trader's own details in ${TRADER_FILE}; for a staging build, pass --allow-placeholders.`;
const useSubCategory = (ids: readonly (string | number)[]) =>
  `Use the id of a sub-category of ${CATALOGUE_FILE}: ${ids.join(', ')}.`;

/**
 * The problems, by name. Grouped by the stage that reports them; each group keeps to its own
 * part of the file.
 */
/** "Did you mean #a, #b? ", for a link to a part of a page: the ids of that page nearest the one named. */
const didYouMeanIds = (nearby: string[]) =>
  nearby.length ? `Did you mean ${nearby.map((id) => `#${id}`).join(', ')}? ` : '';

export const catalogue = {
  // --- settings (config/, build/) -----------------------------------------------------------------
  // config/load-config.ts
  badSetting: entry<{ setting: string; reason: string; variable: string }>({
    code: 'SF140',
    message: ({ setting, reason }) => `The setting ${setting} ${reason}.`,
    hint: ({ variable }) => `Fix it in ${CONFIG_FILE} or set ${variable} to a valid value.`,
  }),
  unknownSetting: entry<{ setting: string; reason: string; known: readonly string[] }>({
    code: 'SF140',
    message: ({ setting, reason }) => `The setting ${setting} ${reason}.`,
    hint: ({ known }) => `Known settings: ${known.join(', ')}.`,
  }),
  settingsRefused: entry({
    code: 'SF140',
    message: () => 'Invalid settings.',
  }),

  // build/config.ts
  basePathOnRootHost: entry<{ basePath: string; host: string }>({
    code: 'SF140',
    message: ({ basePath, host }) =>
      `The site is built for ${basePath}/, but ${host} serves a site at the root of its domain.`,
    hint: 'Leave basePath (BASE_PATH, --base) empty for this host, or build for github-pages, nginx or static.',
  }),
  exampleAddressOnBuildService: entry<{ service: string; variable: string; siteUrl: string; settings: string }>({
    code: 'SF142',
    message: ({ service, variable, siteUrl }) =>
      `This build runs on ${service} (${variable} is set) for ${siteUrl}, an example address: ` +
      'every canonical URL, the sitemap and the share links would name it.',
    hint: ({ settings }) =>
      `Set SITE_URL to the site's address in ${settings} (or siteUrl in ${CONFIG_FILE}); ` +
      'for a staging build, pass --allow-placeholders.',
  }),
  // build/content.ts
  postsFolderMissing: entry({
    code: 'SF141',
    message: () => 'The posts folder given with --posts does not exist (or is not a folder).',
    hint: 'Check the path; it is relative to the project folder (--root).',
  }),

  // --- content (content/) ------------------------------------------------------------------------
  // content/check-content.ts
  subCategoryUnknown: entry<{
    subCategory: number;
    withoutPage: readonly number[];
    subCategories: readonly number[];
  }>({
    code: 'SF113',
    message: ({ subCategory }) => `Sub-category ${subCategory} is not in the catalogue.`,
    hint: ({ withoutPage, subCategories }) =>
      withoutPage.length
        ? `Use the id of a sub-category of ${CATALOGUE_FILE}; these have no service page yet: ` +
          `${withoutPage.join(', ')}.`
        : useSubCategory(subCategories),
  }),
  subCategoryWithoutPackages: entry<{ subCategory: number; service: string }>({
    code: 'SF113',
    message: ({ subCategory, service }) => `Sub-category ${subCategory} (${service}) has no packages to show.`,
    hint: `Add packages to it in ${CATALOGUE_FILE}.`,
  }),
  crossSellWithoutPackages: entry<{ id: number; subCategories: readonly number[] }>({
    code: 'SF113',
    message: ({ id }) => `Cross-sell ${id} has no packages, so it has no "starting from" price.`,
    hint: ({ subCategories }) => useSubCategory(subCategories),
  }),
  crossSellUnknown: entry<{ id: number; subCategories: readonly number[] }>({
    code: 'SF113',
    message: ({ id }) => `Cross-sell ${id} is not a sub-category of the catalogue.`,
    hint: ({ subCategories }) => useSubCategory(subCategories),
  }),
  crossSellWithoutPage: entry<{ id: number; service: string }>({
    code: 'SF113',
    message: ({ id, service }) => `Cross-sell ${id} (${service}) has no service page to link to.`,
    hint: ({ id }) => `Remove ${id} from crossSells, or give sub-category ${id} a page in content/services/.`,
  }),
  supportTileOtherSize: entry<{ named: string; largest: string; subCategory: number }>({
    code: 'SF116',
    message: ({ named, largest }) =>
      `The support tile speaks of ${named}, but the largest package in the grid is ${largest}.`,
    hint: ({ largest, subCategory }) =>
      `Write ${largest} (the largest package of sub-category ${subCategory} in ${CATALOGUE_FILE}).`,
  }),
  pickerSubCategoryUnknown: entry<{ subCategory: number; subCategories: readonly number[] }>({
    code: 'SF113',
    message: ({ subCategory }) => `Sub-category ${subCategory} is not in the catalogue or has no packages.`,
    hint: ({ subCategories }) => useSubCategory(subCategories),
  }),
  reviewWithoutPage: entry<{ subCategory: number }>({
    code: 'SF114',
    message: ({ subCategory }) => `Sub-category ${subCategory} has no service page to show this review on.`,
    hint:
      'Correct its subCategory to the service the customer reviewed (one with a page in content/services/), ' +
      'or remove the review.',
  }),
  reviewInFuture: entry({
    code: 'SF114',
    message: () => 'The review is dated in the future.',
    hint: 'Correct its date to the day the customer wrote it.',
  }),
  // A warning: the channel is left out and the build goes on.
  contactChannelEmpty: entry<{ channel: string; icon: string }>({
    code: 'SF130',
    message: ({ channel }) => `The ${channel} channel has no contact value and is left out.`,
    hint: ({ icon }) => `Set ${CHANNEL_SETTING[icon as keyof typeof CHANNEL_SETTING]} to show it.`,
  }),
  platformRulesMissing: entry<{ platform: string; slug: string }>({
    code: 'SF119',
    message: ({ platform }) =>
      `${platform} has packages but no line on its rules, which every grid of its packages must show.`,
    hint: ({ slug, platform }) =>
      `Add beforeYouBuy.platformRules.${slug} in content/site.yaml: what ${platform}'s rules say of ` +
      'bought engagement and the worst that may happen to the account.',
  }),
  platformRulesUnknown: entry<{ slug: string; sold: readonly string[] }>({
    code: 'SF119',
    message: ({ slug }) => `No platform of the catalogue has the slug "${slug}".`,
    hint: ({ sold }) => `Name a platform by its catalogue slug: ${sold.join(', ')}.`,
  }),
  guaranteeForUnknownService: entry<{ service: string; services: readonly string[] }>({
    code: 'SF119',
    message: ({ service }) => `No sub-category of the catalogue sells "${service}".`,
    hint: ({ services }) => `Name kinds of service as the catalogue's service: fields do: ${services.join(', ')}.`,
  }),
  subCategoryIdTaken: entry<{ id: number; usedBy: string }>({
    code: 'SF115',
    message: ({ id, usedBy }) => `Sub-category id ${id} is already used by ${usedBy}.`,
    hint: 'Every sub-category needs its own id.',
  }),
  secondPopularPackage: entry<{ service: string; popular: string; also: string }>({
    code: 'SF117',
    message: ({ service, popular, also }) =>
      `${service} already has a most popular package (${popular}); ${also} is marked popular too.`,
    hint: 'Keep popular: on one package of each sub-category, the one most ordered in the period its source counts.',
  }),
  popularWithoutSource: entry<{ quantity: string; service: string }>({
    code: 'SF118',
    message: ({ quantity, service }) =>
      `The ${quantity} package of ${service} is marked "Most popular" without the source of the claim: ` +
      'the period and the orders counted.',
    hint: ({ service }) =>
      "Write the period and the orders counted, from the shop's order records: popular: { from: 2026-08-01, " +
      `to: 2026-10-31, orders: 412, ofOrders: 1030 } (this package's orders out of all ${service} orders); ` +
      'or remove popular.',
  }),
  popularSourceIncomplete: entry<{ quantity: string; service: string; missing: readonly string[] }>({
    code: 'SF118',
    message: ({ quantity, service, missing }) =>
      `The ${quantity} package of ${service} is marked "Most popular" without all of its source: ` +
      `${missing.length < 2 ? missing.join('') : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`} ` +
      `${missing.length === 1 ? 'is' : 'are'} missing.`,
    hint: ({ service }) =>
      "Write the period and the orders counted, from the shop's order records: popular: { from: 2026-08-01, " +
      `to: 2026-10-31, orders: 412, ofOrders: 1030 } (this package's orders out of all ${service} orders); ` +
      'or remove popular.',
  }),
  popularCountedToFuture: entry<{ quantity: string; service: string; to: Date }>({
    code: 'SF118',
    message: ({ quantity, service, to }) =>
      `The ${quantity} package of ${service} is marked "Most popular" from orders counted to ` +
      `${to.toISOString().slice(0, 10)}, a day after this build: those orders are not all placed yet.`,
    hint: 'Count a period that has ended, and write its last day as to.',
  }),
  productIdTaken: entry<{ id: number; usedBy: string }>({
    code: 'SF110',
    message: ({ id, usedBy }) => `Product id ${id} is already used by ${usedBy}.`,
    hint: 'Give this package an id no other package has.',
  }),
  slugWithoutQuantity: entry<{ slug: string }>({
    code: 'SF111',
    message: ({ slug }) => `The checkout slug "${slug}" does not start with a quantity.`,
    hint: 'Start the slug with the quantity: 1000-ig-likes for 1,000; 10k and 25k for 10,000 and 25,000.',
  }),
  slugNamesOtherQuantity: entry<{ slug: string; named: string; quantity: string }>({
    code: 'SF111',
    message: ({ slug, named, quantity }) =>
      `The checkout slug "${slug}" names ${named}, but the package is ${quantity}.`,
    hint: 'Start the slug with the quantity: 1000-ig-likes for 1,000; 10k and 25k for 10,000 and 25,000.',
  }),
  priceNotPounds: entry<{ price: number; ceiling: number }>({
    code: 'SF112',
    message: ({ price, ceiling }) =>
      `The price ${price} is not a positive amount of pounds with at most two decimals, ` +
      `below £${ceiling.toLocaleString('en-GB')}.`,
    hint: 'Write prices as pounds, e.g. 4.99 or 10.',
  }),
  sectionIdReserved: entry<{ id: string; taken: string; reserved: readonly string[] }>({
    code: 'SF123',
    message: ({ id, taken }) =>
      taken === id
        ? `The section id "${id}" is already used by the page layout.`
        : `The section id "${id}" gives its heading the id "${taken}", already used by the page layout.`,
    hint: ({ reserved }) => `Choose another id; these are taken: ${reserved.join(', ')}, pick-*.`,
  }),
  sectionIdTwice: entry<{ id: string }>({
    code: 'SF123',
    message: ({ id }) => `The section id "${id}" is used twice on this page.`,
    hint: 'Section ids become anchors (#id) and must be unique on a page.',
  }),

  // content/content-image.ts: a file of content/images/ that cannot be published at /images/.
  imageTypeNotPublished: entry<{ name: string; types: string; extension: string; kind: string | undefined }>({
    code: 'SF206',
    message: ({ name, types, extension }) =>
      `This file cannot be published at /images/${name}: content/images/ publishes only images (${types}), ` +
      `and a host serves a file named ${extension ? `.${extension}` : 'without an extension'} as something else.`,
    hint: ({ kind }) =>
      kind
        ? `Its bytes are a ${kind} image: name it with that type's extension.`
        : 'Keep documents and pages out of content/images/; put an image there as a file of one of these types.',
  }),
  imageNameOtherType: entry<{ name: string; named: string; kind: string | undefined }>({
    code: 'SF206',
    message: ({ name, named, kind }) =>
      `This file cannot be published at /images/${name}: its name says ${named} ` +
      `but its bytes are ${kind ? `a ${kind} image` : 'not an image'}.`,
    hint: ({ named, kind }) => (kind ? `Rename it with the ${kind} extension.` : `Export it again as a ${named} file.`),
  }),
  svgTooLarge: entry<{ name: string; size: number; limit: number }>({
    code: 'SF206',
    message: ({ name, size, limit }) =>
      `This file cannot be published at /images/${name}: it is ${size.toLocaleString('en-GB')} bytes; ` +
      `an SVG may be at most ${limit.toLocaleString('en-GB')}.`,
    hint: 'Export the picture as a PNG, JPEG or WebP instead.',
  }),
  // The file grew past the limit between the check of its size and its reading.
  svgGrewTooLarge: entry<{ name: string; limit: number }>({
    code: 'SF206',
    message: ({ name, limit }) =>
      `This file cannot be published at /images/${name}: it is more than ${limit.toLocaleString('en-GB')} bytes, ` +
      'the most an SVG may be.',
    hint: 'Export the picture as a PNG, JPEG or WebP instead.',
  }),
  svgNotOnlyPicture: entry<{ name: string; reasons: readonly string[] }>({
    code: 'SF206',
    message: ({ name, reasons }) =>
      `This file cannot be published at /images/${name}: this SVG is not only a picture: ${reasons.join('; ')}.`,
    hint:
      "Opened at its own address an SVG acts with the site's origin. Export it again as a plain drawing " +
      '(no scripts, event handlers, links, animations, HTML or files from elsewhere), or as a PNG.',
  }),
  // Nested too deep, or references that multiply (a <use> of a group of <use>s…): no browser finishes drawing it.
  svgTooComplex: entry<{ name: string; reason: string }>({
    code: 'SF206',
    message: ({ name, reason }) =>
      `This file cannot be published at /images/${name}: ${reason}, more than a browser can draw in reasonable time.`,
    hint:
      'Export it again flattened (groups and symbols expanded, nothing reused inside what it reuses), ' +
      'or as a PNG or WebP.',
  }),

  // content/load-posts.ts: a post's image that cannot be shown.
  postImageNotInContent: entry<{ src: string }>({
    code: 'SF141',
    message: ({ src }) => `The image ${src} is not a file in content/images/.`,
    hint:
      'Put the image in content/images/ and write its path as /images/name.svg, ' +
      `or add its host to imageHosts in ${CONFIG_FILE} (IMAGE_HOSTS).`,
  }),
  postImageHostRefused: entry<{ origin: string }>({
    code: 'SF141',
    message: ({ origin }) =>
      `The image comes from ${origin}, not a host the build takes images from (the site, the CMS, imageHosts).`,
    hint:
      'Put the image in content/images/ and write its path as /images/name.svg, ' +
      `or add its host to imageHosts in ${CONFIG_FILE} (IMAGE_HOSTS).`,
  }),

  // content/local-image.ts
  imageFolderLink: entry<{ target: string }>({
    code: 'SF143',
    message: ({ target }) =>
      `This is a symbolic link to the folder ${target}: ` +
      'the build does not follow links to folders in content/images/.',
    hint: 'Move or copy the folder into content/images/ (a link to each file inside the project is followed).',
  }),

  // content/markdown.ts: the <!-- if name --> blocks of a text page's body.
  blockNested: entry<{ name: string; opened: number }>({
    code: 'SF103',
    message: ({ name, opened }) =>
      `"<!-- if ${name} -->" opens a block inside the block opened on line ${opened}; blocks do not nest.`,
    hint: `Close the first block with <!-- end if --> before this line; ${BLOCK_FORM}`,
  }),
  blockConditionUnknown: entry<{ name: string; known: readonly string[]; guess: string | undefined }>({
    code: 'SF103',
    message: ({ name, known, guess }) =>
      `"<!-- if ${name} -->" names no condition; the known ones are: ${[...known].sort().join(', ')}.` +
      `${guess ? ` Did you mean ${guess}?` : ''}`,
    hint: ({ guess }) =>
      guess ? `Write <!-- if ${guess} -->.` : `Write one of the known conditions, or remove the block; ${BLOCK_FORM}`,
  }),
  blockEndUnopened: entry({
    code: 'SF103',
    message: () => '"<!-- end if -->" closes no block.',
    hint: `Remove this line, or add <!-- if name --> where the block starts; ${BLOCK_FORM}`,
  }),
  blockMarkerMalformed: entry<{ written: string }>({
    code: 'SF103',
    message: ({ written }) =>
      `"${written}" is not a marker: write "<!-- if name -->" or "<!-- end if -->" alone on its line.`,
    hint: `Rewrite the line; ${BLOCK_FORM}`,
  }),
  blockNeverClosed: entry<{ name: string }>({
    code: 'SF103',
    message: ({ name }) => `"<!-- if ${name} -->" is never closed by "<!-- end if -->".`,
    hint: `Add a line <!-- end if --> where the block ends; ${BLOCK_FORM}`,
  }),

  // content/parse-post.ts
  postSlugNotAddress: entry<{ slug: string; reason: string }>({
    code: 'SF124',
    message: ({ slug, reason }) => `The slug "${slug}" cannot be a page address: ${reason}.`,
    hint: 'Use lowercase words joined by hyphens, e.g. how-to-grow-on-tiktok.',
  }),
  // Also for a text page's body (read-site-files.ts). What, why and the hint are markdown.ts's
  // ShownDisguise, said by the prose rule (util/plain-text.ts).
  bodyDisguise: entry<{ what: string; why: string; hint: string }>({
    code: 'SF103',
    message: ({ what, why }) => `The body ${what}, ${why}.`,
    hint: ({ hint }) => hint,
  }),

  // content/parse-with-schema.ts: a zod issue, said for the one who wrote the file. `reference`
  // says where the file's fields are described.
  fieldUnknown: entry<{
    key: string;
    guess: string | undefined;
    known: readonly string[];
    parent: string | undefined;
    reference: string;
  }>({
    code: 'SF103',
    message: ({ key, guess }) => `Unknown field ${key}.${guess ? ` Did you mean ${guess}?` : ''}`,
    hint: ({ key, guess, known, parent, reference }) =>
      guess
        ? `Rename ${key} to ${guess}.`
        : known.length
          ? `Remove ${key}, or rename it to one of the fields ${parent ? `of ${parent}` : 'of this file'}: ` +
            `${known.join(', ')}.`
          : `Remove ${key}. ${reference}`,
  }),
  fieldMissing: entry<{
    expected: string;
    field: string;
    kind: string;
    parent: string | undefined;
    reference: string;
  }>({
    code: 'SF103',
    message: ({ expected }) => `A required field is missing (expected ${expected}).`,
    hint: ({ field, kind, parent, reference }) =>
      `Add the field ${field} (${kind}) ${parent ? `under ${parent}` : 'to the file, at the top level'}. ${reference}`,
  }),
  discriminatorMissing: entry<{ discriminator: string; options: readonly string[] }>({
    code: 'SF103',
    message: ({ discriminator }) => `The field ${discriminator} is missing.`,
    hint: ({ discriminator, options }) => `Write ${discriminator}: with one of ${options.join(', ')}.`,
  }),
  discriminatorUnknown: entry<{
    discriminator: string;
    value: string;
    guess: string | undefined;
    options: readonly string[];
  }>({
    code: 'SF103',
    message: ({ discriminator, value, guess }) =>
      `Unknown ${discriminator} ${value}.${guess ? ` Did you mean ${guess}?` : ''}`,
    hint: ({ discriminator, guess, options }) =>
      guess
        ? `Write ${discriminator}: ${guess}; the ${discriminator}s are ${options.join(', ')}.`
        : `Write ${discriminator}: with one of ${options.join(', ')}.`,
  }),
  valueUnknown: entry<{
    value: string;
    key: string | undefined;
    guess: string | undefined;
    values: readonly string[];
  }>({
    code: 'SF103',
    message: ({ value, key, guess }) =>
      `Unknown value ${value}${key ? ` for ${key}` : ''}.${guess ? ` Did you mean ${guess}?` : ''}`,
    hint: ({ guess, values }) =>
      guess
        ? `Write ${guess}${values.length > 1 ? `; the values allowed are ${values.join(', ')}` : ''}.`
        : `Write one of: ${values.join(', ')}.`,
  }),
  // `price: £3`, `price: "4.99"`, `3 GBP`: a number written as text.
  numberAsText: entry<{ key: string | undefined; value: string; number: string }>({
    code: 'SF103',
    message: ({ key, value }) => `Expected a number${key ? ` for ${key}` : ''}, found the text "${value}".`,
    hint: ({ key, number }) => `Write ${key ?? 'it'}: ${number}, the number alone (no currency sign, unit or quotes).`,
  }),
  // `said` is zod's message; `kind` how the expected kind of value is named (parse-with-schema.ts).
  typeWrong: entry<{ said: string; kind: string; reference: string }>({
    code: 'SF103',
    message: ({ said }) => `${said.replace(/^Invalid input: /, 'Invalid value: ')}.`,
    hint: ({ kind, reference }) => `Write ${kind} here. ${reference}`,
  }),
  // Any other issue, said by zod or by a refinement of the schemas (schemas.ts), which may carry
  // its own hint (plain-text.ts: what to do about an invisible character). The refinements that
  // state only a message get a hint by that message; any other issue `Correct <field>` and the
  // reference.
  fieldInvalid: entry<{
    said: string;
    key: string | undefined;
    field: string;
    own: string | undefined;
    reference: string;
  }>({
    code: 'SF103',
    message: ({ said, key }) => {
      const message = said.replace(/^Invalid input: /, 'Invalid value: ');
      // "must be a real date…" names the field it speaks of: "updated must be a real date…".
      return `${/^[a-z]/.test(message) && key && !message.startsWith(`${key} `) ? `${key} ${message}` : message}.`;
    },
    hint: ({ said, field, own, reference }) =>
      own ??
      (/real date/.test(said)
        ? 'Write a day that exists as YYYY-MM-DD (2026-03-14), or with a time and zone (2026-03-14T09:00:00Z).'
        : /published must not be after updated/.test(said)
          ? 'Correct one of the two dates: published is the day the page first appeared, ' +
            'updated the day its text last changed.'
          : /either reviews/.test(said)
            ? "Keep one of the two, reviews: (what your customers wrote) or platform: (a review site's rating), " +
              'and delete the other.'
            : `Correct ${field}; ${reference.replace(/^See /, 'see ')}`),
  }),

  // content/placeholders.ts: an example value in a build for a real site address. `variable` is
  // the environment variable of the setting.
  placeholderBrand: entry<{ brand: string; siteUrl: string; variable: string }>({
    code: 'SF142',
    message: ({ brand, siteUrl }) =>
      `The brand is still the default, "${brand}". This build is for ${siteUrl}, a real address.`,
    hint: ({ variable }) =>
      `Set the real value in ${CONFIG_FILE} or in the environment variable ${variable}; ` +
      'for a staging build, pass --allow-placeholders.',
  }),
  placeholderAddress: entry<{ address: string; siteUrl: string; variable: string }>({
    code: 'SF142',
    message: ({ address, siteUrl }) =>
      `${address} is an example address. This build is for ${siteUrl}, a real address.`,
    hint: ({ variable }) =>
      `Set the real value in ${CONFIG_FILE} or in the environment variable ${variable}; ` +
      'for a staging build, pass --allow-placeholders.',
  }),
  newsletterUnencrypted: entry<{ url: string; siteUrl: string; variable: string }>({
    code: 'SF140',
    message: ({ url, siteUrl }) =>
      `The newsletter form would send visitors' e-mail addresses unencrypted to ${url}. ` +
      `This build is for ${siteUrl}, a real address.`,
    hint: ({ variable }) =>
      `Use the provider's https:// address in ${CONFIG_FILE} or in the environment variable ${variable}.`,
  }),
  placeholderDramaNumber: entry<{ number: string; siteUrl: string; variable: string }>({
    code: 'SF142',
    message: ({ number, siteUrl }) =>
      `${number} is one of Ofcom's drama numbers. This build is for ${siteUrl}, a real address.`,
    hint: ({ variable }) =>
      `Set the real value in ${CONFIG_FILE} or in the environment variable ${variable}; ` +
      'for a staging build, pass --allow-placeholders.',
  }),
  traderExampleValue: entry<{ value: string; siteUrl: string }>({
    code: 'SF142',
    message: ({ value, siteUrl }) =>
      `"${value}" is an example value. This build is for ${siteUrl}, a real address, ` +
      'whose visitors must know who they are buying from.',
    hint: TRADER_HINT,
  }),
  traderExamplePostcode: entry<{ postcode: string; siteUrl: string }>({
    code: 'SF142',
    message: ({ postcode, siteUrl }) =>
      `${postcode} is the example postcode. This build is for ${siteUrl}, a real address, ` +
      'whose visitors must know who they are buying from.',
    hint: TRADER_HINT,
  }),
  traderExampleVatNumber: entry<{ vatNumber: string; siteUrl: string }>({
    code: 'SF142',
    message: ({ vatNumber, siteUrl }) =>
      `${vatNumber} is the example VAT number. This build is for ${siteUrl}, a real address, ` +
      'whose visitors must know who they are buying from.',
    hint: TRADER_HINT,
  }),
  traderCompanyNumberZeros: entry<{ number: string; siteUrl: string }>({
    code: 'SF142',
    message: ({ number, siteUrl }) =>
      `${number} is not a company number. This build is for ${siteUrl}, a real address, ` +
      'whose visitors must know who they are buying from.',
    hint: TRADER_HINT,
  }),
  traderDramaNumber: entry<{ phone: string; siteUrl: string }>({
    code: 'SF142',
    message: ({ phone, siteUrl }) =>
      `${phone} is one of Ofcom's drama numbers. This build is for ${siteUrl}, a real address, ` +
      'whose visitors must know who they are buying from.',
    hint: TRADER_HINT,
  }),

  // content/read-site-files.ts (and bodyDisguise, above)
  contentFileMissing: entry<{ file: string }>({
    code: 'SF141',
    message: () => 'This required content file does not exist.',
    // The one file: `git checkout -- content/` would also undo every other change to the content.
    hint: ({ file }) =>
      `Restore it from the repository (git checkout -- ${file}), or write it as docs/content-model.md describes.`,
  }),

  // content/tokens.ts: what copy may not say (its COPY_RULES), and {{tokens}}.
  priceTypedInCopy: entry<{ found: string }>({
    code: 'SF105',
    message: ({ found }) => `A price is typed into the copy ("${found}…"); it would not follow the catalogue.`,
    hint:
      `Prices live only in ${CATALOGUE_FILE} and are shown by the package grid; ` +
      'write "see the packages above" instead.',
  }),
  upgradeWithoutPrice: entry<{ found: string }>({
    code: 'SF106',
    message: ({ found }) => `A paid upgrade is offered without its price ("${found}").`,
    hint: `Every price the customer can pay is shown from ${CATALOGUE_FILE}; offer only what the package grid lists.`,
  }),
  bracesNotToken: entry<{ excerpt: string }>({
    code: 'SF104',
    message: ({ excerpt }) =>
      `The text holds braces that are no token ("${excerpt}"); they would be published as they are.`,
    hint: 'Write a token as {{name}} with a known name, or leave the braces out.',
  }),
  // `where` is where the fact is written (tokens.ts, FactSource).
  tokenFactHoldsBraces: entry<{ token: string; fact: string; holdsToken: boolean; name: string; where: string }>({
    code: 'SF104',
    message: ({ token, fact, holdsToken }) =>
      `The token ${token} stands for "${fact}", which holds ${holdsToken ? 'a token itself' : 'braces'}: ` +
      'its braces would be published on every page that uses it.',
    hint: ({ name, where }) => `Write ${name} out in full in ${where}, without {{…}}.`,
  }),
  tokenUnknown: entry<{ token: string; name: string; guess: string | undefined; facts: readonly string[] }>({
    code: 'SF104',
    message: ({ token, guess }) =>
      `The token ${token} names no claim or setting.${guess ? ` Did you mean {{${guess}}}?` : ''}`,
    hint: ({ name, guess, facts }) =>
      guess
        ? `Write {{${guess}}}.`
        : `Use one of: ${[...facts].sort().join(', ')}; or add the claim ${name} to content/site.yaml (claims).`,
  }),

  // --- files and folders (util/) ------------------------------------------------------------------
  // util/inside-project.ts
  linkToHiddenFile: entry<{ target: string }>({
    code: 'SF143',
    message: ({ target }) =>
      `This leads through a symbolic link to ${target}, a hidden file or folder of the project: ` +
      'the build reads no hidden file (.env, .git, .cache).',
    hint: 'Link to a file that is not hidden, copy it into content/, or remove the link.',
  }),
  linkOutOfProject: entry<{ target: string; folder: string | undefined; missing: boolean }>({
    code: 'SF143',
    message: ({ target, folder, missing }) =>
      `This is a symbolic link to ${target}, outside the ` +
      `${folder === undefined ? 'project folder' : `folder ${folder}`}: the build reads nothing from outside it` +
      `${missing ? '' : ', so nothing there is published'}.`,
    hint: 'Copy the file (or folder) into the project instead of linking to it, or remove the link.',
  }),
  linkToNothing: entry<{ target: string }>({
    code: 'SF141',
    message: ({ target }) => `This is a symbolic link to ${target}, which does not exist.`,
    hint: 'Point the link at an existing file of the project, or remove it.',
  }),
  ownFolderIsLink: entry<{ link: string; target: string; missing: boolean }>({
    code: 'SF143',
    message: ({ target, missing }) =>
      `This is a symbolic link to ${target}${missing ? ' (which does not exist)' : ''}, ` +
      'where the storefront keeps a folder of its own files. The storefront writes and prunes its own files only ' +
      'in folders it made, never through a link: it stopped before writing or deleting anything there.',
    hint: ({ link }) => `Remove the link (rm ${link}; what it points to stays); the build makes what it needs again.`,
  }),
  linkInOwnFolder: entry<{ link: string; target: string; missing: boolean; folder: string }>({
    code: 'SF143',
    message: ({ target, missing, folder }) =>
      `This is a symbolic link to ${target}${missing ? ' (which does not exist)' : ''}, ` +
      `in ${folder}/, where the storefront keeps only files it made. The storefront writes and prunes its own ` +
      'files only in folders it made, never through a link: it stopped before writing or deleting anything there.',
    hint: ({ link }) => `Remove the link (rm ${link}; what it points to stays); the build makes what it needs again.`,
  }),
  fileInPlaceOfOwnFolder: entry({
    code: 'SF143',
    message: () => 'This is a file where the storefront keeps a folder of its own files.',
    hint: 'Move the file elsewhere or remove it: the build makes the folder.',
  }),
  // util/project-folder.ts
  noContentFolder: entry<{ folder: string }>({
    code: 'SF141',
    message: ({ folder }) =>
      `No content/ here (looked in ${folder}): run it in the project folder, or pass --root DIR.`,
    hint:
      'The project folder is the one holding content/ (site.yaml, catalogue.yaml…): ' +
      'cd into it, or pass it with --root.',
  }),
  /** `fromHere`: the command was run in the folder (no --root), so the way out is to cd. */
  noContentFolderInsideProject: entry<{ folder: string; project: string; relative: string; fromHere: boolean }>({
    code: 'SF141',
    message: ({ folder }) =>
      `No content/ here (looked in ${folder}): run it in the project folder, or pass --root DIR.`,
    hint: ({ project, relative, fromHere }) =>
      `This folder is inside the project folder ${project}: ` +
      `${fromHere ? `run \`cd ${relative}\` first, or pass \`--root ${relative}\`` : `pass \`--root ${relative}\``}.`,
  }),
  // util/read-bounded.ts (a file over its kind's limit has its kind's code and hint: see FileKind there)
  notARegularFile: entry<{ what: string; link: boolean }>({
    code: 'SF141',
    message: ({ what, link }) =>
      `This is ${link ? `a symbolic link to ${what}` : what}, not a file: ` +
      'the build reads regular files only, and nothing was read from it.',
    hint: ({ what }) =>
      what === 'a folder'
        ? 'Replace it with the file itself, or rename the folder so that it does not end like a file of this kind.'
        : 'Replace it with the file itself.',
  }),
  yamlFileOverLimit: entry<OverLimit>({ code: 'SF101', message: overLimit, hint: TOO_LARGE_HINT }),
  yamlFileGrewPastLimit: entry<GrewPastLimit>({ code: 'SF101', message: grewPastLimit, hint: TOO_LARGE_HINT }),
  markdownFileOverLimit: entry<OverLimit>({ code: 'SF102', message: overLimit, hint: TOO_LARGE_HINT }),
  markdownFileGrewPastLimit: entry<GrewPastLimit>({ code: 'SF102', message: grewPastLimit, hint: TOO_LARGE_HINT }),
  imageFileOverLimit: entry<OverLimit>({ code: 'SF206', message: overLimit, hint: IMAGE_TOO_LARGE_HINT }),
  imageFileGrewPastLimit: entry<GrewPastLimit>({ code: 'SF206', message: grewPastLimit, hint: IMAGE_TOO_LARGE_HINT }),
  // util/source-file.ts: YAML text read from a YAML file (SF101) or from a Markdown file's front matter (SF102).
  yamlTextTooLarge: entry<TextTooLarge>({ code: 'SF101', message: textTooLarge, hint: TOO_LARGE_HINT }),
  markdownTextTooLarge: entry<TextTooLarge>({ code: 'SF102', message: textTooLarge, hint: TOO_LARGE_HINT }),
  yamlNeverClosed: entry<{ open: string; close: string }>({
    code: 'SF101',
    message: ({ open, close }) => `The YAML cannot be read: this ${open} is never closed (no ${close} after it).`,
    hint: ({ open, close }) =>
      `Close it with ${close} where the ${open === '[' ? 'list' : open === '{' ? 'map' : 'text'} ends, or remove it.`,
  }),
  frontMatterNeverClosed: entry<{ open: string; close: string }>({
    code: 'SF102',
    message: ({ open, close }) => `The YAML cannot be read: this ${open} is never closed (no ${close} after it).`,
    hint: ({ open, close }) =>
      `Close it with ${close} where the ${open === '[' ? 'list' : open === '{' ? 'map' : 'text'} ends, or remove it.`,
  }),
  yamlUnreadable: entry<YamlUnreadable>({ code: 'SF101', message: yamlUnreadable, hint: yamlSyntaxHint }),
  frontMatterUnreadable: entry<YamlUnreadable>({ code: 'SF102', message: yamlUnreadable, hint: yamlSyntaxHint }),
  frontMatterNotYaml: entry<{ language: string }>({
    code: 'SF102',
    message: ({ language }) =>
      `The front matter cannot be read: the front matter is marked as "${language}"; only YAML is read.`,
    hint: 'Front matter is YAML between two lines of three dashes (---) at the top of the file.',
  }),

  // --- routes and links (routes/) ---------------------------------------------------------------
  // routes/check-links.ts
  linkWithForbiddenScheme: entry<{ href: string; scheme: string }>({
    code: 'SF121',
    message: ({ href, scheme }) =>
      `The link to ${href} uses the ${scheme} scheme, which a page of the shop never links to.`,
    hint: 'Links may be https://, http://, mailto:, tel: or a path of the site such as /contact.',
  }),
  relativeLink: entry<{ href: string }>({
    code: 'SF121',
    message: ({ href }) => `The link to ${href} is relative, so it would point somewhere different on each page.`,
    hint: 'Start internal links with a slash, e.g. /contact.',
  }),
  linkOutsideBasePath: entry<{ href: string; base: string }>({
    code: 'SF121',
    message: ({ href, base }) =>
      `The link to ${href} is on the site's address but outside its folder ${base}/, where no page of the site is.`,
    hint: 'Write links to the site as paths, e.g. /contact: the build puts the base path in front.',
  }),
  /** `closest`: the route spelt most like the link's path. */
  linkToMissingPage: entry<{ href: string; closest: string }>({
    code: 'SF121',
    message: ({ href }) => `The link to ${href} points to no page of the site.`,
    hint: ({ closest }) => `Link to an existing route, e.g. ${closest}, or add a redirect in content/redirects.yaml.`,
  }),
  linkToMissingFragment: entry<{
    href: string;
    on: string;
    others: number;
    page: string;
    fragment: string;
    nearby: string[];
  }>({
    code: 'SF121',
    message: ({ href, on, others, page, fragment }) =>
      `The link to ${href} on ${on}${others ? ` (and ${others} other page${others > 1 ? 's' : ''})` : ''} ` +
      `names #${fragment}, which ${page} does not have.`,
    hint: ({ nearby }) =>
      didYouMeanIds(nearby) +
      "Name an id the page has (a heading's is its text: ## Free refill is #free-refill), or drop the #part.",
  }),
  imageFromAnotherSite: entry<{ src: string }>({
    code: 'SF206',
    message: ({ src }) => `The image ${src} comes from another site; pages show images from content/images/ only.`,
    hint: 'Put the image in content/images/ and write /images/name.',
  }),
  // routes/route-table.ts
  pathsDifferByCase: entry<{ path: string; other: string }>({
    code: 'SF120',
    message: ({ path, other }) =>
      `The path ${path} differs from ${other} only by case: on a case-insensitive host they are one file.`,
    hint: 'Give one of them another address.',
  }),
  /** `other`: the source of the route that has the path already. */
  pathTaken: entry<{ path: string; other: string }>({
    code: 'SF120',
    message: ({ path, other }) => `The path ${path} is already the route of ${other}.`,
    hint: 'Two pages cannot share an address: change one of the paths (or slugs).',
  }),
  /** `reason`: why it cannot be a file of the output folder (unsafePathReason). */
  unsafePagePath: entry<{ path: string; reason: string }>({
    code: 'SF125',
    message: ({ path, reason }) => `The path ${path} cannot be a page: ${reason}.`,
    hint: 'Use lowercase words joined by hyphens, without dots, e.g. /buy-tiktok-likes.',
  }),
  unsafeRedirectFrom: entry<{ from: string; reason: string }>({
    code: 'SF125',
    message: ({ from, reason }) => `The old address ${from} cannot be redirected: ${reason}.`,
    hint: 'Write the old address as it was, from the root, e.g. /old-page; it is written as a small page of its own.',
  }),
  redirectedTwice: entry<{ from: string }>({
    code: 'SF122',
    message: ({ from }) => `${from} is redirected twice.`,
    hint: 'Keep one redirect for each old path.',
  }),
  redirectFromPage: entry<{ from: string }>({
    code: 'SF122',
    message: ({ from }) => `${from} is a page of the site; it cannot also redirect.`,
    hint: 'Remove the redirect or the page.',
  }),
  redirectToNoPage: entry<{ from: string; to: string }>({
    code: 'SF122',
    message: ({ from, to }) => `The redirect from ${from} points to ${to}, which is not a page.`,
    hint: 'Point it to an existing route.',
  }),

  // --- CMS and images (cms/, images/) -------------------------------------------------------------
  // cms/wordpress-client.ts: WordPress's REST API (and the checkout's Store API, read the same way).
  cmsHttpError: entry<{ status: number; wordpressError?: { code: string; message: string } }>({
    code: 'SF201',
    message: ({ status, wordpressError: error }) =>
      `WordPress answered HTTP ${status}${error ? ` (${error.code}: ${error.message})` : ''}.`,
    hint: ({ status }) =>
      status === 401 || status === 403
        ? 'Check the CMS credentials in the environment (CMS_USER, CMS_APP_PASSWORD).'
        : 'Check that CMS_API_URL is the REST API root, e.g. https://example.com/wp-json.',
  }),
  cmsAnswerNotJson: entry<{ start: string }>({
    code: 'SF201',
    message: ({ start }) => `The answer is not JSON (it starts with ${JSON.stringify(start)}).`,
    hint:
      'CMS_API_URL must be the REST API root (…/wp-json); a login page, a maintenance page or a proxy error ' +
      'is not.',
  }),
  cmsAnswerNotList: entry({
    code: 'SF201',
    message: () => 'The answer is JSON but not a list of posts.',
    hint: 'Check that CMS_API_URL is the REST API root, e.g. https://example.com/wp-json.',
  }),
  cmsPageTooLong: entry<{ count: number; asked: number }>({
    code: 'SF201',
    message: ({ count, asked }) => `The answer lists ${count} posts where at most ${asked} were asked for.`,
    hint: 'This is not how WordPress pages its posts; check CMS_API_URL.',
  }),
  cmsAnswerTooLarge: entry<{ mostBytes: number; perPage: number }>({
    code: 'SF201',
    message: ({ mostBytes, perPage }) =>
      `The answer is larger than ${mostBytes / 1024 / 1024} MB, more than a page of ${perPage} posts can be.`,
    hint: 'Check CMS_API_URL: it must be the REST API root of a WordPress site.',
  }),
  cmsAnswersTooLarge: entry<{ mostBytes: number }>({
    code: 'SF201',
    message: ({ mostBytes }) =>
      `WordPress's answers add up to more than ${mostBytes / 1024 / 1024} MB, more than a blog of 10,000 long posts.`,
    hint: 'Check CMS_API_URL: it must be the REST API root of a WordPress site.',
  }),
  cmsUnreachable: entry<{ what: string; attempts: number; reason: string }>({
    code: 'SF201',
    message: ({ what, attempts, reason }) => `The ${what} could not be fetched after ${attempts} attempts: ${reason}.`,
    hint:
      'Check CMS_API_URL and that the WordPress site is reachable. `build --stale-ok` falls back to the last ' +
      'cached copy; `build --offline` builds from the cache alone.',
  }),
  cmsTooManyPosts: entry<{ most: number }>({
    code: 'SF201',
    message: ({ most }) => `WordPress has more than ${most} posts, the most a build takes.`,
    hint: `If the blog really is that large, raise the limit: cmsMaxPosts in ${CONFIG_FILE}, or CMS_MAX_POSTS.`,
  }),
  // cms/load-cms-posts.ts
  cmsNoCachedPosts: entry<{ why: string | undefined }>({
    code: 'SF203',
    message: ({ why }) => `There is no cached copy of this CMS's posts${why ? ` to fall back to (${why})` : ''}.`,
    hint: 'Run one build with the CMS reachable first; it saves the posts under .cache/.',
  }),
  // cms/map-post.ts: a post of WordPress's answer.
  cmsPostMissingField: entry<{ issue: string }>({
    code: 'SF204',
    message: ({ issue }) => `A post from WordPress is missing a field the site needs: ${issue}.`,
    hint: 'The site reads id, slug, date_gmt, title, excerpt and content of /wp/v2/posts.',
  }),
  cmsPostSlugUnsafe: entry<{ id: number; slug: string; reason: string }>({
    code: 'SF124',
    message: ({ id, slug, reason }) =>
      `The post ${id} has the slug ${JSON.stringify(slug)}, which cannot be a page address: ${reason}.`,
    hint: "Edit the post's slug (permalink) in WordPress.",
  }),
  cmsPostSlugTaken: entry<{ first: number; second: number; slug: string }>({
    code: 'SF205',
    message: ({ first, second, slug }) =>
      `The posts ${first} and ${second} both have the slug "${slug}", so they would share one address.`,
    hint: 'Give one of them another slug in WordPress.',
  }),
  cmsPostUntitled: entry<{ id: number; slug: string }>({
    code: 'SF204',
    message: ({ id, slug }) =>
      `The post ${id} (${slug}) has no title once its HTML is removed, so its page would have an empty heading ` +
      'and title.',
    hint: 'Give the post a title in WordPress.',
  }),
  cmsPostTooLarge: entry<{ id: number; slug: string; characters: number; most: number }>({
    code: 'SF204',
    message: ({ id, slug, characters, most }) =>
      `The post ${id} (${slug}) is ${Math.round(characters / 1024)} KB of HTML, more than the ` +
      `${most / 1024 / 1024} MB a post may be.`,
    hint: 'Split the post, or move large embedded data (images as data: URLs) to media files.',
  }),
  /** `character` as describeCodePoint names it; `after`, the text before it ('' at the start); `others`, more such. */
  cmsPostDisguisedText: entry<{
    id: number;
    slug: string;
    field: string;
    character: string;
    after: string;
    why: string;
    others: number;
  }>({
    code: 'SF204',
    message: ({ id, slug, field, character, after, why, others }) =>
      `The post ${id} (${slug}) has ${character} in its ${field}${after ? ` after "${after}"` : ' at the start'}, ` +
      `${why}${others > 0 ? ` (and ${others} more such character${others > 1 ? 's' : ''})` : ''}.`,
    hint:
      'Edit the post in WordPress and delete the character: it may be invisible (retype the words around it), or ' +
      'a reference such as &#x202E; in the code editor. Right-to-left text may use the marks U+200F and U+200E, ' +
      'or wrap a phrase in U+2067 … U+2069 on one line.',
  }),
  // images/process-images.ts
  imagesTooManyInPost: entry<{ count: number; most: number }>({
    code: 'SF206',
    message: ({ count, most }) => `This post shows ${count} different images; a post may show at most ${most}.`,
    hint: 'Keep the images that tell the story, or split the post.',
  }),
  imagesTooManyInBuild: entry<{ count: number; most: number }>({
    code: 'SF206',
    message: ({ count, most }) => `The posts show ${count} different images; a build makes at most ${most}.`,
    hint: 'Remove images from older posts, or leave some posts out of the blog.',
  }),
  /**
   * `from`: a file of content/images/, an image of a WordPress post, or one of a local post from
   * another host. Why: the download's or the check's reason, or the decoder's error.
   */
  imageUnusable: entry<
    { address: string; from: 'content/images' | 'WordPress' | 'another host' } & (
      | { unavailable: string }
      | { unreadable: string }
    )
  >({
    code: 'SF206',
    message: (values) =>
      `The image ${values.address} of this post cannot be shown: ` +
      `${'unavailable' in values ? values.unavailable : `it cannot be read as an image (${values.unreadable})`}.`,
    hint: ({ from }) =>
      from === 'content/images'
        ? 'Check the file in content/images/: a JPEG, PNG, WebP, AVIF, GIF or SVG of at most 40 megapixels.'
        : from === 'WordPress'
          ? 'Check the image in WordPress (open its address), or remove it from the post.'
          : 'Put the image in content/images/ and write /images/name, or add its host to imageHosts in ' +
            `${CONFIG_FILE} (IMAGE_HOSTS).`,
  }),

  // --- output (output/) --------------------------------------------------------------------------
  // output/output-folder.ts
  /** `files`: the first of them, sorted, with a last `…` when there were more than were counted (foreignFiles). */
  outputHoldsForeignFiles: entry<{ files: readonly string[] }>({
    code: 'SF171',
    message: ({ files }) => {
      const more = files.at(-1) === '…' ? 'more' : `${files.length - 5} more`;
      const named = files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${more}` : '');
      return (
        `The output folder holds files that no build wrote: ${named}. A build replaces the folder whole, so it ` +
        'would delete them.'
      );
    },
    hint:
      'Move those files elsewhere, or build into an empty or new folder with --out. If the folder is an old ' +
      'build, delete it.',
  }),
  /**
   * A record beside the output folder (output/output-record.ts) that proves nothing, and why:
   * `what` what stands in its place, `size` and `limit` in words, `reason` the system's code.
   */
  outputRecordUntrusted: entry<{ why: RecordDistrust }>({
    code: 'SF171',
    message: ({ why }) =>
      `This record of the files builds wrote into the output folder cannot be trusted: ${recordDistrust(why)}. ` +
      'Builds delete only what a trusted record names, so the build stopped: nothing was deleted or written.',
    hint: ({ why }) =>
      why.kind === 'earlier'
        ? 'Records of earlier versions carry no proof: delete the output folder and this record once (move any ' +
          'file of yours out of the folder first); the next build writes both again.'
        : 'Delete this record, and the output folder once any file of yours is moved out of it; the next build ' +
          'writes both again.',
  }),
  // output/record-key.ts: the key records are signed with; `why` what is wrong with it.
  recordKeyUnusable: entry<{ why: string }>({
    code: 'SF171',
    message: ({ why }) =>
      `The key builds sign their records with is ${why}: no record can be trusted with it, so nothing was written.`,
    hint:
      'Delete it, and the output folder once any file of yours is moved out of it (its records were signed with ' +
      'the old key); the next build makes a new key.',
  }),
  /** `reason`: the system's own message. */
  recordKeyNotMade: entry<{ reason: string }>({
    code: 'SF160',
    message: ({ reason }) => `The key builds sign their records with could not be made: ${reason}`,
    hint: 'Make the project folder writable: a build records what it wrote, signed with this key, to replace it later.',
  }),
  // output/host-limits.ts: what is over the host's limit, the limit (with the setting that chose it
  // and the host's page), and what to do. Counts in English digits: 20,000.
  /**
   * `copies`: the .br and .gz files of the site; `images`: the files of post images (assets/img/).
   * Over `files`: with `paidPlan` when a paid plan takes more (Cloudflare Pages). Over `fileBytes`:
   * `file` as published, `published` when it is one of content/images/. Over `siteBytes`: the bytes
   * of content/images/, of post images and of the copies.
   */
  overHostLimit: entry<
    {
      host: string;
      limit: { limit: number; docs: string; setting?: string };
      copies: number;
      images: number;
    } & (
      | { over: 'files'; files: number; paidPlan?: { files: number; configFile: string; variable: string } }
      | { over: 'fileBytes'; bytes: number; published: boolean }
      | { over: 'siteBytes'; bytes: number; parts: { contentImages: number; postImages: number; copies: number } }
      | { over: 'filesPerFolder'; folder: string; files: number }
    )
  >({
    code: 'SF161',
    message: (values) => {
      const count = (n: number) => n.toLocaleString('en-GB');
      // 26214400 → `25 MiB (26,214,400 bytes)`: the binary unit the hosts' docs and tools use.
      const binary = (n: number) => {
        const [unit, size] = n >= 1024 ** 3 ? ['GiB', 1024 ** 3] : ['MiB', 1024 ** 2];
        return `${Number((n / size).toFixed(2))} ${unit} (${count(n)} bytes)`;
      };
      const { host, limit } = values;
      const [what, most] =
        values.over === 'files'
          ? [`The site would be ${count(values.files)} files`, `${count(limit.limit)} files per site`]
          : values.over === 'fileBytes'
            ? [`This file would be ${count(values.bytes)} bytes`, `${binary(limit.limit)} a file`]
            : values.over === 'siteBytes'
              ? [`The site would be ${count(values.bytes)} bytes`, `${binary(limit.limit)} per site`]
              : [
                  `The folder ${values.folder} would hold ${count(values.files)} files`,
                  `${count(limit.limit)} files in one folder, and fails a deploy with more`,
                ];
      const setting = limit.setting ? `, as ${limit.setting} sets` : '';
      return `${what}; ${host} takes at most ${most}${setting} (${limit.docs}).`;
    },
    hint: (values) => {
      const count = (n: number) => n.toLocaleString('en-GB');
      const { host, copies, images } = values;
      const noCopies =
        copies > 0
          ? ` Build without --precompress: the ${count(copies)} .br and .gz copies are of no use on ${host}, which ` +
            'compresses by itself.'
          : '';
      const imageFiles =
        `post images make ${count(images)} of them (up to 13 an image: 4 widths in 3 formats, and a share image): ` +
        'use fewer images, or fewer widths (IMAGE_WIDTHS in src/images/process-images.ts)';
      switch (values.over) {
        case 'files': {
          const paid = values.paidPlan
            ? `On a paid plan (${count(values.paidPlan.files)} files), set cfPagesMaxFiles in ` +
              `${values.paidPlan.configFile}, or ${values.paidPlan.variable}, to ${values.paidPlan.files}, and ` +
              "PAGES_WRANGLER_MAJOR_VERSION=4 in the Pages project's variables, as Cloudflare asks. Otherwise publish"
            : 'Publish';
          return `${paid} fewer files: ${images > 0 ? `${imageFiles}, or ` : ''}leave older posts out.${noCopies}`;
        }
        case 'fileBytes':
          return `Make it smaller, or put it on another host and link to it.${
            values.published ? ' Files in content/images/ are published as they are.' : ''
          }`;
        case 'siteBytes': {
          const parts = [
            {
              bytes: values.parts.contentImages,
              what: 'in content/images/ (published as they are: put large files on another host and link to them)',
            },
            {
              bytes: values.parts.postImages,
              what: 'post images (use fewer, or fewer widths: IMAGE_WIDTHS in src/images/process-images.ts)',
            },
            {
              bytes: values.parts.copies,
              what: `.br and .gz copies (build without --precompress: ${host} compresses by itself)`,
            },
          ].filter((part) => part.bytes > 0);
          const largest = parts
            .sort((a, b) => b.bytes - a.bytes)
            .map((part) => `${count(part.bytes)} bytes are ${part.what}`);
          return `Publish fewer or smaller files${largest.length > 0 ? `: ${largest.join('; ')}` : ''}.`;
        }
        case 'filesPerFolder': {
          const what =
            values.folder === 'blog/'
              ? 'Every post is a file of blog/: leave older posts out.'
              : values.folder === 'assets/img/'
                ? `Publish fewer files there: ${imageFiles}.`
                : 'Publish fewer files there.';
          return `${what}${noCopies}`;
        }
      }
    },
  }),
  /**
   * The rules of `_redirects` or `_headers` over what the host reads (output/host-limits.ts):
   * `count` rules, or lines too long; `first`, the first line too long (its number, its length,
   * and its start).
   */
  overHostRules: entry<{
    host: string;
    limit: { limit: number; docs: string };
    over: 'staticRedirects' | 'dynamicRedirects' | 'redirectChars' | 'headerRules' | 'headerLineChars';
    count: number;
    first?: { line: number; chars: number; start: string };
  }>({
    code: 'SF161',
    message: ({ host, limit, over, count, first }) => {
      const n = (x: number) => x.toLocaleString('en-GB');
      const many = (x: number, what: string) => `${n(x)} ${what}${x === 1 ? '' : 's'}`;
      const long = first
        ? ` longer than ${n(limit.limit)} characters ` +
          `(the first, line ${first.line}, is ${n(first.chars)}: ${first.start})`
        : '';
      const [what, most] = {
        staticRedirects: [`_redirects would hold ${n(count)} static redirects`, n(limit.limit)],
        dynamicRedirects: [
          `_redirects would hold ${n(count)} dynamic redirects (an old address with * or :name, and every ` +
            'redirect after the first of them)',
          n(limit.limit),
        ],
        redirectChars: [
          `_redirects would hold ${many(count, 'redirect')}${long}`,
          `${n(limit.limit)} characters a redirect`,
        ],
        headerRules: [`_headers would hold ${n(count)} rules`, n(limit.limit)],
        headerLineChars: [`_headers would hold ${many(count, 'line')}${long}`, `${n(limit.limit)} characters a line`],
      }[over];
      const ignored = first ? 'longer ones' : 'the rest';
      return `${what}; ${host} takes at most ${most} (${limit.docs}) and ignores ${ignored} without an error.`;
    },
    hint: ({ over }) =>
      over === 'staticRedirects' || over === 'dynamicRedirects'
        ? `Keep fewer redirects in content/redirects.yaml${
            over === 'dynamicRedirects' ? ', with those holding * or :name after all the others' : ''
          }, or deploy to Netlify (--target netlify), which sets no such limit.`
        : over === 'redirectChars'
          ? 'Shorten those addresses in content/redirects.yaml.'
          : 'The build writes _headers itself (src/output/headers-file.ts): fewer rules or shorter headers there.',
  }),
  // output/write-output.ts
  outputFolderRefused: entry<{ why: 'is the project' | 'in the project' | 'is a link' }>({
    code: 'SF170',
    message: ({ why }) =>
      `The build will not write to this folder: ${
        why === 'is the project'
          ? 'it is the project folder or holds it'
          : why === 'in the project'
            ? "it is inside a folder of the project's own files"
            : 'it is a link, and the build replaces a folder, never what a link points to (if an earlier version ' +
              'of storefront made it, move any file of yours out of the folder it points to, then delete both)'
      }. The output folder is replaced as a whole.`,
    hint: 'Choose an empty or new folder, e.g. --out dist.',
  }),
  // The system refused a write (SiteWriter.error): `name` is the file as the site has it, when known.
  outputNameTooLong: entry<{ name: string | undefined }>({
    code: 'SF160',
    message: ({ name }) =>
      'The output could not be written: a file or folder name is longer than the disk allows (255 bytes)' +
      `${name ? `: ${name}` : ''}.`,
    hint: 'Shorten the path of the page (content/pages/) or redirect that makes it.',
  }),
  outputDiskFull: entry<{ name: string | undefined }>({
    code: 'SF160',
    message: ({ name }) => `The output could not be written: the disk is full${name ? ` (writing ${name})` : ''}.`,
    hint: 'Free space on the disk that holds the output folder, or build onto another with --out.',
  }),
  outputQuotaUsed: entry<{ name: string | undefined }>({
    code: 'SF160',
    message: ({ name }) =>
      `The output could not be written: the disk quota is used up${name ? ` (writing ${name})` : ''}.`,
    hint: 'Free space within your quota, or build onto another disk with --out.',
  }),
  outputPermissionDenied: entry<{ name: string | undefined }>({
    code: 'SF160',
    message: ({ name }) => `The output could not be written: permission denied${name ? ` (writing ${name})` : ''}.`,
    hint: 'Make the output folder, and the folder that holds it, writable by you, or build elsewhere with --out.',
  }),
  outputDiskReadOnly: entry({
    code: 'SF160',
    message: () => 'The output could not be written: the disk is read-only.',
    hint: 'Build onto a writable disk with --out.',
  }),
  // A mount point (a Docker volume) or a folder of an image's lower layer cannot be renamed.
  outputFolderUnmovable: entry<{ code: 'EBUSY' | 'EXDEV' }>({
    code: 'SF160',
    message: ({ code }) => `The output could not be written: the output folder cannot be renamed (${code}).`,
    hint:
      'The build swaps in a new folder by renaming, and this one cannot be renamed: it is a mount point (a volume) ' +
      'or lies in another file system layer. Build into a folder inside it, e.g. --out dist/site, or mount the ' +
      'folder that holds it.',
  }),
  /** `reason`: the system's own message. */
  outputNotWritten: entry<{ reason: string }>({
    code: 'SF160',
    message: ({ reason }) => `The output could not be written: ${reason}`,
    hint: 'Check that the folder, and the folder that holds it, are writable, and that the disk has space.',
  }),

  // --- render (render/) ---------------------------------------------------------------------------
  // render/render-routes.ts
  pageNotRendered: entry<{ path: string; error: string }>({
    code: 'SF150',
    message: ({ path, error }) => `The page ${path} could not be rendered: ${error}`,
    hint: 'This is a bug in a template or in the data it was given; run with --debug for the stack.',
  }),

  // --- check and checkout (check/, checkout/) -----------------------------------------------------
  // check/check-site.ts
  checkNoSite: entry({
    code: 'SF141',
    message: () => 'There is no built site to check (no sitemap.xml).',
    hint: 'Run `storefront build` first.',
  }),
  /**
   * `page`: the page the link is on (none: sitemap.xml lists it); `cause`: why it is broken;
   * `nearest`: the page of the site nearest in spelling, if one is near.
   */
  checkBrokenLink: entry<{ link: string; page?: string; cause: string; nearest?: string }>({
    code: 'SF301',
    message: ({ link, page, cause }) =>
      page
        ? `The link to ${link} on ${page} is broken: ${cause}.`
        : `sitemap.xml lists ${link}, which is broken: ${cause}.`,
    hint: ({ page, nearest }) =>
      (nearest ? `Did you mean ${nearest}? ` : '') +
      (page
        ? 'Fix the link where it is written, or add a redirect for the old address in content/redirects.yaml.'
        : 'The sitemap lists a page that does not exist.'),
  }),
  checkMissingFragment: entry<{ href: string; on: string; page: string; fragment: string; nearby: string[] }>({
    code: 'SF301',
    message: ({ href, on, page, fragment }) =>
      `The link to ${href} on ${on} names #${fragment}, which ${page} does not have.`,
    hint: ({ nearby }) => `${didYouMeanIds(nearby)}Name an id the page has, or drop the #part.`,
  }),
  checkCanonicalNotPage: entry<{ status: number }>({
    code: 'SF302',
    message: ({ status }) => `The canonical URL answers HTTP ${status}, not 200.`,
    hint: "A canonical URL must be the page's own clean address.",
  }),
  /** `origin`: the canonical URL's; `siteOrigin`: the sitemap's first URL's, '' if none. Never fetched. */
  checkCanonicalElsewhere: entry<{ origin: string; siteOrigin: string }>({
    code: 'SF302',
    message: ({ origin, siteOrigin }) =>
      `The canonical URL is on ${origin}, not on the site's origin ` +
      `${siteOrigin ? `${siteOrigin} (its sitemap's)` : '(the sitemap lists no URL to tell it)'}; ` +
      'check fetches nothing there.',
    hint: "A canonical URL must be the page's own clean address, on the site's origin.",
  }),
  checkSitemapUrlNotPage: entry<{ status: number }>({
    code: 'SF303',
    message: ({ status }) =>
      status >= 300 && status < 400
        ? `The sitemap URL redirects (HTTP ${status}).`
        : `The sitemap URL answers HTTP ${status}.`,
    hint: 'The sitemap must list final page addresses only.',
  }),
  /** `origin`: the sitemap URL's; `siteOrigin`: its first URL's, the site's. Never fetched. */
  checkSitemapUrlElsewhere: entry<{ origin: string; siteOrigin: string }>({
    code: 'SF303',
    message: ({ origin, siteOrigin }) =>
      `The sitemap URL is on ${origin}, not on the site's origin ${siteOrigin} (its first URL's); ` +
      'check fetches nothing there.',
    hint: "The sitemap must list the site's own pages only, all on one origin.",
  }),
  checkOrphanPage: entry<{ inSitemap: boolean }>({
    code: 'SF304',
    message: ({ inSitemap }) =>
      'No chain of links from the home page reaches this page (an orphan): visitors can only find it through ' +
      `search${inSitemap ? ' and the sitemap' : ''}.`,
    hint: 'Link to it from a related page, the navigation or the footer.',
  }),
  checkRedirectToNothing: entry<{ from: string; to: string; status: number }>({
    code: 'SF305',
    message: ({ from, to, status }) =>
      `The redirect from ${from} goes to ${to}, which answers HTTP ${status}, not a page.`,
    hint: 'Point the redirect at an existing page in content/redirects.yaml.',
  }),
  // checkout/check-checkout.ts: `catalogue pull --to` (`to` as typed), and the prices pulled.
  proposalNamesFolder: entry<{ to: string }>({
    code: 'SF170',
    message: ({ to }) => `The proposed catalogue is a file; this names a folder (--to ${JSON.stringify(to)}).`,
    hint: 'Name a file, e.g. catalogue.proposed.yaml.',
  }),
  proposalFolderMissing: entry<{ to: string; folder: string }>({
    code: 'SF170',
    message: ({ to, folder }) =>
      `The folder of the proposed catalogue, ${folder}, does not exist (--to ${JSON.stringify(to)}).`,
    hint: 'Name a file in a folder that exists, e.g. catalogue.proposed.yaml.',
  }),
  proposalIntoProjectFolder: entry<{ to: string; folder: string }>({
    code: 'SF170',
    message: ({ to, folder }) =>
      `${
        folder === 'content'
          ? 'The proposed catalogue is never written into content/: the catalogue changes only when you copy it over'
          : `The proposed catalogue is never written into ${folder}/`
      } (--to ${JSON.stringify(to)}).`,
    hint: 'Leave --to out, or name a new file outside content/, e.g. catalogue.proposed.yaml.',
  }),
  proposalIsFolder: entry<{ to: string }>({
    code: 'SF170',
    message: ({ to }) => `The proposed catalogue is a file; this is a folder (--to ${JSON.stringify(to)}).`,
    hint: 'Name a file, e.g. catalogue.proposed.yaml.',
  }),
  proposalIsSpecialFile: entry<{ to: string }>({
    code: 'SF170',
    message: ({ to }) =>
      'This is a link or another special file, never replaced by the proposed catalogue ' +
      `(--to ${JSON.stringify(to)}).`,
    hint: 'Name a new file, or an earlier proposed catalogue.',
  }),
  proposalWouldOverwrite: entry<{ to: string }>({
    code: 'SF170',
    message: ({ to }) =>
      `This file exists and is not a proposed catalogue: it is never overwritten (--to ${JSON.stringify(to)}).`,
    hint:
      'Name a new file, or an earlier proposed catalogue (catalogue.proposed.yaml); delete the file first if it ' +
      'really is to go.',
  }),
  /** `refused`: why the price is none the catalogue can hold (chargedPrice); `otherCurrency`: it is in another. */
  proposalPriceUnusable: entry<{
    name: string;
    slug: string;
    product: number;
    refused: string;
    otherCurrency: boolean;
  }>({
    code: 'SF403',
    message: ({ name, slug, product, refused }) =>
      `${name} (${slug}): the checkout's product ${product} ${refused}; no price is proposed for it.`,
    hint: ({ otherCurrency }) =>
      otherCurrency
        ? "Set the checkout's currency to the catalogue's (GBP), then pull again."
        : "Correct the product's price in WooCommerce (a positive amount of pounds and pence, below the catalogue's " +
          'ceiling), then pull again.',
  }),
  // checkout/store-api.ts
  checkoutNoCachedProducts: entry({
    code: 'SF203',
    message: () => "There is no cached copy of the checkout's products.",
    hint: 'Run the command once with the checkout reachable; it saves the products under .cache/cms/.',
  }),
  checkoutProductMissingField: entry<{ path: string; issue: string }>({
    code: 'SF202',
    message: ({ path, issue }) => `A product of the Store API lacks a field the check needs: ${path} (${issue}).`,
    hint:
      'The check reads id, name, slug, permalink, is_purchasable, is_in_stock and prices of ' +
      '/wc/store/v1/products.',
  }),
  /** A problem of the WordPress client (SF201) reading the checkout: its message, with the checkout's hint. */
  checkoutUnreachable: entry<{ message: string }>({
    code: 'SF201',
    message: ({ message }) => message,
    hint:
      'Check CHECKOUT_URL and that the checkout site is up and answers its WooCommerce Store API ' +
      '(/wp-json/wc/store/v1/products) itself: no redirect is followed.',
  }),
  // checkout/verify-checkout.ts: a package (`pkg`: its name) against the checkout's product of its
  // slug (`product`: its id, and its name as the checkout wrote it, quoted).
  checkoutNoProduct: entry<{ pkg: string; slug: string }>({
    code: 'SF401',
    message: ({ pkg, slug }) =>
      `${pkg}: the checkout has no product with the slug "${slug}"; its Buy Now leads nowhere.`,
    hint: 'Create the product in WooCommerce with this slug, or correct the slug in the catalogue.',
  }),
  checkoutNotForSale: entry<{ pkg: string; product: { id: number; name: string }; purchasable: boolean }>({
    code: 'SF402',
    message: ({ pkg, product, purchasable }) =>
      `${pkg} (checkout product ${product.id}, ${product.name}) ${
        !purchasable ? 'cannot be bought (not purchasable: no price, or not published)' : 'is out of stock'
      }.`,
    hint: 'Make it purchasable and in stock in WooCommerce, or take the package out of the catalogue.',
  }),
  /** `charged`: the checkout's currency, as currencyOf writes it; `shown`: the catalogue's. */
  checkoutOtherCurrency: entry<{ pkg: string; product: { id: number; name: string }; charged: string; shown: string }>({
    code: 'SF403',
    message: ({ pkg, product, charged, shown }) =>
      `${pkg} (checkout product ${product.id}, ${product.name}) is priced in ${charged}; the storefront shows ` +
      `${shown}.`,
    hint: "Set the checkout's currency to the catalogue's (GBP).",
  }),
  /** `refused`: why its price is none the storefront can show (chargedPrice); `shown`: the catalogue's, formatted. */
  checkoutPriceUnusable: entry<{ pkg: string; product: { id: number; name: string }; refused: string; shown: string }>({
    code: 'SF403',
    message: ({ pkg, product, refused, shown }) =>
      `${pkg} (checkout product ${product.id}, ${product.name}) ${refused}: no price the storefront can show ` +
      `(it shows ${shown}).`,
    hint:
      "Correct the product's price in WooCommerce: a positive amount of pounds and pence, below the catalogue's " +
      'ceiling.',
  }),
  /** Prices formatted (`£4.99`); `onSale`: the price charged is a sale price. */
  checkoutPriceDiffers: entry<{
    pkg: string;
    product: { id: number; name: string };
    charged: string;
    onSale: boolean;
    shown: string;
  }>({
    code: 'SF403',
    message: ({ pkg, product, charged, onSale, shown }) =>
      `${pkg} (checkout product ${product.id}, ${product.name}) is charged ${charged}` +
      `${onSale ? ' (a sale price)' : ''}; the storefront shows ${shown}.`,
    hint:
      'Make the two agree: change the price in the catalogue (`storefront catalogue pull --from-checkout` ' +
      'proposes it) or in WooCommerce.',
  }),
  /** `lives`: the product's permalink (quoted when it is no address, or too long); `buyUrl`: its Buy Now. */
  checkoutElsewhere: entry<{ pkg: string; product: { id: number; name: string }; lives: string; buyUrl: string }>({
    code: 'SF404',
    message: ({ pkg, product, lives, buyUrl }) =>
      `${pkg} (checkout product ${product.id}, ${product.name}) lives at ${lives}, not at ${buyUrl} where Buy Now ` +
      'sends the visitor.',
    hint:
      "The product's permalink must be /product/{slug} on the checkout site (WooCommerce: Settings › Permalinks › " +
      'Product base).',
  }),
  // A checkout without the Store API: each Buy Now address requested.
  checkoutBuyRedirectsAway: entry<{ pkg: string; origin: string }>({
    code: 'SF401',
    message: ({ pkg, origin }) =>
      `${pkg}: its Buy Now redirects to ${origin}, another site than the checkout; the check follows no ` +
      'redirect there, so this package is not verified.',
    hint:
      'If the shop moved, set CHECKOUT_URL to the site its products are on; if not, remove the redirect on the ' +
      'checkout site.',
  }),
  /** `status`: the answer's; `failed`: why there was none. */
  checkoutBuyNotProduct: entry<{ pkg: string } & ({ status: number } | { failed: string })>({
    code: 'SF401',
    message: (values) =>
      `${values.pkg}: its Buy Now answers ${
        'status' in values ? `HTTP ${values.status}` : `nothing (${values.failed})`
      }, not a product page.`,
    hint: 'Check the product and its slug on the checkout site, or correct the slug in the catalogue.',
  }),

  // --- dev (dev/) --------------------------------------------------------------------------------
  // dev/generator-bundle.ts
  codeNotCompiled: entry<{ error: string }>({
    code: 'SF150',
    message: ({ error }) => `The generator's code could not be compiled: ${error}`,
    hint: 'Fix the code and save it; until then the last good build is served.',
  }),
  // dev/dev-command.ts
  buildCrashed: entry<{ message: string }>({
    code: 'SF900',
    message: ({ message }) => `The build stopped unexpectedly: ${message}`,
    hint: 'This may be a bug in the generator; the terminal has the details with --debug.',
  }),

  // --- the command line and preview (cli/, preview/) ----------------------------------------------
  // cli/report-error.ts
  /** `errno` and `syscall`: Node's code for the refusal (EADDRINUSE...) and the call refused (listen...). */
  systemRefused: entry<{ message: string; errno: string; syscall: string }>({
    code: 'SF901',
    message: ({ message }) => `The operating system refused: ${message}.`,
    hint: ({ errno, syscall }) => {
      const network = syscall === 'listen' || syscall === 'bind';
      switch (errno) {
        case 'EADDRINUSE':
          return 'Another program listens on this port: choose another with --port, or --port 0 for a free one.';
        case 'EACCES':
        case 'EPERM':
          return network
            ? 'This port needs privileges: choose one above 1023 with --port.'
            : 'Check that you may read and write this file or folder.';
        case 'ENOSPC':
          return 'The disk is full: free some space and run the command again.';
        case 'EMFILE':
        case 'ENFILE':
          return 'Too many files are open: raise the limit (ulimit -n) and run the command again.';
        case 'ENOENT':
        case 'ENOTDIR':
          return 'Check that this path exists.';
        default:
          return 'Run again with --debug to see where it happened.';
      }
    },
  }),
  unexpected: entry<{ described: string }>({
    code: 'SF900',
    message: ({ described }) => `An unexpected error stopped the command: ${described}`,
    hint:
      'This is a bug in storefront. Run the command again with --debug to see the stack trace, and report it ' +
      'with that output.',
  }),
  // cli/flag-errors.ts: a command line commander rejected. `said`: commander's first line, `more`
  // its others; `guess`: the nearest command, option or choice, `typed` what it replaces; `usage`:
  // the command whose help helps, which lists `commands` (else options).
  flagRejected: entry<{
    said: string;
    more: readonly string[];
    guess: string | undefined;
    typed: string | undefined;
    usage: string;
    commands: boolean;
  }>({
    code: 'SF170',
    message: ({ said, more, guess }) => {
      const sentence = /[.?)]$/.test(said) ? said : `${said}.`;
      return guess ? `${sentence} Did you mean ${guess}?` : [sentence, ...more].join(' ');
    },
    hint: ({ guess, typed, usage, commands }) => {
      const help = `\`${usage} --help\` lists the ${commands ? 'commands' : 'options'}.`;
      return guess && typed ? `Write ${guess} instead of ${typed}; ${help}` : help;
    },
  }),
  // cli/global-options.ts
  rootMissing: entry<{ root: string }>({
    code: 'SF170',
    message: ({ root }) => `The project folder ${root} does not exist.`,
    hint: '--root names the folder that holds content/ (default: the current folder).',
  }),
  // cli/commands/build.ts, cli/commands/preview.ts
  offlineWithStaleOk: entry({
    code: 'SF170',
    message: () => '--offline and --stale-ok cannot be used together.',
    hint: '--offline never touches the network; --stale-ok tries it first.',
  }),
  offlineWithFullFetch: entry({
    code: 'SF170',
    message: () => '--offline and --cms-full cannot be used together.',
    hint: '--offline builds from the copy of the posts in .cache/cms/; --cms-full fetches every post again.',
  }),
  previewNoSite: entry({
    code: 'SF141',
    message: () => 'There is no built site to preview.',
    hint: 'Run `storefront build` first.',
  }),
  // preview/listen-address.ts: a listen refused because of --host's value. `family`: the IP
  // version the system lacks (4 for a name).
  listenHostUnusable: entry<
    { host: string } & (
      | { why: 'not ours' | 'no such name' | 'needs its interface' | 'refused' }
      | { why: 'no such family'; family: 4 | 6 }
    )
  >({
    code: 'SF170',
    message: (values) => {
      const { host } = values;
      switch (values.why) {
        case 'not ours':
          return `This computer has no address ${host} to listen on.`;
        case 'no such name':
          return `The host name ${host} does not resolve to an address.`;
        case 'no such family':
          return `This computer cannot listen on ${host}: it has no IPv${values.family}.`;
        case 'needs its interface':
          return `A link-local IPv6 address such as ${host} needs its interface to listen on: ${host}%eth0, say.`;
        case 'refused':
          return `The system refuses to listen on ${host}.`;
      }
    },
    hint:
      "--host takes one of this computer's own addresses (`ip addr` or `ifconfig` lists them) or a name for one; " +
      '`--host` alone listens on all of them.',
  }),
};

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

import * as z from 'zod';
import { plainText } from '../util/plain-text.js';
import { renderMarkdown } from './markdown.js';

/**
 * The shape of every content file. Objects are strict: a misspelt key is an error, not a
 * silently ignored field. Markdown fields come out rendered (see markdown.ts).
 */

/**
 * Text that cannot disguise itself (src/util/plain-text.ts): `identity` for names, addresses,
 * numbers, slugs and paths (no control, invisible or text-direction character at all), `prose`
 * for copy (right-to-left marks and closed isolates allowed; embeddings, overrides, controls not).
 * The check comes before a field's pattern, so the problem names the character itself.
 */
const identity = () => z.string().superRefine(plainText('identity'));
const prose = () => z.string().superRefine(plainText('prose'));

const text = prose().trim().min(1, 'must not be empty');
const markdown = prose().trim().min(1, 'must not be empty').transform(renderMarkdown);
/** A name, an address line: one line of plain characters. */
const name = identity().trim().min(1, 'must not be empty');
/** A slug: lowercase letters, digits and hyphens. */
const slug = identity().regex(/^[a-z0-9-]+$/, 'must be lowercase letters, digits and hyphens');
/** A root-relative path of the site: `/`, `/about`, `/buy-tiktok-likes`. */
const sitePath = identity()
  .regex(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/, 'must be a path like /about: lowercase, hyphens, no trailing slash');
const anchorId = z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be lowercase letters, digits and hyphens');
const link = z.strictObject({ label: text, path: sitePath });

export const packageSchema = z.strictObject({
  id: z.number().int().positive(),
  quantity: z.number().int().positive(),
  price: z.number(),
  slug,
  popular: z
    .boolean()
    .optional()
    .describe('The package most people take in its grid, badged "Most popular"; at most one per sub-category'),
});

export const catalogueSchema = z.strictObject({
  currency: z.literal('GBP'),
  platforms: z.array(
    z.strictObject({
      id: z.number().int().positive(),
      name,
      slug,
      sub: z.array(
        z.strictObject({
          id: z.number().int().positive(),
          name,
          service: identity().min(1),
          /** How many units a day delivery adds, slowest and fastest, where the pace is known (watch hours). */
          deliveryPerDay: z
            .strictObject({ slowest: z.number().int().positive(), fastest: z.number().int().positive() })
            .refine((pace) => pace.fastest >= pace.slowest, 'fastest must be at least slowest')
            .optional(),
          packages: z.array(packageSchema),
        }),
      ),
    }),
  ),
});

export const siteSchema = z.strictObject({
  claims: z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/), prose()),
  footerBlurb: text,
  publicAccountNotice: text,
  guarantees: z.array(z.strictObject({ title: text, text })).min(1),
  contactBlock: z.strictObject({ eyebrow: text.optional(), heading: text, text, buttonLabel: text }),
  contactChannels: z.array(
    z.strictObject({ icon: z.enum(['chat', 'email']), title: text, desc: text, contact: identity() }),
  ),
  paymentBrands: z.array(z.enum(['visa', 'mastercard', 'paypal', 'apple-pay', 'google-pay'])).length(5),
  navigation: z.strictObject({
    /** The header's own links; the Services menu is placed after the first one. */
    main: z.array(link).min(1),
    services: z.array(z.strictObject({ heading: text, links: z.array(link).min(1) })).min(1),
  }),
  footer: z.strictObject({ usefulLinks: z.array(link), serviceLinks: z.array(link) }),
  blog: z.strictObject({ title: text, description: text, heading: text, intro: markdown.optional() }),
  notFound: z.strictObject({ title: text, heading: text, label: text, message: text }),
});

/**
 * Who the customer is buying from, as UK law asks a distance seller to say (Consumer Contracts
 * Regulations 2013, Electronic Commerce Regulations 2002, Companies Act 2006). The trading name
 * and e-mail are the brandName and supportEmail settings.
 */
export const traderSchema = z.strictObject({
  legalName: name,
  /** Companies House number: eight digits, or two letters and six digits (SC, NI, OC...). Absent for a sole trader. */
  company: z
    .strictObject({
      number: identity().regex(/^(\d{8}|[A-Z]{2}\d{6})$/, 'must be a Companies House number: eight digits, or two letters and six digits'),
      registeredIn: z.enum(['England and Wales', 'Scotland', 'Northern Ireland']),
    })
    .optional(),
  /** A geographic address where the trader can be found, not a PO box. */
  address: z.strictObject({
    street: z.array(name).min(1).max(3),
    town: name,
    postcode: identity().trim().regex(/^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/, 'must be a UK postcode in capitals, such as SW1A 2AA'),
    country: name,
  }),
  /** Only when registered for VAT: GB and nine digits (twelve for a branch). */
  vatNumber: identity().regex(/^GB(\d{9}|\d{12})$/, 'must be GB followed by nine (or twelve) digits, without spaces').optional(),
  phone: identity().trim().regex(/^\+?\d[\d ]{6,18}\d$/, 'must be a telephone number of digits and spaces, such as +44 20 7946 0000'),
});

export const redirectsSchema = z.array(
  z.strictObject({
    from: identity().regex(/^\/[^\s?#]*$/, 'must be a root-relative path'),
    to: sitePath,
  }),
);

const hero = z.strictObject({
  heading: text,
  intro: markdown.optional(),
  buttons: z.array(link).max(3).default([]),
});

const item = z.strictObject({ title: text, text: markdown, path: sitePath.optional() });
const sectionBase = { id: anchorId, heading: text, intro: markdown.optional() };

export const sectionSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('steps'),
    ...sectionBase,
    items: z.array(item).min(1),
    cta: z.strictObject({ label: text, href: identity().url() }).optional(),
  }),
  z.strictObject({ kind: z.literal('cards'), ...sectionBase, items: z.array(item).min(1) }),
  z.strictObject({ kind: z.literal('prose'), ...sectionBase, body: markdown }),
  z.strictObject({ kind: z.literal('guarantees'), ...sectionBase }),
  z.strictObject({ kind: z.literal('contact'), id: anchorId }),
  z.strictObject({ kind: z.literal('picker'), ...sectionBase, defaultSubCategory: z.number().int() }),
  z.strictObject({ kind: z.literal('channels'), ...sectionBase }),
  /** The trader's identity (content/trader.yaml), for the contact page. */
  z.strictObject({ kind: z.literal('trader'), ...sectionBase }),
  /** Every service that has a page, as one compact list grouped by platform, with its starting price from the catalogue. */
  z.strictObject({ kind: z.literal('service-list'), ...sectionBase }),
]);

const pageBase = {
  path: sitePath,
  title: text,
  description: text,
  hero,
  sections: z.array(sectionSchema).default([]),
};

export const pageSchema = z.strictObject(pageBase);

export const servicePageSchema = z.strictObject({
  ...pageBase,
  subCategory: z.number().int(),
  breadcrumb: text,
  packagesHeading: text,
  packagesNote: markdown.optional(),
  supportTile: z.strictObject({ heading: text, text }).optional(),
  faqHeading: text,
  faq: z.array(z.strictObject({ q: text, a: markdown })).min(1),
  crossSellHeading: text,
  crossSells: z.array(z.number().int()).default([]),
  structuredData: z.boolean().default(false),
});

/** `2026-03-14`, `2026-03-14T09:00:00Z`, `2026-03-14 09:00:00+01:00`: a day of the calendar, optionally a time and zone. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A real date of the calendar: JavaScript's Date turns 30 February into 2 March and reads many
 * other forms, so the parts are checked first (month 1–12, the day within its month, the time
 * within the day) and only then handed to Date.
 */
const isoDate = z.string().transform((value, ctx) => {
  const parts = ISO_DATE.exec(value.trim());
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts ? parts.slice(1, 7).map((part) => (part === undefined ? 0 : Number(part))) : [];
  const daysInMonth = month !== undefined && month >= 1 && month <= 12 ? new Date(Date.UTC(year!, month, 0)).getUTCDate() : 0;
  const date = parts ? new Date(parts[4] === undefined ? `${value.trim()}T00:00:00Z` : value.trim()) : new Date(NaN);
  if (!parts || day! < 1 || day! > daysInMonth || hour > 23 || minute > 59 || second > 59 || Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: 'must be a real date such as 2026-03-14 or 2026-03-14T09:00:00Z' });
    return z.NEVER;
  }
  return date;
});

export const textPageSchema = z.strictObject({
  path: sitePath,
  title: text,
  description: text,
  heading: text,
  /** When the page first appeared (the legal pages: 26 June 2022); shown before `updated`. */
  published: isoDate.optional(),
  /** When the page's text last changed. */
  updated: isoDate,
  noindex: z.boolean().default(false),
}).refine((page) => !page.published || page.published <= page.updated, { message: 'published must not be after updated', path: ['published'] });

/**
 * Where the ratings the site shows come from: one source for the whole site. Either the reviews
 * customers wrote, kept here and shown on the page of the service they reviewed, or a named
 * review platform's figures with the day they were read. Without this file no rating is shown.
 */
const customerReviews = z
  .array(
    z.strictObject({
      /** The catalogue sub-category reviewed. */
      subCategory: z.number().int(),
      author: name,
      date: isoDate,
      rating: z.number().int().min(1).max(5),
      text,
    }),
  )
  .min(1);
const platformRating = z.strictObject({
  name,
  url: identity().url().startsWith('https://', 'must be an https:// address'),
  rating: z.number().min(1).max(5),
  count: z.number().int().positive(),
  /** The day the figures were read from the platform. */
  readOn: isoDate,
});
/**
 * One object with both keys optional, then exactly one of them required, rather than a union of
 * two objects: a union can only say "Invalid input" of the whole file, this names the field
 * (`reviews[0].author`) as every other file does.
 */
export const reviewsSchema = z
  .strictObject({ reviews: customerReviews.optional(), platform: platformRating.optional() })
  .refine((file) => (file.reviews === undefined) !== (file.platform === undefined), 'The file must hold either reviews: [...] or platform: {...}, one of the two')
  .transform(
    (file): { reviews: z.output<typeof customerReviews> } | { platform: z.output<typeof platformRating> } =>
      file.reviews ? { reviews: file.reviews } : { platform: file.platform! },
  );

export const postSchema = z.strictObject({
  title: text,
  /** Not published; shown only by `build --drafts` and `dev`. */
  draft: z.boolean().default(false),
  slug: identity().optional(),
  date: isoDate,
  modified: isoDate.optional(),
  excerpt: text,
  image: z
    .strictObject({
      src: z.string().min(1),
      alt: prose(),
      width: z.number().int().positive(),
      height: z.number().int().positive(),
    })
    .optional(),
});

export type Catalogue = z.infer<typeof catalogueSchema>;
export type Site = z.infer<typeof siteSchema>;
export type Trader = z.infer<typeof traderSchema>;
export type Reviews = z.infer<typeof reviewsSchema>;
export type Redirect = z.infer<typeof redirectsSchema>[number];
export type Section = z.infer<typeof sectionSchema>;
export type Page = z.infer<typeof pageSchema>;
export type ServicePageContent = z.infer<typeof servicePageSchema>;
export type TextPageFrontMatter = z.infer<typeof textPageSchema>;
export type PostFrontMatter = z.infer<typeof postSchema>;
export type Link = z.infer<typeof link>;

import * as z from 'zod';
import { plainText } from '../util/plain-text.js';
import { renderMarkdown } from './markdown.js';

/**
 * The shape of every content file. Objects are strict: a misspelt key is an error, not a
 * silently ignored field. Markdown fields come out rendered (see markdown.ts).
 *
 * The descriptions and examples (`.describe()`, `.meta()`) are for editors: the JSON Schemas of
 * the content files are made from these schemas (json-schemas.ts) and shown while typing. A
 * `.meta()` may also carry a JSON Schema keyword that zod does not check here (`exclusiveMinimum`,
 * `pattern`, `allOf`...): a rule the build checks later, in check-content.ts or route-table.ts,
 * that a JSON Schema can state of one value, so that the editor says it at once. Those rules
 * stay the build's to enforce; such a keyword never makes a schema stricter than the build.
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
const sitePath = identity().regex(
  /^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/,
  'must be a path like /about: lowercase, hyphens, no trailing slash',
);
const anchorId = z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be lowercase letters, digits and hyphens');

/**
 * The ids the templates give to elements of a page (the one list: text pages' headings step
 * around them too, src/render/pages/text-page.ts), which a section cannot take, nor one whose
 * heading's id (`${id}-heading`) would be one: refused by check-content.ts (SF123, with the file
 * and field) and by the JSON Schema in the editor. `dev`'s own ids start with `__`, which no
 * heading slug nor section id can.
 */
export const RESERVED_SECTION_IDS = [
  'main',
  'site-nav',
  'page-heading',
  'packages',
  'packages-heading',
  'faq',
  'faq-heading',
  'more-services',
  'more-services-heading',
  'newsletter-email',
  'newsletter-heading',
  'newsletter-consent',
  'reviews',
  'reviews-heading',
  'platform-rules',
  'before-you-buy',
  'contents-heading',
];
/** The section ids whose heading's id (`${id}-heading`) is one of RESERVED_SECTION_IDS. */
const HEADING_TAKEN = RESERVED_SECTION_IDS.filter((id) => id.endsWith('-heading')).map((id) =>
  id.slice(0, -'-heading'.length),
);

/** The generator's own id a section id would clash with (itself or its heading's), or undefined. */
export function reservedIdClash(id: string): string | undefined {
  if (RESERVED_SECTION_IDS.includes(id) || id.startsWith('pick-')) return id;
  return HEADING_TAKEN.includes(id) ? `${id}-heading` : undefined;
}
const takenIds = `${[...RESERVED_SECTION_IDS, ...HEADING_TAKEN].join(', ')}, pick-*`;
const sectionId = anchorId.meta({
  description:
    "The section's anchor (`/about#how-it-works`): lowercase letters, digits and hyphens, unique on the page.",
  examples: ['how-it-works', 'benefits'],
  allOf: [
    {
      pattern: `^(?!(?:${[...RESERVED_SECTION_IDS, ...HEADING_TAKEN].join('|')})$|pick-)`,
      patternErrorMessage: `This id is used by the page layout; these are taken: ${takenIds}.`,
    },
  ],
});

const pathMeta = (description: string) => ({ description, examples: ['/', '/about', '/buy-tiktok-likes'] });
const link = z.strictObject({
  label: text.describe("The link's text."),
  path: sitePath.meta(
    pathMeta('A page of the site: a root-relative path such as /about (lowercase, hyphens, no trailing slash).'),
  ),
});

const positiveId = (description: string, examples: number[]) =>
  z.number().int().positive().meta({ description, examples });

/**
 * `2026-03-14`, `2026-03-14T09:00:00Z`, `2026-03-14 09:00:00+01:00`: a day of the calendar,
 * optionally a time and zone.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A real date of the calendar: JavaScript's Date turns 30 February into 2 March and reads many
 * other forms, so the parts are checked first (month 1–12, the day within its month, the time
 * within the day) and only then handed to Date.
 */
/**
 * ISO_DATE for the JSON Schema: the months 01–12, the days of each month (29 February in any
 * year), the hours, minutes and seconds of a day, and the spaces a value is trimmed of.
 */
const ISO_DATE_JSON = new RegExp(
  // The day, then the time and zone.
  /^\s*\d{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2\d)|(?:0[13-9]|1[0-2])-30|(?:0[13578]|1[02])-31)/.source +
    /(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?\s*$/.source,
);
const parseDate = (value: string, ctx: z.RefinementCtx<string>): Date => {
  const parts = ISO_DATE.exec(value.trim());
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts
    ? parts.slice(1, 7).map((part) => (part === undefined ? 0 : Number(part)))
    : [];
  const daysInMonth =
    month !== undefined && month >= 1 && month <= 12 ? new Date(Date.UTC(year!, month, 0)).getUTCDate() : 0;
  const date = parts ? new Date(parts[4] === undefined ? `${value.trim()}T00:00:00Z` : value.trim()) : new Date(NaN);
  if (
    !parts ||
    day! < 1 ||
    day! > daysInMonth ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    Number.isNaN(date.getTime())
  ) {
    ctx.addIssue({ code: 'custom', message: 'must be a real date such as 2026-03-14 or 2026-03-14T09:00:00Z' });
    return z.NEVER;
  }
  return date;
};
/** The metadata is the string's, before the transform: a JSON Schema of the input keeps its examples. */
const isoDate = (description: string) =>
  z
    .string()
    .meta({
      description: `${description} A date such as 2026-03-14, or a time too: 2026-03-14T09:00:00Z.`,
      examples: ['2026-03-14', '2026-03-14T09:00:00Z'],
      pattern: ISO_DATE_JSON.source,
      patternErrorMessage: 'Must be a real date such as 2026-03-14 or 2026-03-14T09:00:00Z.',
    })
    .transform(parseDate);

/**
 * Where a package's "Most popular" badge comes from, kept beside it as a rating's source is: the
 * period counted and the orders in it (docs/trading.md, "Badge a package only with its source").
 * The fields are required by the JSON Schema (the editor says so at once) but optional here: a
 * badge without its whole source, `popular: true` included, is refused by check-content.ts with
 * its own code (SF118), which names the package, as is a period that ends after the build.
 */
const popularSource = z
  .strictObject({
    from: isoDate('The first day of the period whose orders were counted.').optional(),
    to: isoDate('The last day of the period counted: not before from, and not after the build.').optional(),
    orders: z
      .number()
      .int()
      .positive()
      .meta({ description: 'How many orders of this package were placed in the period.', examples: [412] })
      .optional(),
    ofOrders: z
      .number()
      .int()
      .positive()
      .meta({
        description:
          'How many orders of its sub-category (all its packages, this one included) were placed in the period; ' +
          'at least orders.',
        examples: [1030],
      })
      .optional(),
  })
  .meta({
    description:
      'Badges the package "Most popular", with the source of the claim shown beside the grid: ' +
      'the orders of this package (orders) out of all the orders of its sub-category (ofOrders) ' +
      'from one day (from) to another (to), ' +
      'such as { from: 2026-08-01, to: 2026-10-31, orders: 412, ofOrders: 1030 }. ' +
      'At most one per sub-category (SF117).',
    required: ['from', 'to', 'orders', 'ofOrders'],
  })
  .refine((source) => !source.from || !source.to || source.to.getTime() >= source.from.getTime(), {
    message: 'to must not be before from',
    path: ['to'],
    params: { hint: 'Correct from or to: from is the first day of the period counted, to its last.' },
  })
  .refine(
    (source) => source.orders === undefined || source.ofOrders === undefined || source.orders <= source.ofOrders,
    {
      message: 'orders must not be more than ofOrders',
      path: ['orders'],
      params: {
        hint:
          "Correct orders or ofOrders: orders counts this package's orders, " +
          "ofOrders the orders of every package of its sub-category in the same period, this one's included.",
      },
    },
  );

export const packageSchema = z.strictObject({
  id: positiveId('The product id at the checkout: unique across the whole catalogue.', [1001]),
  quantity: z
    .number()
    .int()
    .positive()
    .meta({
      description: 'How many units the package delivers (followers, likes, views, hours).',
      examples: [100, 1000],
    }),
  // The build checks the price (SF112, isValidPrice in catalogue-index.ts); the JSON Schema says the same.
  price: z.number().meta({
    description:
      'The price in pounds (GBP): positive, at most two decimals, below £10,000. The only place a price lives.',
    examples: [1.89, 10],
    exclusiveMinimum: 0,
    exclusiveMaximum: 10_000,
    multipleOf: 0.01,
  }),
  slug: slug.meta({
    description:
      "The checkout's product slug ({checkoutUrl}/product/{slug}); it starts with the quantity (10k = 10,000).",
    examples: ['100-ig-followers', '10k-ig-followers'],
  }),
  popular: z
    // `popular: true` and any other form that is no object become a source without its fields,
    // which check-content.ts refuses with its own code (SF118), naming the package.
    .preprocess(
      (value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}),
      popularSource,
    )
    .optional(),
});

export const catalogueSchema = z.strictObject({
  currency: z.literal('GBP').describe('Prices are in pounds sterling.'),
  platforms: z.array(
    z.strictObject({
      id: positiveId("The platform's id.", [1]),
      name: name.meta({ description: "The platform's name as shown.", examples: ['Instagram'] }),
      slug: slug.meta({
        description: "The platform's slug: lowercase letters, digits and hyphens.",
        examples: ['instagram'],
      }),
      sub: z.array(
        z.strictObject({
          id: positiveId(
            "The sub-category's id, unique among sub-categories; a service page names it as subCategory.",
            [10],
          ),
          name: name.meta({ description: 'Shown on tiles and cards: "1,000 Followers".', examples: ['Followers'] }),
          service: identity()
            .min(1)
            .meta({ description: 'The kind of service, as the checkout names it.', examples: ['followers'] }),
          /** How many units a day delivery adds, slowest and fastest, where the pace is known (watch hours). */
          deliveryPerDay: z
            .strictObject({ slowest: z.number().int().positive(), fastest: z.number().int().positive() })
            .refine((pace) => pace.fastest >= pace.slowest, 'fastest must be at least slowest')
            .optional(),
          packages: z.array(packageSchema).meta({
            description: 'The packages of the grid, smallest first. At most one is popular (SF117).',
            contains: { type: 'object', required: ['popular'] },
            minContains: 0,
            maxContains: 1,
          }),
        }),
      ),
    }),
  ),
});

export const siteSchema = z.strictObject({
  claims: z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/), prose()).meta({
    description:
      'Facts stated once and used everywhere as {{name}} tokens: ' +
      'the name is letters and digits, the value the phrase a token reads as.',
    examples: [{ startTime: 'about 15 minutes', refillWindow: '30 days' }],
  }),
  footerBlurb: text,
  publicAccountNotice: z
    .strictObject({
      heading: text.describe("The notice itself, as the specification words it: 'Your account should be public!'."),
      text: text.optional().describe('One explanatory line after it.'),
    })
    .describe('The warning at the top of every service page, above the packages.'),
  beforeYouBuy: z
    .strictObject({
      platformRules: z.record(slug, markdown).meta({
        description:
          'For each platform sold (its catalogue slug), what its rules say of bought engagement and the worst ' +
          "that may happen, naming the platform. Shown above its packages, with a link to the service page's " +
          'full answer (#platform-rules).',
        examples: [{ instagram: "**Instagram's rules forbid bought followers.** Instagram may remove them." }],
      }),
      delivery: z
        .strictObject({
          inFull: text.describe('Above a grid whose packages arrive whole: when delivery starts and ends.'),
          atPace: text.describe(
            'Above a grid delivered at a daily pace (catalogue deliveryPerDay): when it starts; tiles show their days.',
          ),
        })
        .describe('How delivery goes, said once above each grid of packages.'),
      vat: z
        .strictObject({
          registered: markdown.describe('Shown when content/trader.yaml has a vatNumber: "Prices include VAT."'),
          notRegistered: markdown.describe('Shown when it has none: "No VAT is charged."'),
        })
        .describe("How VAT stands, chosen by the trader's vatNumber."),
      cancellation: markdown.describe(
        'The 14-day right to cancel and how it ends once delivery starts; links to the terms.',
      ),
    })
    .describe('The facts with every grid of packages (service pages, the home picker), each stated once.'),
  guarantees: z
    .array(
      z.strictObject({
        title: text,
        text: markdown.describe('Markdown: what the promise is, linking to its definition in the terms.'),
        for: z
          .array(identity().min(1))
          .min(1)
          .optional()
          .meta({
            description:
              "The catalogue's kinds of service (a sub-category's `service:`) the promise applies to; all without it.",
            examples: [['views'], ['followers', 'likes']],
          }),
      }),
    )
    .min(1)
    .describe("The promises of a service page's why-choose section, each defined in the terms."),
  contactBlock: z.strictObject({ eyebrow: text.optional(), heading: text, text, buttonLabel: text }),
  contactChannels: z.array(
    z.strictObject({
      icon: z.enum(['chat', 'email', 'phone']),
      title: text,
      desc: text,
      contact: identity().describe('The address or number shown, often a token: {{supportEmail}}.'),
    }),
  ),
  paymentBrands: z
    .array(z.enum(['visa', 'mastercard', 'paypal', 'apple-pay', 'google-pay']))
    .length(5)
    .describe('The five payment marks of the footer, in the order shown.'),
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
  legalName: name.meta({
    description: 'The legal name of the company or person selling: as registered, not the brand.',
    examples: ['Example Trading Ltd'],
  }),
  /** Companies House number: eight digits, or two letters and six digits (SC, NI, OC...). Absent for a sole trader. */
  company: z
    .strictObject({
      number: identity()
        .regex(
          /^(\d{8}|[A-Z]{2}\d{6})$/,
          'must be a Companies House number: eight digits, or two letters and six digits',
        )
        .meta({
          description:
            'The Companies House number: eight digits, or two letters and six digits (SC, NI, OC...). ' +
            'Quote it in YAML.',
          examples: ['01234567', 'SC123456'],
        }),
      registeredIn: z
        .enum(['England and Wales', 'Scotland', 'Northern Ireland'])
        .describe('Where the company is registered.'),
    })
    .optional()
    .describe('The registered company; leave it out for a sole trader or a partnership.'),
  /** A geographic address where the trader can be found, not a PO box. */
  address: z
    .strictObject({
      street: z
        .array(name)
        .min(1)
        .max(3)
        .meta({
          description: 'One to three lines of street address.',
          examples: [['Unit 1', 'Example Business Park']],
        }),
      town: name.meta({ description: 'The town or city.', examples: ['Exampleton'] }),
      postcode: identity()
        .trim()
        .regex(/^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/, 'must be a UK postcode in capitals, such as SW1A 2AA')
        // The value is trimmed before the pattern: the JSON Schema allows the spaces around it too.
        .meta({
          description: 'A UK postcode in capitals.',
          examples: ['SW1A 2AA'],
          pattern: /^\s*[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\s*$/.source,
        }),
      country: name.meta({ description: 'The country.', examples: ['United Kingdom'] }),
    })
    .describe('A geographic address where the trader can be found, not a PO box.'),
  /** Only when registered for VAT: GB and nine digits (twelve for a branch). */
  vatNumber: identity()
    .regex(/^GB(\d{9}|\d{12})$/, 'must be GB followed by nine (or twelve) digits, without spaces')
    .optional()
    .meta({
      description: 'Only when registered for VAT: GB and nine digits (twelve for a branch), no spaces.',
      examples: ['GB123456789'],
    }),
  phone: identity()
    .trim()
    .regex(/^\+?\d[\d ]{6,18}\d$/, 'must be a telephone number of digits and spaces, such as +44 20 7946 0000')
    .meta({
      description: 'A telephone number of digits and spaces; quote it in YAML.',
      examples: ['+44 20 7946 0000'],
      pattern: /^\s*\+?\d[\d ]{6,18}\d\s*$/.source,
    }),
});

// WRITABLE_PATH's parts: no unsafe character or segment; the files the build writes itself; its own folders.
const NO_UNSAFE_PART =
  /(?![\s\S]*[\\\u0000-\u001f\u007f])(?![\s\S]*%(?:2[eEfF]|5[cC]))(?![\s\S]*\/\/)(?![\s\S]*\/$)(?![\s\S]*\/[._])/;
const BUILD_FILE = [
  /\/[sS][iI][tT][eE][mM][aA][pP]\.[xX][mM][lL]/,
  /\/[rR][oO][bB][oO][tT][sS]\.[tT][xX][tT]/,
  /\/[bB][lL][oO][gG]\/[fF][eE][eE][dD]\.[xX][mM][lL]/,
  /\/[fF][aA][vV][iI][cC][oO][nN]\.[sS][vV][gG]/,
]
  .map((file) => file.source)
  .join('|');
const NOT_A_BUILD_FOLDER = /(?!\/(?:[aA][sS][sS][eE][tT][sS]|[iI][mM][aA][gG][eE][sS])\/)/;
/**
 * Why the build refuses a redirect's old address (unsafePathReason in route-table.ts, SF125), as
 * one pattern: a backslash or control character, a dot, slash or backslash percent-encoded, an
 * empty segment or a trailing slash, a segment starting with . or _, a file the build writes
 * itself, or its own folders.
 */
const WRITABLE_PATH = new RegExp(
  `^(?:\\/$|${NO_UNSAFE_PART.source}(?!(?:${BUILD_FILE})$)${NOT_A_BUILD_FOLDER.source})`,
);

export const redirectsSchema = z.array(
  z.strictObject({
    from: identity()
      .regex(/^\/[^\s?#]*$/, 'must be a root-relative path')
      .meta({
        description: 'The old or misspelt address, root-relative; answered with a 301 to `to`.',
        examples: ['/buy-instagrm-followers'],
        allOf: [
          {
            pattern: WRITABLE_PATH.source,
            patternErrorMessage:
              'This address cannot be written as a page: no //, trailing slash, part starting with . or _, ' +
              '%2e, %2f or %5c, and not a file or folder the build writes itself.',
          },
        ],
      }),
    to: sitePath.meta(pathMeta('The page it redirects to: a route of the site.')),
  }),
);

const hero = z.strictObject({
  heading: text.describe("The page's one <h1>."),
  intro: markdown.optional().describe('Markdown under the heading.'),
  buttons: z.array(link).max(3).default([]).describe('Up to three buttons under the intro.'),
  platforms: z
    .boolean()
    .default(false)
    .describe(
      'Beside the heading, a tile per platform sold (its services and lowest price), each linking to its ' +
        "packages: the picker's panel on a page with a picker, else the platform's first service page.",
    ),
});

const item = z.strictObject({
  title: text,
  text: markdown.describe('Markdown.'),
  path: sitePath.optional().meta(pathMeta('Makes the item a link to this page of the site.')),
});
const sectionBase = {
  id: sectionId,
  heading: text.describe("The section's <h2>."),
  intro: markdown.optional().describe('Markdown under the heading.'),
};
const kind = <const Kind extends string>(value: Kind, description: string) =>
  z.literal(value).describe(`${description} (kind: ${value})`);

export const sectionSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: kind('steps', 'Numbered steps, with an optional button after them'),
    ...sectionBase,
    items: z.array(item).min(1),
    cta: z
      .strictObject({
        label: text,
        href: identity()
          .url()
          // A link's scheme must be one a visitor may be sent to (check-links.ts, SF121).
          .meta({
            description: 'Where the button goes: an http(s), mailto: or tel: address, often {{checkoutUrl}}.',
            examples: ['{{checkoutUrl}}'],
            pattern: /^\s*(?:[hH][tT][tT][pP][sS]?|[mM][aA][iI][lL][tT][oO]|[tT][eE][lL]):/.source,
            patternErrorMessage: 'Must be an absolute http(s), mailto: or tel: address.',
          }),
      })
      .optional(),
  }),
  z.strictObject({ kind: kind('cards', 'A grid of cards'), ...sectionBase, items: z.array(item).min(1) }),
  z.strictObject({ kind: kind('prose', 'Markdown text'), ...sectionBase, body: markdown.describe('Markdown.') }),
  z.strictObject({ kind: kind('guarantees', 'The guarantees of site.yaml'), ...sectionBase }),
  z.strictObject({ kind: kind('contact', 'The contact block of site.yaml'), id: sectionId }),
  z.strictObject({
    kind: kind('picker', 'The product picker of the home page'),
    ...sectionBase,
    defaultSubCategory: z
      .number()
      .int()
      .meta({ description: 'The catalogue sub-category the picker shows first.', examples: [10] }),
  }),
  z.strictObject({ kind: kind('channels', 'The contact channels of site.yaml'), ...sectionBase }),
  /** The trader's identity (content/trader.yaml), for the contact page. */
  z.strictObject({
    kind: kind('trader', "The trader's identity (content/trader.yaml), for the contact page"),
    ...sectionBase,
  }),
  /**
   * Every service that has a page, as one compact list grouped by platform, with its starting price
   * from the catalogue.
   */
  z.strictObject({
    kind: kind('service-list', 'Every service that has a page, grouped by platform, with its starting price'),
    ...sectionBase,
  }),
]);

const pageBase = {
  path: sitePath.meta(pathMeta("The page's address: a root-relative path, unique among pages, redirects and posts.")),
  title: text.describe("The <title> and the share card's title."),
  description: text.describe('The meta description: a sentence or two.'),
  hero,
  sections: z
    .array(sectionSchema)
    .default([])
    .describe(
      "The page's sections in order; `kind` is one of " +
        'steps, cards, prose, guarantees, contact, picker, channels, trader, service-list.',
    ),
};

export const pageSchema = z.strictObject(pageBase);

export const servicePageSchema = z.strictObject({
  ...pageBase,
  subCategory: z
    .number()
    .int()
    .meta({ description: 'The catalogue sub-category (its id) whose packages the page sells.', examples: [10] }),
  // The heading and the notice only: the introduction is the why-choose section's, after the packages.
  hero: hero.omit({ intro: true, platforms: true }),
  sections: pageBase.sections.refine(
    (sections) => sections.filter((section) => section.kind === 'guarantees').length === 1,
    {
      message:
        'must hold exactly one section of kind: guarantees, ' +
        "the page's why-choose section with the promises of site.yaml",
    },
  ),
  breadcrumb: text.describe("The page's name in the breadcrumb trail."),
  packagesHeading: text.describe('The heading above the package grid.'),
  packagesNote: markdown
    .optional()
    .describe('Markdown under the grid; never a price (prices come from the catalogue).'),
  supportTile: z
    .strictObject({
      heading: text.meta({
        description: 'Names the largest package: "More than 5,000?".',
        examples: ['More than 5,000?'],
      }),
      text,
    })
    .optional()
    .describe('A tile after the packages for larger orders.'),
  faqHeading: text,
  faq: z
    .array(
      z.strictObject({
        q: text.describe('The question.'),
        a: markdown.describe('The answer, Markdown.'),
        id: z
          .literal('platform-rules')
          .optional()
          .describe(
            "platform-rules on the answer about the platform's rules: the line beside the packages links to it.",
          ),
      }),
    )
    .min(1)
    .refine((faq) => faq.filter((item) => item.id === 'platform-rules').length === 1, {
      message:
        "must hold exactly one answer with id: platform-rules (what the platform's rules say of bought engagement): " +
        'the line beside the packages links to it',
    }),
  crossSellHeading: text,
  crossSells: z
    .array(z.number().int())
    .default([])
    .meta({
      description: 'Sub-category ids of other services to suggest; each must have a service page.',
      examples: [[10, 12]],
    }),
  structuredData: z
    .boolean()
    .default(false)
    .describe(
      'Also publish the Organization and WebSite structured data on this page ' +
        '(every service page has its Service and offers).',
    ),
});

export const textPageSchema = z
  .strictObject({
    path: pageBase.path,
    title: pageBase.title,
    description: pageBase.description,
    heading: text.describe("The page's <h1>."),
    /** When the page first appeared (the legal pages: 26 June 2022); shown before `updated`. */
    published: isoDate('When the page first appeared; not after `updated`.').optional(),
    /** When the page's text last changed. */
    updated: isoDate("When the page's text last changed."),
    noindex: z.boolean().default(false).describe('Keep the page out of search engines and the sitemap.'),
  })
  .refine((page) => !page.published || page.published <= page.updated, {
    message: 'published must not be after updated',
    path: ['published'],
  });

/**
 * Where the ratings the site shows come from: one source for the whole site. Either the reviews
 * customers wrote, kept here and shown on the page of the service they reviewed, or a named
 * review platform's figures with the day they were read. Without this file no rating is shown.
 */
const customerReviews = z
  .array(
    z.strictObject({
      /** The catalogue sub-category reviewed. */
      subCategory: z
        .number()
        .int()
        .meta({ description: 'The catalogue sub-category reviewed; it must have a service page.', examples: [10] }),
      author: name.meta({ description: "The reviewer's name as they gave it.", examples: ['Sam K.'] }),
      date: isoDate('When the review was written.'),
      rating: z.number().int().min(1).max(5).describe('Stars, 1 to 5.'),
      text,
    }),
  )
  .min(1);
const platformRating = z.strictObject({
  name: name.meta({ description: 'The review platform.', examples: ['Trustpilot'] }),
  url: identity()
    .url()
    .startsWith('https://', 'must be an https:// address')
    .describe('The page of the platform that shows these figures (https://).'),
  rating: z
    .number()
    .min(1)
    .max(5)
    .meta({ description: 'The average rating shown there, 1 to 5.', examples: [4.5] }),
  count: z.number().int().positive().describe('How many reviews the rating is of.'),
  /** The day the figures were read from the platform. */
  readOn: isoDate('The day the figures were read from the platform.'),
});
/**
 * One object with both keys optional, then exactly one of them required, rather than a union of
 * two objects: a union can only say "Invalid input" of the whole file, this names the field
 * (`reviews[0].author`) as every other file does.
 */
export const reviewsSchema = z
  .strictObject({
    reviews: customerReviews
      .optional()
      .describe('The reviews customers wrote, each shown on the page of the service reviewed.'),
    checked: text
      .optional()
      .describe(
        'With reviews: where they come from and how they are checked, shown above them ' +
          '(DMCC Act 2024, Sch. 20: no fake or unchecked reviews).',
      ),
    platform: platformRating.optional().describe("A review platform's figures, with the day they were read."),
  })
  .meta({ oneOf: [{ required: ['reviews'] }, { required: ['platform'] }], dependentRequired: { reviews: ['checked'] } })
  .refine(
    (file) => (file.reviews === undefined) !== (file.platform === undefined),
    'The file must hold either reviews: [...] or platform: {...}, one of the two',
  )
  .refine((file) => file.reviews === undefined || file.checked !== undefined, {
    message: 'Reviews must say where they come from and how they are checked: add checked: beside them',
    path: ['checked'],
  })
  .transform(
    (
      file,
    ):
      | { reviews: z.output<typeof customerReviews>; checked: string }
      | { platform: z.output<typeof platformRating> } =>
      file.reviews ? { reviews: file.reviews, checked: file.checked! } : { platform: file.platform! },
  );

/**
 * Why the build refuses a post's slug (unsafeSlugReason in post-slug.ts, SF124; unsafePathReason
 * in route-table.ts for /blog/{slug}, SF125), as one pattern: empty, a slash or backslash, "..",
 * a control, space, ?, # or %, an invisible or text-direction character, a start with . or _,
 * or the feed's own file name.
 */
const POST_SLUG = new RegExp(
  /^(?![._])(?![fF][eE][eE][dD]\.[xX][mM][lL]$)(?![\s\S]*\.\.)/.source +
    /[^/\\\s?#%\u0000-\u001f\u007f\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]+$/.source,
);

export const postSchema = z.strictObject({
  title: text,
  /** Not published; shown only by `build --drafts` and `dev`. */
  draft: z.boolean().default(false).describe('Not published; shown only by `build --drafts` and `dev`.'),
  slug: identity()
    .optional()
    .meta({
      description: "The post's address, /blog/{slug}; the file name without .md when left out.",
      examples: ['tiktok-growth-routine'],
      pattern: POST_SLUG.source,
      patternErrorMessage:
        'Must be one part of an address: no slash, "..", space, ?, # or %, not starting with . or _, not feed.xml.',
    }),
  date: isoDate('When the post was published; a later date holds it back until then.'),
  modified: isoDate('When the post last changed.').optional(),
  excerpt: text.describe('One or two sentences for the blog index and the feed.'),
  image: z
    .strictObject({
      src: z
        .string()
        .min(1)
        .meta({
          description: 'The image: /images/{name} for a file of content/images/.',
          examples: ['/images/tiktok-routine.svg'],
        }),
      alt: prose().describe('What the image shows, for those who cannot see it.'),
      width: z
        .number()
        .int()
        .positive()
        .meta({ description: 'Its width in pixels.', examples: [1200] }),
      height: z
        .number()
        .int()
        .positive()
        .meta({ description: 'Its height in pixels.', examples: [630] }),
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

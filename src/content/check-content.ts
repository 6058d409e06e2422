import {
  indexCatalogue,
  isValidPrice,
  PRICE_CEILING,
  slugQuantity,
  formatQuantity,
} from '../catalogue/catalogue-index.js';
import { problem } from '../errors/catalogue.js';
import { problemPlace } from '../errors/problem-place.js';
import type { ProblemList } from '../errors/storefront-error.js';
import { RESERVED_SECTION_IDS, reservedIdClash } from './schemas.js';
import type { SiteContent } from './site-content.js';
import { CATALOGUE_FILE, SITE_FILE } from '../util/content-files.js';
import { formatField } from '../util/field-path.js';

const REVIEWS = 'content/reviews.yaml';

/**
 * Checks that span files: the catalogue's own rules (unique ids, slugs that name their
 * quantity, prices in pence) and every reference from a page to the catalogue. Route and link
 * checks come later, once the route table exists.
 */
export function checkContent(content: SiteContent, problems: ProblemList, now: Date): void {
  checkCatalogue(content, problems, now);
  const services = indexCatalogue(content.catalogue);
  const subCategories = [...services.keys()];
  const pageOfSub = new Set(content.services.map((s) => s.page.subCategory));
  const withoutPage = [...services.keys()].filter(
    (id) => !pageOfSub.has(id) && !content.unreadable.subCategories.includes(id),
  );
  // A service page naming a sub-category the catalogue does not have was meant for one it has, and
  // maybe one that is cross-sold or reviewed: that page is the one problem, not also each of those.
  const pageLost = content.services.some((s) => !services.has(s.page.subCategory));

  for (const { file, page } of content.services) {
    const service = services.get(page.subCategory);
    if (!service) {
      problems.add(
        problem(
          'subCategoryUnknown',
          { subCategory: page.subCategory, withoutPage, subCategories },
          { file, field: 'subCategory' },
        ),
      );
    } else if (service.sub.packages.length === 0) {
      problems.add(
        problem(
          'subCategoryWithoutPackages',
          { subCategory: page.subCategory, service: `${service.platform.name} ${service.sub.name}` },
          { file, field: 'subCategory' },
        ),
      );
    }
    page.crossSells.forEach((id, i) => {
      const target = services.get(id);
      if (!target || target.sub.packages.length === 0) {
        problems.add(
          problem(
            target ? 'crossSellWithoutPackages' : 'crossSellUnknown',
            { id, subCategories },
            {
              file,
              field: `crossSells[${i}]`,
            },
          ),
        );
      } else if (!pageOfSub.has(id) && !content.unreadable.subCategories.includes(id) && !pageLost) {
        problems.add(
          problem(
            'crossSellWithoutPage',
            { id, service: `${target.platform.name} ${target.sub.name}` },
            { file, field: `crossSells[${i}]` },
          ),
        );
      }
    });
    const largest = service && Math.max(0, ...service.sub.packages.map((pkg) => pkg.quantity));
    for (const [field, text] of Object.entries(page.supportTile ?? {})) {
      // The tile sends orders above the grid's largest package to support: it must name that size.
      for (const [named] of text.matchAll(/\d{1,3}(?:,\d{3})+|\d{4,}/g)) {
        if (largest && Number(named.replace(/,/g, '')) !== largest) {
          problems.add(
            problem(
              'supportTileOtherSize',
              { named, largest: formatQuantity(largest), subCategory: page.subCategory },
              { file, field: `supportTile.${field}` },
            ),
          );
        }
      }
    }
    checkSectionIds(file, page.sections, problems);
  }

  for (const { file, page } of content.pages) {
    checkSectionIds(file, page.sections, problems);
    page.sections.forEach((section, i) => {
      if (section.kind === 'picker' && !services.get(section.defaultSubCategory)?.sub.packages.length) {
        problems.add(
          problem(
            'pickerSubCategoryUnknown',
            { subCategory: section.defaultSubCategory, subCategories },
            { file, field: `sections[${i}].defaultSubCategory` },
          ),
        );
      }
    });
  }

  // A review is shown on the page of the service it reviews: it must have one, and be written.
  if (content.reviews && 'reviews' in content.reviews) {
    content.reviews.reviews.forEach((review, i) => {
      const place = { file: REVIEWS, field: `reviews[${i}]` };
      if (!pageOfSub.has(review.subCategory)) {
        if (!pageLost && !content.unreadable.subCategories.includes(review.subCategory))
          problems.add(problem('reviewWithoutPage', { subCategory: review.subCategory }, place));
      } else if (review.date.getTime() > now.getTime()) problems.add(problem('reviewInFuture', {}, place));
    });
  }

  checkFactsOfSales(content, problems);

  content.site.contactChannels.forEach((channel, i) => {
    if (channel.contact.trim() === '') {
      // A warning is one line: the code, the place, the message and the hint.
      const empty = problem(
        'contactChannelEmpty',
        { channel: channel.title, icon: channel.icon },
        { file: SITE_FILE, field: `contactChannels[${i}].contact` },
      );
      content.warnings.push(`${empty.code} ${problemPlace(empty)}  ${empty.message} ${empty.hint}`);
    }
  });
}

/**
 * Every platform with packages has its rules line (shown above each of its grids), every rules line
 * names a platform, and every promise names kinds of service the catalogue sells.
 */
function checkFactsOfSales(content: SiteContent, problems: ProblemList): void {
  const file = SITE_FILE;
  const lineOf = content.lineOf[SITE_FILE] ?? (() => undefined);
  const at = (...path: (string | number)[]) => ({ file, field: formatField(path), line: lineOf(path) });
  const rules = content.site.beforeYouBuy.platformRules;
  const slugs = content.catalogue.platforms.map((platform) => platform.slug);
  for (const platform of content.catalogue.platforms) {
    if (platform.sub.some((sub) => sub.packages.length > 0) && !Object.hasOwn(rules, platform.slug))
      problems.add(
        problem(
          'platformRulesMissing',
          { platform: platform.name, slug: platform.slug },
          at('beforeYouBuy', 'platformRules'),
        ),
      );
  }
  for (const slug of Object.keys(rules))
    if (!slugs.includes(slug))
      problems.add(problem('platformRulesUnknown', { slug, sold: slugs }, at('beforeYouBuy', 'platformRules', slug)));
  const services = [...new Set(content.catalogue.platforms.flatMap((p) => p.sub.map((sub) => sub.service)))];
  content.site.guarantees.forEach((guarantee, i) => {
    guarantee.for?.forEach((service, j) => {
      if (!services.includes(service))
        problems.add(problem('guaranteeForUnknownService', { service, services }, at('guarantees', i, 'for', j)));
    });
  });
}

/** The four fields of a "Most popular" badge's source (schemas.ts), in the order they are written. */
const POPULAR_SOURCE = ['from', 'to', 'orders', 'ofOrders'] as const;

function checkCatalogue(content: SiteContent, problems: ProblemList, now: Date): void {
  const lineOf = content.lineOf[CATALOGUE_FILE] ?? (() => undefined);
  // Field strings like platforms[0].sub[1].packages[2].slug, back to a key path for the line.
  const line = (field: string) =>
    lineOf(
      field
        .split(/[.[\]]+/)
        .filter(Boolean)
        .map((k) => (/^\d+$/.test(k) ? Number(k) : k)),
    );
  const productIds = new Map<number, string>();
  const subIds = new Map<number, string>();
  content.catalogue.platforms.forEach((platform, pi) => {
    platform.sub.forEach((sub, si) => {
      const subField = `platforms[${pi}].sub[${si}]`;
      const seenSub = subIds.get(sub.id);
      if (seenSub) {
        problems.add(
          problem(
            'subCategoryIdTaken',
            { id: sub.id, usedBy: seenSub },
            { file: CATALOGUE_FILE, field: `${subField}.id`, line: line(`${subField}.id`) },
          ),
        );
      } else subIds.set(sub.id, `${platform.name} ${sub.name}`);
      // One grid, one "Most popular": a second badge would say nothing.
      const popular = sub.packages.flatMap((pkg, ki) => (pkg.popular ? [ki] : []));
      for (const ki of popular.slice(1)) {
        const field = `${subField}.packages[${ki}].popular`;
        problems.add(
          problem(
            'secondPopularPackage',
            {
              service: `${platform.name} ${sub.name}`,
              popular: formatQuantity(sub.packages[popular[0]!]!.quantity),
              also: formatQuantity(sub.packages[ki]!.quantity),
            },
            { file: CATALOGUE_FILE, field, line: line(field) },
          ),
        );
      }
      // "Most popular" is a claim, shown only with its source: the period and the orders counted.
      sub.packages.forEach((pkg, ki) => {
        const source = pkg.popular;
        if (!source) return;
        const field = `${subField}.packages[${ki}].popular`;
        const named = { quantity: formatQuantity(pkg.quantity), service: `${platform.name} ${sub.name}` };
        const missing = POPULAR_SOURCE.filter((key) => source[key] === undefined);
        if (missing.length > 0) {
          problems.add(
            missing.length === POPULAR_SOURCE.length
              ? problem('popularWithoutSource', named, { file: CATALOGUE_FILE, field, line: line(field) })
              : problem(
                  'popularSourceIncomplete',
                  { ...named, missing },
                  { file: CATALOGUE_FILE, field, line: line(field) },
                ),
          );
        } else if (source.to!.getTime() > now.getTime()) {
          problems.add(
            problem(
              'popularCountedToFuture',
              { ...named, to: source.to! },
              { file: CATALOGUE_FILE, field: `${field}.to`, line: line(`${field}.to`) },
            ),
          );
        }
      });
      sub.packages.forEach((pkg, ki) => {
        const field = `${subField}.packages[${ki}]`;
        const seen = productIds.get(pkg.id);
        if (seen) {
          problems.add(
            problem(
              'productIdTaken',
              { id: pkg.id, usedBy: seen },
              { file: CATALOGUE_FILE, field: `${field}.id`, line: line(`${field}.id`) },
            ),
          );
        } else productIds.set(pkg.id, `${platform.name} ${sub.name} ${formatQuantity(pkg.quantity)}`);
        const named = slugQuantity(pkg.slug);
        if (named !== pkg.quantity) {
          const place = { file: CATALOGUE_FILE, field: `${field}.slug`, line: line(`${field}.slug`) };
          problems.add(
            named === undefined
              ? problem('slugWithoutQuantity', { slug: pkg.slug }, place)
              : problem(
                  'slugNamesOtherQuantity',
                  { slug: pkg.slug, named: formatQuantity(named), quantity: formatQuantity(pkg.quantity) },
                  place,
                ),
          );
        }
        if (!isValidPrice(pkg.price)) {
          problems.add(
            problem(
              'priceNotPounds',
              { price: pkg.price, ceiling: PRICE_CEILING },
              { file: CATALOGUE_FILE, field: `${field}.price`, line: line(`${field}.price`) },
            ),
          );
        }
      });
    });
  });
}

/**
 * A section cannot take an id the templates give (RESERVED_SECTION_IDS), nor one whose heading's
 * id would be one (`newsletter` → `newsletter-heading`, the footer's).
 */
function checkSectionIds(file: string, sections: readonly { id: string }[], problems: ProblemList): void {
  const seen = new Set<string>();
  sections.forEach((section, i) => {
    const taken = reservedIdClash(section.id);
    if (taken) {
      problems.add(
        problem(
          'sectionIdReserved',
          { id: section.id, taken, reserved: RESERVED_SECTION_IDS },
          { file, field: `sections[${i}].id` },
        ),
      );
    }
    if (seen.has(section.id)) {
      problems.add(problem('sectionIdTwice', { id: section.id }, { file, field: `sections[${i}].id` }));
    }
    seen.add(section.id);
  });
}

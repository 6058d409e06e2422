import {
  indexCatalogue,
  isValidPrice,
  PRICE_CEILING,
  slugQuantity,
  formatQuantity,
} from '../catalogue/catalogue-index.js';
import { codes } from '../errors/catalogue.js';
import type { ProblemList } from '../errors/storefront-error.js';
import { RESERVED_SECTION_IDS } from './schemas.js';
import type { SiteContent } from './site-content.js';

const CATALOGUE = 'content/catalogue.yaml';
const REVIEWS = 'content/reviews.yaml';

/**
 * Checks that span files: the catalogue's own rules (unique ids, slugs that name their
 * quantity, prices in pence) and every reference from a page to the catalogue. Route and link
 * checks come later, once the route table exists.
 */
export function checkContent(content: SiteContent, problems: ProblemList, now: Date): void {
  checkCatalogue(content, problems, now);
  const services = indexCatalogue(content.catalogue);
  const subIdHint = `Use the id of a sub-category of ${CATALOGUE}: ${[...services.keys()].join(', ')}.`;
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
      problems.add({
        code: codes.unknownSubCategory,
        file,
        field: 'subCategory',
        message: `Sub-category ${page.subCategory} is not in the catalogue.`,
        hint: withoutPage.length
          ? `Use the id of a sub-category of ${CATALOGUE}; these have no service page yet: ${withoutPage.join(', ')}.`
          : subIdHint,
      });
    } else if (service.sub.packages.length === 0) {
      problems.add({
        code: codes.unknownSubCategory,
        file,
        field: 'subCategory',
        message: `Sub-category ${page.subCategory} (${service.platform.name} ${service.sub.name}) has no packages to show.`,
        hint: `Add packages to it in ${CATALOGUE}.`,
      });
    }
    page.crossSells.forEach((id, i) => {
      const target = services.get(id);
      if (!target || target.sub.packages.length === 0) {
        problems.add({
          code: codes.unknownSubCategory,
          file,
          field: `crossSells[${i}]`,
          message: target
            ? `Cross-sell ${id} has no packages, so it has no "starting from" price.`
            : `Cross-sell ${id} is not a sub-category of the catalogue.`,
          hint: subIdHint,
        });
      } else if (!pageOfSub.has(id) && !content.unreadable.subCategories.includes(id) && !pageLost) {
        problems.add({
          code: codes.unknownSubCategory,
          file,
          field: `crossSells[${i}]`,
          message: `Cross-sell ${id} (${target.platform.name} ${target.sub.name}) has no service page to link to.`,
          hint: `Remove ${id} from crossSells, or give sub-category ${id} a page in content/services/.`,
        });
      }
    });
    const largest = service && Math.max(0, ...service.sub.packages.map((pkg) => pkg.quantity));
    for (const [field, text] of Object.entries(page.supportTile ?? {})) {
      // The tile sends orders above the grid's largest package to support: it must name that size.
      for (const [named] of text.matchAll(/\d{1,3}(?:,\d{3})+|\d{4,}/g)) {
        if (largest && Number(named.replace(/,/g, '')) !== largest) {
          problems.add({
            code: codes.supportTileMismatch,
            file,
            field: `supportTile.${field}`,
            message: `The support tile speaks of ${named}, but the largest package in the grid is ${formatQuantity(largest)}.`,
            hint: `Write ${formatQuantity(largest)} (the largest package of sub-category ${page.subCategory} in ${CATALOGUE}).`,
          });
        }
      }
    }
    checkSectionIds(file, page.sections, problems);
  }

  for (const { file, page } of content.pages) {
    checkSectionIds(file, page.sections, problems);
    page.sections.forEach((section, i) => {
      if (section.kind === 'picker' && !services.get(section.defaultSubCategory)?.sub.packages.length) {
        problems.add({
          code: codes.unknownSubCategory,
          file,
          field: `sections[${i}].defaultSubCategory`,
          message: `Sub-category ${section.defaultSubCategory} is not in the catalogue or has no packages.`,
          hint: subIdHint,
        });
      }
    });
  }

  // A review is shown on the page of the service it reviews: it must have one, and be written.
  if (content.reviews && 'reviews' in content.reviews) {
    content.reviews.reviews.forEach((review, i) => {
      const problem = !pageOfSub.has(review.subCategory)
        ? pageLost || content.unreadable.subCategories.includes(review.subCategory)
          ? undefined
          : {
              message: `Sub-category ${review.subCategory} has no service page to show this review on.`,
              hint: 'Correct its subCategory to the service the customer reviewed (one with a page in content/services/), or remove the review.',
            }
        : review.date.getTime() > now.getTime()
          ? {
              message: 'The review is dated in the future.',
              hint: 'Correct its date to the day the customer wrote it.',
            }
          : undefined;
      if (problem) {
        problems.add({ code: codes.badReview, file: REVIEWS, field: `reviews[${i}]`, ...problem });
      }
    });
  }

  content.site.contactChannels.forEach((channel, i) => {
    if (channel.contact.trim() === '') {
      content.warnings.push(
        `${codes.emptyContactChannel} content/site.yaml › contactChannels[${i}].contact  The ${channel.title} channel has no contact value and is left out. Set ${channel.icon === 'chat' ? 'MESSAGING_NUMBER' : 'SUPPORT_EMAIL'} to show it.`,
      );
    }
  });
}

/** The four fields of a "Most popular" badge's source (schemas.ts), in the order they are written. */
const POPULAR_SOURCE = ['from', 'to', 'orders', 'ofOrders'] as const;

/** `from and ofOrders`, `from, to and orders`. */
const andList = (words: readonly string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

function checkCatalogue(content: SiteContent, problems: ProblemList, now: Date): void {
  const lineOf = content.lineOf[CATALOGUE] ?? (() => undefined);
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
        problems.add({
          code: codes.duplicateSubCategoryId,
          file: CATALOGUE,
          field: `${subField}.id`,
          line: line(`${subField}.id`),
          message: `Sub-category id ${sub.id} is already used by ${seenSub}.`,
          hint: 'Every sub-category needs its own id.',
        });
      } else subIds.set(sub.id, `${platform.name} ${sub.name}`);
      // One grid, one "Most popular": a second badge would say nothing.
      const popular = sub.packages.flatMap((pkg, ki) => (pkg.popular ? [ki] : []));
      for (const ki of popular.slice(1)) {
        const field = `${subField}.packages[${ki}].popular`;
        problems.add({
          code: codes.twoPopularPackages,
          file: CATALOGUE,
          field,
          line: line(field),
          message: `${platform.name} ${sub.name} already has a most popular package (${formatQuantity(sub.packages[popular[0]!]!.quantity)}); ${formatQuantity(sub.packages[ki]!.quantity)} is marked popular too.`,
          hint: 'Keep popular: on one package of each sub-category, the one most ordered in the period its source counts.',
        });
      }
      // "Most popular" is a claim, shown only with its source: the period and the orders counted.
      sub.packages.forEach((pkg, ki) => {
        const source = pkg.popular;
        if (!source) return;
        const field = `${subField}.packages[${ki}].popular`;
        const named = `The ${formatQuantity(pkg.quantity)} package of ${platform.name} ${sub.name}`;
        const missing = POPULAR_SOURCE.filter((key) => source[key] === undefined);
        if (missing.length > 0) {
          problems.add({
            code: codes.popularWithoutSource,
            file: CATALOGUE,
            field,
            line: line(field),
            message:
              missing.length === POPULAR_SOURCE.length
                ? `${named} is marked "Most popular" without the source of the claim: the period and the orders counted.`
                : `${named} is marked "Most popular" without all of its source: ${andList(missing)} ${missing.length === 1 ? 'is' : 'are'} missing.`,
            hint: `Write the period and the orders counted, from the shop's order records: popular: { from: 2026-08-01, to: 2026-10-31, orders: 412, ofOrders: 1030 } (this package's orders out of all ${platform.name} ${sub.name} orders); or remove popular.`,
          });
        } else if (source.to!.getTime() > now.getTime()) {
          problems.add({
            code: codes.popularWithoutSource,
            file: CATALOGUE,
            field: `${field}.to`,
            line: line(`${field}.to`),
            message: `${named} is marked "Most popular" from orders counted to ${source.to!.toISOString().slice(0, 10)}, a day after this build: those orders are not all placed yet.`,
            hint: 'Count a period that has ended, and write its last day as to.',
          });
        }
      });
      sub.packages.forEach((pkg, ki) => {
        const field = `${subField}.packages[${ki}]`;
        const seen = productIds.get(pkg.id);
        if (seen) {
          problems.add({
            code: codes.duplicateProductId,
            file: CATALOGUE,
            field: `${field}.id`,
            line: line(`${field}.id`),
            message: `Product id ${pkg.id} is already used by ${seen}.`,
            hint: 'Give this package an id no other package has.',
          });
        } else productIds.set(pkg.id, `${platform.name} ${sub.name} ${formatQuantity(pkg.quantity)}`);
        const named = slugQuantity(pkg.slug);
        if (named !== pkg.quantity) {
          problems.add({
            code: codes.slugQuantityMismatch,
            file: CATALOGUE,
            field: `${field}.slug`,
            line: line(`${field}.slug`),
            message:
              named === undefined
                ? `The checkout slug "${pkg.slug}" does not start with a quantity.`
                : `The checkout slug "${pkg.slug}" names ${formatQuantity(named)}, but the package is ${formatQuantity(pkg.quantity)}.`,
            hint: 'Start the slug with the quantity: 1000-ig-likes for 1,000; 10k and 25k for 10,000 and 25,000.',
          });
        }
        if (!isValidPrice(pkg.price)) {
          problems.add({
            code: codes.badPrice,
            file: CATALOGUE,
            field: `${field}.price`,
            line: line(`${field}.price`),
            message: `The price ${pkg.price} is not a positive amount of pounds with at most two decimals, below £${PRICE_CEILING.toLocaleString('en-GB')}.`,
            hint: 'Write prices as pounds, e.g. 4.99 or 10.',
          });
        }
      });
    });
  });
}

/** Ids the templates give to elements of every page; a section cannot take one of them. */
const RESERVED_IDS = new Set(RESERVED_SECTION_IDS);

function checkSectionIds(file: string, sections: readonly { id: string }[], problems: ProblemList): void {
  const seen = new Set<string>();
  sections.forEach((section, i) => {
    if (RESERVED_IDS.has(section.id) || section.id.startsWith('pick-')) {
      problems.add({
        code: codes.duplicateSectionId,
        file,
        field: `sections[${i}].id`,
        message: `The section id "${section.id}" is already used by the page layout.`,
        hint: `Choose another id; these are taken: ${[...RESERVED_IDS].join(', ')}, pick-*.`,
      });
    }
    if (seen.has(section.id)) {
      problems.add({
        code: codes.duplicateSectionId,
        file,
        field: `sections[${i}].id`,
        message: `The section id "${section.id}" is used twice on this page.`,
        hint: 'Section ids become anchors (#id) and must be unique on a page.',
      });
    }
    seen.add(section.id);
  });
}

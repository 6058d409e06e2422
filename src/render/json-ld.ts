import type { Service } from '../catalogue/catalogue-index.js';
import { siteRoot, type Config } from '../config/load-config.js';
import type { Post } from '../content/post.js';
import type { Trader } from '../content/schemas.js';
import type { Crumb } from '../../templates/view-model.js';

/** Structured data (schema.org) objects; the Document escapes them for the script element. */

export function breadcrumbList(crumbs: Crumb[], absolute: (path: string) => string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: crumb.label,
      item: absolute(crumb.path),
    })),
  };
}

/** The trader: trading and legal name, address, contact, company number and VAT number. */
export function organization(config: Config, trader: Trader, absolute: (path: string) => string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': `${siteRoot(config)}/#organization`,
    name: config.brandName,
    legalName: trader.legalName,
    url: absolute('/'),
    logo: absolute('/favicon.svg'),
    email: config.supportEmail,
    telephone: trader.phone,
    address: {
      '@type': 'PostalAddress',
      streetAddress: trader.address.street.join(', '),
      addressLocality: trader.address.town,
      postalCode: trader.address.postcode,
      addressCountry: trader.address.country,
    },
    identifier: trader.company && {
      '@type': 'PropertyValue',
      propertyID: `Companies House (${trader.company.registeredIn})`,
      value: trader.company.number,
    },
    vatID: trader.vatNumber,
  };
}

export function webSite(config: Config, absolute: (path: string) => string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    '@id': `${siteRoot(config)}/#website`,
    name: config.brandName,
    url: absolute('/'),
    inLanguage: 'en-GB',
    publisher: { '@id': `${siteRoot(config)}/#organization` },
  };
}

/**
 * A service page's Service, with an AggregateOffer whose price range and count come from the
 * catalogue (never typed into a page). Every service page has one; no rating or review is added.
 * The provider is the trader's Organization by its @id, named too, since only the home page and
 * Instagram followers carry the full Organization block.
 */
export function serviceWithOffer(
  config: Config,
  service: Service,
  name: string,
  description: string,
  url: string,
): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name,
    description,
    url,
    serviceType: `${service.platform.name} ${service.sub.name}`,
    areaServed: 'GB',
    provider: { '@type': 'Organization', '@id': `${siteRoot(config)}/#organization`, name: config.brandName },
    // A service page of a sub-category without packages fails the build (SF113); no offer then.
    offers:
      service.lowPrice === undefined || service.highPrice === undefined
        ? undefined
        : {
            '@type': 'AggregateOffer',
            priceCurrency: 'GBP',
            lowPrice: service.lowPrice.toFixed(2),
            highPrice: service.highPrice.toFixed(2),
            offerCount: service.sub.packages.length,
            url,
          },
  };
}

export function blogPosting(config: Config, post: Post, url: string, imageUrl: string): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.titleText,
    description: post.excerptText,
    datePublished: post.date.toISOString(),
    dateModified: post.modified.toISOString(),
    mainEntityOfPage: url,
    url,
    image: imageUrl,
    inLanguage: 'en-GB',
    author: { '@type': 'Organization', name: config.brandName },
    publisher: { '@type': 'Organization', name: config.brandName },
  };
}

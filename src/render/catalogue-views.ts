import { buyUrl, formatPrice, formatQuantity, type Service } from '../catalogue/catalogue-index.js';
import type { Catalogue } from '../content/schemas.js';
import { formatDay } from './format-day.js';
import type {
  HeroTile,
  PackageOffer,
  PackageTile,
  PickerGroup,
  ServiceCard,
  ServiceListGroup,
} from '../../templates/view-model.js';

type DeliveryPerDay = NonNullable<Service['sub']['deliveryPerDay']>;

/** How long a package takes at the sub-category's daily pace: "5 to 20 days", "1 day". */
function deliveryDays(quantity: number, pace: DeliveryPerDay): string {
  const [fast, slow] = [Math.ceil(quantity / pace.fastest), Math.ceil(quantity / pace.slowest)];
  return fast === slow ? `${fast} ${fast === 1 ? 'day' : 'days'}` : `${fast} to ${slow} days`;
}

/**
 * "from 1 September to 30 November 2026": the year once when both days are in it; "on 30 November
 * 2026" for one day.
 */
function period(from: Date, to: Date): string {
  const [first, last] = [formatDay(from), formatDay(to)];
  if (first === last) return `on ${last}`;
  return `from ${from.getUTCFullYear() === to.getUTCFullYear() ? first.replace(/ \d+$/, '') : first} to ${last}`;
}

/**
 * The source of a package's "Most popular" badge, in words, from the catalogue (docs/trading.md,
 * "Badge a package only with its source"): "Most popular: 1,000 followers, 412 of 1,030 Instagram
 * followers orders from 1 September to 30 November 2026." Undefined without a whole source, which
 * the content check has refused (SF118) before anything is rendered.
 */
export function popularSourceText(service: Service, pkg: Service['sub']['packages'][number]): string | undefined {
  const { from, to, orders, ofOrders } = pkg.popular ?? {};
  if (!from || !to || orders === undefined || ofOrders === undefined) return undefined;
  const unit = service.sub.name.toLowerCase();
  return (
    `Most popular: ${formatQuantity(pkg.quantity)} ${unit}, ` +
    `${formatQuantity(orders)} of ${formatQuantity(ofOrders)} ${service.platform.name} ${unit} orders ` +
    `${period(from, to)}.`
  );
}

/** The pace itself, for the line above a paced grid: "50 to 200 watch hours a day". */
export function deliveryPace(pace: DeliveryPerDay, unit: string): string {
  const rate =
    pace.slowest === pace.fastest
      ? formatQuantity(pace.fastest)
      : `${formatQuantity(pace.slowest)} to ${formatQuantity(pace.fastest)}`;
  return `${rate} ${unit.toLowerCase()} a day`;
}

/** A package's price for 1,000 of its units, to the penny: "£18.90 per 1,000". */
function pricePerThousand(price: number, quantity: number): string {
  return `${formatPrice(Math.round((price * 100_000) / quantity) / 100)} per 1,000`;
}

/**
 * Package tiles of one sub-category, each with its Buy Now link to the checkout site, its price
 * per 1,000, how long it takes where the service is delivered at a known daily pace, and the
 * popular one's source.
 */
export function packageTiles(service: Service, checkoutUrl: string): PackageTile[] {
  const pace = service.sub.deliveryPerDay;
  return service.sub.packages.map((pkg) => {
    const source = popularSourceText(service, pkg);
    return {
      id: pkg.id,
      label: `${formatQuantity(pkg.quantity)} ${service.sub.name}`,
      quantity: formatQuantity(pkg.quantity),
      unit: service.sub.name,
      price: formatPrice(pkg.price),
      perThousand: pricePerThousand(pkg.price, pkg.quantity),
      buyUrl: buyUrl(checkoutUrl, pkg.slug),
      delivery: pace && `Delivered over ${deliveryDays(pkg.quantity, pace)}`,
      popular: source === undefined ? undefined : { source },
    };
  });
}

/** A service's name as a heading shows it, in sentence case: "TikTok followers". */
function serviceName(service: Service): string {
  return `${service.platform.name} ${service.sub.name.toLowerCase()}`;
}

/** A cross-sell card: the price is derived from the catalogue, the rating from the reviews (when there are any). */
export function serviceCard(service: Service, path: string, rating: string | undefined): ServiceCard {
  return {
    name: serviceName(service),
    path,
    platform: service.platform.slug,
    fromPrice: formatPrice(service.lowPrice!),
    rating,
  };
}

/** The home picker: platforms with listed products, each sub-category a tab with its offer. */
export function pickerGroups(
  catalogue: Catalogue,
  services: ReadonlyMap<number, Service>,
  pathOfSub: ReadonlyMap<number, string>,
  offer: (subCategory: number) => PackageOffer,
): PickerGroup[] {
  return catalogue.platforms
    .map((platform) => ({
      platform: platform.name,
      tabs: platform.sub
        .filter((sub) => sub.packages.length > 0)
        .map((sub) => ({
          id: sub.id,
          label: sub.name,
          heading: serviceName(services.get(sub.id)!),
          path: pathOfSub.get(sub.id),
          offer: offer(sub.id),
        })),
    }))
    .filter((group) => group.tabs.length > 0);
}

/**
 * The platform of every service page, by its path: a card or a button linking to one shows that
 * platform's mark. Derived from the page's sub-category, never from the link's text.
 */
export function platformOfPaths(
  services: ReadonlyMap<number, Service>,
  pages: readonly { path: string; subCategory: number }[],
): Map<string, string> {
  const platforms = new Map<string, string>();
  for (const page of pages) {
    const service = services.get(page.subCategory);
    if (service) platforms.set(page.path, service.platform.slug);
  }
  return platforms;
}

/** "Followers, likes and views": a platform's services as a phrase. */
function listOf(names: string[]): string {
  const words = names.map((name, i) => (i === 0 ? name : name.toLowerCase()));
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * A hero's platform tiles: each platform with listed packages, its services and lowest price,
 * linking to `linkTo` of its listed sub-categories, the one of that lowest price first (a
 * picker's panel, or a service page): the tile leads to the price it shows.
 */
export function platformTiles(
  catalogue: Catalogue,
  services: ReadonlyMap<number, Service>,
  linkTo: (subCategories: number[]) => string,
): HeroTile[] {
  return catalogue.platforms.flatMap((platform) => {
    const listed = platform.sub.filter((sub) => sub.packages.length > 0);
    if (listed.length === 0) return [];
    // Cheapest first: its price is the tile's, and the tile leads there.
    const byPrice = listed.map((sub) => services.get(sub.id)!).sort((a, b) => a.lowPrice! - b.lowPrice!);
    return [
      {
        platform: platform.slug,
        name: platform.name,
        detail: listOf(listed.map((sub) => sub.name)),
        fromPrice: formatPrice(byPrice[0]!.lowPrice!),
        href: linkTo(byPrice.map((service) => service.sub.id)),
      },
    ];
  });
}

/** Every service that has a page, grouped by platform in catalogue order, with its starting price. */
export function serviceListGroups(
  catalogue: Catalogue,
  services: ReadonlyMap<number, Service>,
  pathOfSub: ReadonlyMap<number, string>,
): ServiceListGroup[] {
  return catalogue.platforms
    .map((platform) => ({
      platform: platform.name,
      slug: platform.slug,
      services: platform.sub.flatMap((sub) => {
        const path = pathOfSub.get(sub.id);
        const low = services.get(sub.id)?.lowPrice;
        return path && low !== undefined ? [{ name: sub.name, path, fromPrice: formatPrice(low) }] : [];
      }),
    }))
    .filter((group) => group.services.length > 0);
}

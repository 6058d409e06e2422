import { buyUrl, formatPrice, formatQuantity, type Service } from '../catalogue/catalogue-index.js';
import type { Catalogue } from '../content/schemas.js';
import type { PackageTile, PickerGroup, ServiceCard } from '../../templates/view-model.js';

type DeliveryPerDay = NonNullable<Service['sub']['deliveryPerDay']>;

/** How long a package takes at the sub-category's daily pace: "5 to 20 days", "1 day". */
function deliveryDays(quantity: number, pace: DeliveryPerDay): string {
  const [fast, slow] = [Math.ceil(quantity / pace.fastest), Math.ceil(quantity / pace.slowest)];
  return fast === slow ? `${fast} ${fast === 1 ? 'day' : 'days'}` : `${fast} to ${slow} days`;
}

/** The pace itself, for the note under the grid: "50 to 200 Watch Hours a day". */
export function deliveryPace(pace: DeliveryPerDay, unit: string): string {
  const rate = pace.slowest === pace.fastest ? formatQuantity(pace.fastest) : `${formatQuantity(pace.slowest)} to ${formatQuantity(pace.fastest)}`;
  return `${rate} ${unit.toLowerCase()} a day`;
}

/**
 * Package tiles of one sub-category, each with its Buy Now link to the checkout site, and how
 * long it takes where the service is delivered at a known daily pace.
 */
export function packageTiles(service: Service, checkoutUrl: string): PackageTile[] {
  const pace = service.sub.deliveryPerDay;
  return service.sub.packages.map((pkg) => ({
    id: pkg.id,
    label: `${formatQuantity(pkg.quantity)} ${service.sub.name}`,
    quantity: formatQuantity(pkg.quantity),
    unit: service.sub.name,
    price: formatPrice(pkg.price),
    buyUrl: buyUrl(checkoutUrl, pkg.slug),
    delivery: pace && `Delivered over ${deliveryDays(pkg.quantity, pace)}`,
  }));
}

/** A cross-sell card: the price is derived from the catalogue, the rating from the reviews (when there are any). */
export function serviceCard(service: Service, path: string, rating: string | undefined): ServiceCard {
  return { name: `${service.platform.name} ${service.sub.name}`, path, fromPrice: formatPrice(service.lowPrice!), rating };
}

/** The home picker: platforms with listed products, each sub-category a tab. */
export function pickerGroups(
  catalogue: Catalogue,
  services: ReadonlyMap<number, Service>,
  pathOfSub: ReadonlyMap<number, string>,
  checkoutUrl: string,
): PickerGroup[] {
  return catalogue.platforms
    .map((platform) => ({
      platform: platform.name,
      tabs: platform.sub
        .filter((sub) => sub.packages.length > 0)
        .map((sub) => ({
          id: sub.id,
          label: sub.name,
          path: pathOfSub.get(sub.id),
          packages: packageTiles(services.get(sub.id)!, checkoutUrl),
        })),
    }))
    .filter((group) => group.tabs.length > 0);
}

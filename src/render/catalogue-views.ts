import { formatPrice, formatQuantity, type Service } from '../catalogue/catalogue-index.js';
import type { Catalogue } from '../content/schemas.js';
import type { PackageTile, PickerGroup, ServiceCard } from '../../templates/view-model.js';

/** Package tiles of one sub-category, each with its Buy Now link to the checkout site. */
export function packageTiles(service: Service, checkoutUrl: string): PackageTile[] {
  return service.sub.packages.map((pkg) => ({
    id: pkg.id,
    label: `${formatQuantity(pkg.quantity)} ${service.sub.name}`,
    quantity: formatQuantity(pkg.quantity),
    unit: service.sub.name,
    price: formatPrice(pkg.price),
    buyUrl: `${checkoutUrl}/product/${encodeURIComponent(pkg.slug)}`,
  }));
}

/** A cross-sell card: the price, rating and review count are derived, never typed. */
export function serviceCard(service: Service, path: string): ServiceCard {
  return {
    name: `${service.platform.name} ${service.sub.name}`,
    path,
    fromPrice: formatPrice(service.lowPrice!),
    rating: service.rating!.value,
    reviews: service.rating!.count,
  };
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

import { gridClass, PACKAGE_COLUMNS } from '../grid.js';
import type { PackageTile } from '../view-model.js';

/**
 * Package tiles with Buy Now links to the external checkout, each with its price per 1,000 (and
 * its days, where delivery goes at a pace); the one most people take is badged.
 * The support tile takes a row of its own after them (styles.css), so it is not counted in the columns.
 */
export function PackageGrid({
  packages,
  labelledBy,
  supportTile,
}: {
  packages: PackageTile[];
  labelledBy?: string;
  supportTile?: { heading: string; text: string };
}) {
  // The badge's source, in words, once per grid, right after it (docs/trading.md).
  const popularSource = packages.find((pkg) => pkg.popular)?.popular?.source;
  const grid = (
    <ul className={`${gridClass(packages.length, PACKAGE_COLUMNS)} package-grid`} aria-labelledby={labelledBy}>
      {packages.map((pkg) => (
        <li className={pkg.popular ? 'package package-popular' : 'package'} key={pkg.id}>
          {pkg.popular ? <p className="package-badge">Most popular</p> : null}
          <p className="package-quantity">
            <span className="package-number">{pkg.quantity}</span> <span className="package-unit">{pkg.unit}</span>
          </p>
          <p className="package-price" data-price>
            {pkg.price}
          </p>
          <p className="package-detail">
            {pkg.perThousand}
            {pkg.delivery ? (
              <>
                <br />
                {pkg.delivery}
              </>
            ) : null}
          </p>
          <a className="button button-block" href={pkg.buyUrl}>
            Buy Now
            <span className="visually-hidden">
              {`: ${pkg.label} for ${pkg.price}${pkg.popular ? ', our most popular package' : ''}`}
            </span>
          </a>
        </li>
      ))}
      {supportTile ? (
        <li className="package package-support">
          <p className="package-quantity">{supportTile.heading}</p>
          <p className="package-support-text">{supportTile.text}</p>
          <a className="button button-block button-ghost" href="/contact">
            Contact support
          </a>
        </li>
      ) : null}
    </ul>
  );
  return popularSource ? (
    <>
      {grid}
      <p className="package-popular-source">{popularSource}</p>
    </>
  ) : (
    grid
  );
}

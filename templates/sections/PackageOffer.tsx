import type { PackageOffer as Offer } from '../view-model.js';
import { Html } from './Html.js';
import { PackageGrid } from './PackageGrid.js';

/**
 * A service's packages, with what a buyer must know first above them, in body-size text: the
 * platform's rules (the worst that may happen, linked to the full answer) and how delivery goes.
 */
export function PackageOffer({
  offer,
  labelledBy,
  supportTile,
}: {
  offer: Offer;
  labelledBy: string;
  supportTile?: { heading: string; text: string };
}) {
  return (
    <>
      <Html value={offer.rules} className="package-rules" />
      <p className="package-delivery-line">
        {offer.delivery}
        {offer.pace ? ` Pace: ${offer.pace}.` : null}
      </p>
      <PackageGrid packages={offer.packages} labelledBy={labelledBy} supportTile={supportTile} />
    </>
  );
}

import type { TraderView } from '../view-model.js';

/** The trader's identity in full, as the contact page shows it. */
export function TraderDetails({ trader }: { trader: TraderView }) {
  const rows: [string, React.ReactNode][] = [
    ['Trading name', trader.tradingName],
    ['Legal name', trader.legalName],
    ['Address', trader.address],
  ];
  if (trader.company) rows.push(['Company number', trader.company]);
  if (trader.vatNumber) rows.push(['VAT number', trader.vatNumber]);
  rows.push(
    ['E-mail', <a href={`mailto:${trader.email}`}>{trader.email}</a>],
    ['Telephone', <a href={trader.phoneHref}>{trader.phone}</a>],
  );
  return (
    <dl className="trader-details">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

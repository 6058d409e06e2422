import type { Trader } from './schemas.js';

/** The trader's address on one line: street, town, postcode, country. */
export function traderAddress(trader: Trader): string {
  const { street, town, postcode, country } = trader.address;
  return [...street, `${town} ${postcode}`, country].join(', ');
}

/**
 * Who the customer is buying from, in one sentence fragment for the footer, the terms and the
 * privacy policy: legal name, register and number, address, VAT number.
 */
export function traderIdentity(trader: Trader): string {
  const company = trader.company
    ? `, a company registered in ${trader.company.registeredIn} with company number ${trader.company.number}, ` +
      'whose registered office is at '
    : ', of ';
  const vat = trader.vatNumber ? ` (VAT number ${trader.vatNumber})` : '';
  return `${trader.legalName}${company}${traderAddress(trader)}${vat}`;
}

import { defaults, envNames, type Config } from '../config/load-config.js';
import { problem } from '../errors/catalogue.js';
import type { ProblemList } from '../errors/storefront-error.js';
import type { Trader } from './schemas.js';
import { CONFIG_FILE, TRADER_FILE } from '../util/content-files.js';

/**
 * Whether a host name is kept for tests, examples and this machine (RFC 2606, RFC 6761): a site
 * there is not a real shop, so its example values may stand.
 */
export function isReservedHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (
    /^(example\.(com|net|org)|localhost)$/.test(host) ||
    /\.(example\.(com|net|org)|test|example|invalid|localhost)$/.test(host)
  )
    return true;
  return /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
}

/**
 * Ofcom's numbers kept for drama and examples, as national numbers: each prefix is followed by
 * three or four more digits (https://www.ofcom.org.uk, "Telephone numbers for use in TV and
 * radio drama").
 */
const DRAMA_PREFIXES = [
  '01134960',
  '01144960',
  '01154960',
  '01164960',
  '01174960',
  '01184960',
  '01214960',
  '01314960',
  '01414960',
  '01514960',
  '01614960',
  '01914980',
  '02079460',
  '02896496',
  '02920180',
  '01632960',
  '07700900',
  '08081570',
  '09098790',
  '03069990',
];

/** Whether a telephone number is one of Ofcom's drama numbers, written nationally or with +44. */
export function isDramaNumber(phone: string): boolean {
  // +44 (0)20 …: the (0) is the trunk prefix written for readers, not dialled after +44.
  const digits = phone
    .replace(/\(0\)/g, '')
    .replace(/[^\d+]/g, '')
    .replace(/^\+44/, '0')
    .replace(/^0044/, '0');
  return DRAMA_PREFIXES.some((prefix) => digits.startsWith(prefix));
}

/**
 * Refuses, for a site at a real address, the example values the repository ships with so that
 * it builds out of the box: example domains, drama telephone numbers, the default brand and the
 * example trader. One problem each, naming where the value is set.
 */
export function checkPlaceholders(config: Config, trader: Trader, problems: ProblemList): void {
  const { siteUrl } = config;
  // A setting's problem names the site's address and the setting's environment variable.
  const setting = (field: keyof Config) => ({ siteUrl, variable: envNames[field] });
  const inConfig = (field: keyof Config) => ({ file: CONFIG_FILE, field });
  const reservedUrl = (url: string) => url !== '' && isReservedHost(new URL(url).hostname);
  if (config.brandName === defaults.brandName) {
    const values = { brand: defaults.brandName, ...setting('brandName') };
    problems.add(problem('placeholderBrand', values, inConfig('brandName')));
  }
  for (const field of ['checkoutUrl', 'newsletterUrl', 'cmsApiUrl'] as const) {
    if (reservedUrl(config[field]))
      problems.add(problem('placeholderAddress', { address: config[field], ...setting(field) }, inConfig(field)));
  }
  if (isReservedHost(config.supportEmail.split('@').pop() ?? '')) {
    const values = { address: config.supportEmail, ...setting('supportEmail') };
    problems.add(problem('placeholderAddress', values, inConfig('supportEmail')));
  }
  // A real shop's sign-up form sends e-mail addresses: never in clear text.
  if (config.newsletterUrl.startsWith('http:')) {
    const values = { url: config.newsletterUrl, ...setting('newsletterUrl') };
    problems.add(problem('newsletterUnencrypted', values, inConfig('newsletterUrl')));
  }
  if (config.messagingNumber && isDramaNumber(config.messagingNumber)) {
    const values = { number: config.messagingNumber, ...setting('messagingNumber') };
    problems.add(problem('placeholderDramaNumber', values, inConfig('messagingNumber')));
  }

  const inTrader = (field: string) => ({ file: TRADER_FILE, field });
  const texts: [string, string][] = [
    ['legalName', trader.legalName],
    ...trader.address.street.map((line, i): [string, string] => [`address.street[${i}]`, line]),
    ['address.town', trader.address.town],
  ];
  for (const [field, value] of texts)
    if (/example/i.test(value)) problems.add(problem('traderExampleValue', { value, siteUrl }, inTrader(field)));
  // The example postcode and VAT number of content/trader.yaml, in case they are kept.
  const { postcode } = trader.address;
  if (postcode === 'AB1 2CD')
    problems.add(problem('traderExamplePostcode', { postcode, siteUrl }, inTrader('address.postcode')));
  if (trader.vatNumber === 'GB123456789')
    problems.add(problem('traderExampleVatNumber', { vatNumber: trader.vatNumber, siteUrl }, inTrader('vatNumber')));
  if (trader.company && /^0+$/.test(trader.company.number))
    problems.add(
      problem('traderCompanyNumberZeros', { number: trader.company.number, siteUrl }, inTrader('company.number')),
    );
  if (isDramaNumber(trader.phone))
    problems.add(problem('traderDramaNumber', { phone: trader.phone, siteUrl }, inTrader('phone')));
}

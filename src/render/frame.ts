import type { Config } from '../config/load-config.js';
import type { SiteContent } from '../content/load-content.js';
import { traderAddress, traderIdentity } from '../content/trader.js';
import type { Frame } from '../../templates/view-model.js';

function channelHref(icon: 'chat' | 'email' | 'phone', contact: string): string {
  if (icon === 'email') return `mailto:${contact}`;
  if (icon === 'phone') return `tel:${contact.replace(/[^\d+]/g, '')}`;
  return `https://wa.me/${contact.replace(/[^\d]/g, '')}`;
}

/** The parts of a page that every route shares; computed once per build, then per path. */
export function makeFrameFactory(
  config: Config,
  content: SiteContent,
  assets: { stylesheetHref: string; scriptHref: string },
  now: Date,
): (routePath: string) => Frame {
  const servicePaths = new Set(content.services.map((s) => s.page.path));
  const site = content.site;
  const shared: Omit<Frame, 'currentPath' | 'servicesActive'> = {
    brandName: config.brandName,
    mainLinks: site.navigation.main,
    servicesMenu: site.navigation.services,
    usefulLinks: site.footer.usefulLinks,
    serviceLinks: site.footer.serviceLinks,
    footerBlurb: site.footerBlurb,
    contactChannels: site.contactChannels
      .filter((c) => c.contact.trim() !== '')
      .map((c) => ({ ...c, href: channelHref(c.icon, c.contact) })),
    contactBlock: site.contactBlock,
    paymentBrands: site.paymentBrands,
    trader: {
      identity: traderIdentity(content.trader),
      legalName: content.trader.legalName,
      tradingName: config.brandName,
      address: traderAddress(content.trader),
      company:
        content.trader.company &&
        `${content.trader.company.number}, registered in ${content.trader.company.registeredIn}`,
      vatNumber: content.trader.vatNumber,
      email: config.supportEmail,
      phone: content.trader.phone,
      phoneHref: `tel:${content.trader.phone.replace(/ /g, '')}`,
    },
    newsletter: config.newsletterUrl
      ? { url: config.newsletterUrl, emailField: config.newsletterEmailField }
      : undefined,
    year: now.getUTCFullYear(),
    ...assets,
  };
  return (routePath) => ({ ...shared, currentPath: routePath, servicesActive: servicePaths.has(routePath) });
}

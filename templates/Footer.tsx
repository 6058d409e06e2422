import { ChatIcon, EmailIcon, LogoMark } from './Icons.js';
import { PaymentLogos } from './PaymentLogos.js';
import type { Frame, NavLink } from './view-model.js';

function LinkList({ title, links }: { title: string; links: NavLink[] }) {
  return (
    <nav className="footer-links" aria-label={title}>
      <h2 className="footer-heading">{title}</h2>
      <ul>
        {links.map((link) => (
          <li key={link.path}>
            <a href={link.path}>{link.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Footer({ frame }: { frame: Frame }) {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-about">
          <a className="brand brand-footer" href="/">
            <LogoMark />
            <span>{frame.brandName}</span>
          </a>
          <p>{frame.footerBlurb}</p>
          <ul className="footer-channels">
            {frame.contactChannels.map((channel) => (
              <li key={channel.title}>
                {channel.icon === 'email' ? <EmailIcon size={18} /> : <ChatIcon size={18} />}
                <span>
                  {channel.title}: <a href={channel.href}>{channel.contact}</a>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <LinkList title="Useful links" links={frame.usefulLinks} />
        <LinkList title="Services" links={frame.serviceLinks} />
        <div className="footer-newsletter">
          <h2 className="footer-heading" id="newsletter-heading">
            Newsletter
          </h2>
          <p>Tips for growing your audience, and our offers, once a month.</p>
          <form className="newsletter" action={frame.newsletterUrl} method="post" aria-labelledby="newsletter-heading" data-newsletter>
            <label htmlFor="newsletter-email">Email address</label>
            <div className="newsletter-row">
              <input id="newsletter-email" name="email" type="email" required autoComplete="email" placeholder="you@example.com" />
              <button type="submit" className="button">
                Subscribe
              </button>
            </div>
            <p className="newsletter-status" role="status" aria-live="polite" data-newsletter-status></p>
          </form>
        </div>
      </div>
      <div className="container footer-bottom">
        <PaymentLogos brandIds={frame.paymentBrands} />
        <p>
          © <span data-year>{frame.year}</span> {frame.brandName}. All prices in GBP.
        </p>
        <p className="footer-trader">
          {frame.brandName} is a trading name of {frame.trader.identity}. E-mail{' '}
          <a href={`mailto:${frame.trader.email}`}>{frame.trader.email}</a>, telephone{' '}
          <a href={`tel:${frame.trader.phone.replace(/ /g, '')}`}>{frame.trader.phone}</a>.
        </p>
      </div>
    </footer>
  );
}

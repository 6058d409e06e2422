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

/**
 * A plain form posting to the newsletter provider, whose own page confirms the sign-up (the
 * providers' endpoints do not let a script read their answer). The consent line says what the
 * visitor agrees to, as PECR asks of marketing e-mail.
 */
function Newsletter({ url, emailField }: { url: string; emailField: string }) {
  return (
    <div className="footer-newsletter">
      <h2 className="footer-heading" id="newsletter-heading">
        Newsletter
      </h2>
      <p>Tips for growing your audience, and our offers, once a month.</p>
      <form className="newsletter" action={url} method="post" aria-labelledby="newsletter-heading">
        <label htmlFor="newsletter-email">Email address</label>
        <div className="newsletter-row">
          <input
            id="newsletter-email"
            name={emailField}
            type="email"
            required
            autoComplete="email"
            placeholder="you@example.com"
            aria-describedby="newsletter-consent"
          />
          <button type="submit" className="button">
            Subscribe
          </button>
        </div>
        <p className="newsletter-consent" id="newsletter-consent">
          By subscribing you agree to receive our newsletter by e-mail. You can unsubscribe at any time from any issue.
          How we use your address: <a href="/privacy-policy">privacy policy</a>.
        </p>
      </form>
    </div>
  );
}

export function Footer({ frame }: { frame: Frame }) {
  return (
    <footer className="site-footer">
      <div className={frame.newsletter ? 'container footer-grid' : 'container footer-grid footer-grid-three'}>
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
        {frame.newsletter ? <Newsletter {...frame.newsletter} /> : null}
      </div>
      <div className="container footer-bottom">
        <PaymentLogos brandIds={frame.paymentBrands} />
        <p>
          © <span data-year>{frame.year}</span> {frame.brandName}. All prices in GBP.
        </p>
        <p className="footer-trader">
          {frame.brandName} is a trading name of {frame.trader.identity}. E-mail{' '}
          <a href={`mailto:${frame.trader.email}`}>{frame.trader.email}</a>, telephone{' '}
          <a href={frame.trader.phoneHref}>{frame.trader.phone}</a>.
        </p>
      </div>
    </footer>
  );
}

import type { ReactNode } from 'react';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import type { Frame, Head } from './view-model.js';

/**
 * JSON for a <script type="application/ld+json"> element. `<`, `>` and `&` are escaped as
 * \u003c etc. (still valid JSON), so no content can close the script element early.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export interface DocumentProps {
  frame: Frame;
  head: Head;
  children: ReactNode;
  /**
   * Stand-ins for the header and footer. The renderer passes placeholders and splices in
   * header and footer HTML it rendered once, since they are the same on most pages.
   */
  header?: ReactNode;
  footer?: ReactNode;
}

export function Document({ frame, head, children, header, footer }: DocumentProps) {
  return (
    <html lang="en-GB">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        {head.noindex ? <meta name="robots" content="noindex" /> : null}
        {head.canonicalUrl ? <link rel="canonical" href={head.canonicalUrl} /> : null}
        <meta property="og:type" content={head.ogType} />
        <meta property="og:site_name" content={frame.brandName} />
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        {head.canonicalUrl ? <meta property="og:url" content={head.canonicalUrl} /> : null}
        <meta property="og:image" content={head.ogImageUrl} />
        {/* Every og:image is 1200 x 630: a share card (src/images/share-cards.ts), or a post's image cut to it
            (process-images.ts). */}
        <meta property="og:image:width" content="1200" />
        <meta property="og:image:height" content="630" />
        <meta property="og:image:alt" content={head.ogImageAlt} />
        <meta property="og:locale" content="en_GB" />
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="twitter:title" content={head.title} />
        <meta name="twitter:description" content={head.description} />
        <meta name="twitter:image" content={head.ogImageUrl} />
        <meta name="twitter:image:alt" content={head.ogImageAlt} />
        <meta name="theme-color" content="#4338ca" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="alternate" type="application/atom+xml" href="/blog/feed.xml" title={`${frame.brandName} blog`} />
        <link rel="stylesheet" href={frame.stylesheetHref} />
        <script src={frame.scriptHref} defer />
        {head.jsonLd.map((data, i) => (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON that scriptSafeJson escaped for a script element
          <script key={i} type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptSafeJson(data) }} />
        ))}
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {header ?? <Header frame={frame} />}
        <main id="main">{children}</main>
        {footer ?? <Footer frame={frame} />}
      </body>
    </html>
  );
}

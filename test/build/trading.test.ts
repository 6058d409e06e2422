/**
 * Trading lawfully and honestly in the UK (issue 18, docs/trading.md): the
 * trader's identity where the law expects it, and the guard that keeps example values out of a
 * build for a real site address; honest copy about what is sold (issue 27). Everything is
 * checked through the built HTML of the real CLI.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { editFile, runCli, projectsOfThisFile } from '../helpers.js';
import { isDramaNumber } from '../../src/content/placeholders.js';
import { pageCounts } from '../support/content-counts.js';

const project = projectsOfThisFile();

async function page(root: string, file: string): Promise<HTMLElement> {
  return parseHtml(await readFile(path.join(root, 'dist', file), 'utf8'));
}

const jsonLd = (html: HTMLElement) =>
  html
    .querySelectorAll('script[type="application/ld+json"]')
    .map((s) => JSON.parse(s.textContent) as Record<string, unknown>);

/** The example trader of content/trader.yaml, replaced by real-looking details. */
const REAL_TRADER = `legalName: Brightgrow Media Ltd
company: { number: SC123456, registeredIn: Scotland }
address: { street: [12 Harbour Lane], town: Leith, postcode: EH6 6QT, country: United Kingdom }
vatNumber: GB987654321
phone: "+44 131 555 0142"
`;
const REAL_SETTINGS = {
  SITE_URL: 'https://www.brightgrow.co.uk',
  BRAND_NAME: 'Brightgrow',
  CHECKOUT_URL: 'https://pay.brightgrow.co.uk',
  SUPPORT_EMAIL: 'help@brightgrow.co.uk',
  MESSAGING_NUMBER: '+44 7911 123456',
  NEWSLETTER_URL: '',
};

describe('the trader identity', () => {
  let root: string;
  beforeAll(async () => {
    ({ root } = await project());
    const built = await runCli(['--root', root, 'build']);
    expect(built.code, built.stderr).toBe(0);
  });

  it('is in the footer of every page: legal name, register, number, address, e-mail and telephone', async () => {
    for (const file of ['index.html', 'buy-tiktok-likes.html', 'blog.html', '404.html', 'term-of-service.html']) {
      const footer = (await page(root, file)).querySelector('.footer-trader');
      expect(footer?.textContent, file).toBe(
        'Storefront is a trading name of Example Trading Ltd, ' +
          'a company registered in England and Wales with company number 00000000, ' +
          'whose registered office is at Unit 1, Example Business Park, Exampleton AB1 2CD, United Kingdom. ' +
          'E-mail support@example.com, telephone +44 20 7946 0000.',
      );
      expect(footer?.querySelector('a[href="tel:+442079460000"]'), file).not.toBeNull();
    }
  });

  it('is set out in full on the contact page', async () => {
    const rows = (await page(root, 'contact.html'))
      .querySelectorAll('.trader-details div')
      .map((row) => [row.querySelector('dt')!.textContent, row.querySelector('dd')!.textContent]);
    expect(rows).toEqual([
      ['Trading name', 'Storefront'],
      ['Legal name', 'Example Trading Ltd'],
      ['Address', 'Unit 1, Example Business Park, Exampleton AB1 2CD, United Kingdom'],
      ['Company number', '00000000, registered in England and Wales'],
      ['E-mail', 'support@example.com'],
      ['Telephone', '+44 20 7946 0000'],
    ]);
  });

  it('is in the terms and the privacy policy', async () => {
    for (const file of ['term-of-service.html', 'privacy-policy.html']) {
      const text = (await page(root, file)).querySelector('main')!.textContent;
      expect(text, file).toContain(
        'Example Trading Ltd, a company registered in England and Wales with company number 00000000',
      );
      expect(text, file).toContain('+44 20 7946 0000');
      expect(text, file).not.toContain('{{');
    }
  });

  it('is in the Organization structured data', async () => {
    const organization = jsonLd(await page(root, 'index.html')).find((item) => item['@type'] === 'Organization');
    expect(organization).toMatchObject({
      name: 'Storefront',
      legalName: 'Example Trading Ltd',
      email: 'support@example.com',
      telephone: '+44 20 7946 0000',
      address: {
        '@type': 'PostalAddress',
        streetAddress: 'Unit 1, Example Business Park',
        addressLocality: 'Exampleton',
        postalCode: 'AB1 2CD',
        addressCountry: 'United Kingdom',
      },
      identifier: { '@type': 'PropertyValue', propertyID: 'Companies House (England and Wales)', value: '00000000' },
    });
    expect(organization).not.toHaveProperty('vatID');
  });

  it('the blog is reached from the header, the footer and the home page', async () => {
    const home = await page(root, 'index.html');
    expect(home.querySelector('header a[href="/blog"]')).not.toBeNull();
    expect(home.querySelector('footer a[href="/blog"]')).not.toBeNull();
    expect(home.querySelector('main a[href="/blog"]')).not.toBeNull();
    expect((await page(root, 'buy-tiktok-likes.html')).querySelector('header a[href="/blog"]')).not.toBeNull();
  });

  it('is validated: a malformed VAT number, company number or postcode is refused with its field', async () => {
    const { root: bad } = await project();
    await editFile(bad, 'content/trader.yaml', '# vatNumber: GB123456789', 'vatNumber: GB 123 456 789');
    await editFile(bad, 'content/trader.yaml', 'number: "00000000"', 'number: "1234"');
    await editFile(bad, 'content/trader.yaml', 'postcode: AB1 2CD', 'postcode: 12345');
    const result = await runCli(['--root', bad, 'build']);
    expect(result.code).toBe(1);
    for (const field of ['vatNumber', 'company.number', 'address.postcode'])
      expect(result.stderr).toMatch(new RegExp(`SF103  content/trader.yaml:\\d+ › ${field.replace('.', '\\.')}`));
  });
});

describe('a build for a real site address', () => {
  it('refuses every example value, one problem each naming its file and field, and writes nothing', async () => {
    const { root } = await project();
    const result = await runCli(['--root', root, 'build'], { SITE_URL: 'https://www.brightgrow.co.uk' });
    expect(result.code).toBe(1);
    const problems = [...result.stderr.matchAll(/SF142 {2}(\S+) › (\S+)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(problems.sort()).toEqual(
      [
        'content/config.yaml brandName',
        'content/config.yaml checkoutUrl',
        'content/config.yaml supportEmail',
        'content/config.yaml messagingNumber',
        'content/trader.yaml legalName',
        'content/trader.yaml address.street[1]',
        'content/trader.yaml address.town',
        'content/trader.yaml address.postcode',
        'content/trader.yaml company.number',
        'content/trader.yaml phone',
      ].sort(),
    );
    expect(result.stderr).toContain('--allow-placeholders');
    expect(result.stderr).toContain('Nothing was written');
  });

  it('builds with --allow-placeholders (staging)', async () => {
    const { root } = await project();
    const result = await runCli(['--root', root, 'build', '--allow-placeholders'], {
      SITE_URL: 'https://staging.brightgrow.co.uk',
    });
    expect(result.code, result.stderr).toBe(0);
  });

  it('builds once the real details are in, and shows them', async () => {
    const { root } = await project();
    await editFile(root, 'content/trader.yaml', /^legalName:[\s\S]*$/m, REAL_TRADER);
    const result = await runCli(['--root', root, 'build'], REAL_SETTINGS);
    expect(result.code, result.stderr).toBe(0);
    const home = await page(root, 'index.html');
    expect(home.querySelector('.footer-trader')?.textContent).toBe(
      'Brightgrow is a trading name of Brightgrow Media Ltd, ' +
        'a company registered in Scotland with company number SC123456, ' +
        'whose registered office is at 12 Harbour Lane, Leith EH6 6QT, United Kingdom (VAT number GB987654321). ' +
        'E-mail help@brightgrow.co.uk, telephone +44 131 555 0142.',
    );
    expect(jsonLd(home).find((item) => item['@type'] === 'Organization')).toMatchObject({
      vatID: 'GB987654321',
      legalName: 'Brightgrow Media Ltd',
    });
  });

  it('refuses a newsletter form that would send e-mail addresses over http, for a real address', async () => {
    const { root } = await project();
    await editFile(root, 'content/trader.yaml', /^legalName:[\s\S]*$/m, REAL_TRADER);
    const plain = await runCli(['--root', root, 'build'], {
      ...REAL_SETTINGS,
      NEWSLETTER_URL: 'http://news.brightgrow.co.uk/subscribe',
    });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/SF140 {2}content\/config\.yaml › newsletterUrl/);
    expect(plain.stderr).toContain("would send visitors' e-mail addresses unencrypted");
    const secure = await runCli(['--root', root, 'build'], {
      ...REAL_SETTINGS,
      NEWSLETTER_URL: 'https://news.brightgrow.co.uk/subscribe',
    });
    expect(secure.code, secure.stderr).toBe(0);
  });

  it("knows Ofcom's drama numbers however they are written", () => {
    for (const phone of [
      '+44 20 7946 0000',
      '020 7946 0123',
      '+44 (0)20 7946 0999',
      '+44 (0)7700 900123',
      '0044 7700 900123',
    ])
      expect(isDramaNumber(phone), phone).toBe(true);
    for (const phone of ['+44 20 7946 1000', '+44 7911 123456', '+44 (0)131 555 0142'])
      expect(isDramaNumber(phone), phone).toBe(false);
  });

  it('counts hosts kept for tests and documentation as not real', async () => {
    const { root } = await project();
    for (const site of [
      'https://shop.example.org',
      'http://127.0.0.1:8080',
      'https://storefront.test',
      'http://localhost:4321',
      'https://www.example.com',
    ]) {
      const result = await runCli(['--root', root, 'build'], { SITE_URL: site });
      expect(result.code, `${site}: ${result.stderr}`).toBe(0);
    }
  });
});

describe('ratings', () => {
  const REVIEWS =
    'checked: Every review is from a customer whose order we delivered, matched to that order.\nreviews:\n' +
    '  - { subCategory: 20, author: Priya S., date: 2026-10-02, rating: 5, ' +
    'text: "All 1,000 followers arrived the next day." }\n' +
    '  - { subCategory: 20, author: Tom W., date: 2026-09-14, rating: 4, ' +
    'text: "Took two days, but support kept me posted." }\n' +
    '  - { subCategory: 21, author: Ana R., date: 2026-08-30, rating: 5, text: Likes came in steadily. }\n';

  it(
    'from reviews kept in content/: shown on the page of the service reviewed, averaged the same on its cards, ' +
      'never in structured data',
    async () => {
      const { root } = await project();
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path.join(root, 'content/reviews.yaml'), REVIEWS);
      const built = await runCli(['--root', root, 'build']);
      expect(built.code, built.stderr).toBe(0);
      const followers = await page(root, 'buy-tiktok-followers.html');
      const line = followers.querySelector('.rating-line a');
      expect(line?.textContent).toBe('Rated 4.5 out of 5 in 2 customer reviews');
      expect(line?.getAttribute('href')).toBe('#reviews');
      const reviews = followers.querySelectorAll('#reviews .review');
      expect(reviews.map((r) => r.querySelector('.review-by')!.textContent)).toEqual([
        'Priya S., 2 October 2026',
        'Tom W., 14 September 2026',
      ]);
      expect(reviews[1]!.querySelector('.review-rating')!.textContent).toBe('4 out of 5');
      expect(reviews[1]!.querySelectorAll('.review-rating svg')).toHaveLength(4);
      // The same figure on the cross-sell card of another page; a service without reviews shows none.
      const views = await page(root, 'buy-tiktok-views.html');
      const card = (href: string) =>
        views.querySelectorAll('.service-card').find((c) => c.querySelector('a')!.getAttribute('href') === href)!;
      expect(card('/buy-tiktok-followers').querySelector('.service-card-rating')?.textContent.trim()).toBe(
        '4.5/5 (2 reviews)',
      );
      expect(card('/buy-tiktok-likes').querySelector('.service-card-rating')?.textContent.trim()).toBe(
        '5/5 (1 review)',
      );
      expect(views.querySelector('.rating-line')).toBeNull();
      expect(views.querySelector('#reviews')).toBeNull();
      expect((await page(root, 'index.html')).querySelector('.rating-line')).toBeNull();
      // Google's review snippets allow no rating of a trader's own services or of itself.
      for (const file of ['buy-tiktok-followers.html', 'index.html'])
        expect(JSON.stringify(jsonLd(await page(root, file)))).not.toContain('Rating');
    },
  );

  it(
    'from a review platform: named, linked and dated wherever it is shown, ' + "and never on a service's card",
    async () => {
      const { root } = await project();
      const { writeFile } = await import('node:fs/promises');
      await writeFile(
        path.join(root, 'content/reviews.yaml'),
        'platform: { name: Trustpilot, url: "https://uk.trustpilot.com/review/brightgrow.co.uk", rating: 4.7, ' +
          'count: 1312, readOn: 2026-11-20 }\n',
      );
      const built = await runCli(['--root', root, 'build']);
      expect(built.code, built.stderr).toBe(0);
      for (const file of ['index.html', 'buy-instagram-likes.html']) {
        const line = (await page(root, file)).querySelector('.rating-line a');
        expect(line?.textContent, file).toBe(
          'Rated 4.7 out of 5 on Trustpilot from 1,312 reviews (as read on 20 November 2026)',
        );
        expect(line?.getAttribute('href'), file).toBe('https://uk.trustpilot.com/review/brightgrow.co.uk');
      }
      const likes = await page(root, 'buy-instagram-likes.html');
      expect(likes.querySelectorAll('.service-card-rating')).toHaveLength(0);
      expect(JSON.stringify(jsonLd(likes))).not.toContain('Rating');
    },
  );

  it('without a source: no rating, no stars, no review count anywhere', async () => {
    const { root } = await project();
    const built = await runCli(['--root', root, 'build']);
    expect(built.code, built.stderr).toBe(0);
    for (const file of ['index.html', 'buy-instagram-followers.html', 'buy-youtube-watch-hours.html']) {
      const html = await page(root, file);
      expect(html.querySelectorAll('.rating-line, .service-card-rating, #reviews'), file).toHaveLength(0);
      expect(html.textContent, file).not.toMatch(/\d\/5|out of 5|reviews\)/);
    }
  });
});

describe('honest copy about what is sold (issue 27)', () => {
  let root: string;
  /** The service pages, by the name of their content file (buy-instagram-followers). */
  let services: string[];
  beforeAll(async () => {
    ({ root } = await project());
    const built = await runCli(['--root', root, 'build'], { NEWSLETTER_URL: '' });
    expect(built.code, built.stderr).toBe(0);
    services = (await readdir(path.join(root, 'content/services')))
      .filter((file) => file.endsWith('.yaml'))
      .map((file) => file.slice(0, -'.yaml'.length));
  });

  const text = (html: HTMLElement) => html.textContent.replace(/\s+/g, ' ');
  const PLATFORMS: Record<string, string> = { instagram: 'Instagram', tiktok: 'TikTok', youtube: 'YouTube' };

  /** Every HTML file of the built site, by its path in dist/. */
  async function allPages(): Promise<string[]> {
    const entries = await readdir(path.join(root, 'dist'), { recursive: true });
    return entries.filter((file) => file.endsWith('.html'));
  }

  it(
    "every service page's FAQ says the platform's own rules forbid what it sells, what may follow, " +
      'and what the delivered accounts are',
    async () => {
      expect(services).toHaveLength(pageCounts.service);
      for (const name of services) {
        const [, platform, kind] = /^buy-(instagram|tiktok|youtube)-(.+)$/.exec(name)!;
        const sold = kind === 'watch-hours' ? 'watch time' : kind!;
        const answers = (await page(root, `${name}.html`)).querySelectorAll('#faq details').map(text);
        const honest = answers.find((answer) => answer.includes(`${PLATFORMS[platform!]}'s own rules forbid`));
        expect(honest, name).toBeDefined();
        expect(honest, name).toContain(sold);
        // What may happen: the count removed, the reach limited, the account warned.
        for (const consequence of ['may remove', 'fewer people', 'warn you'])
          expect(honest, `${name}: ${consequence}`).toContain(consequence);
        expect(honest, name).toContain('we cannot promise they are active people who will engage');
        expect(honest, name).toMatch(/never (ask for|need) your password/);
      }
    },
  );

  it(
    'no page promises that bought numbers win trust, ' + 'or states an unsourced track record or an unpriced plan',
    async () => {
      const refused = [
        'look credible',
        'credible to',
        'credibility for your brand',
        'trusted to new customers',
        'trustworthy to',
        'builds trust',
        'build trust',
        'social proof',
        '12+ years',
        '1,000 customers',
        'over a decade',
        'automatic-likes',
        'automatic likes',
        // Nor that they make an account look established, busy or worth a visit (the blog included).
        'seriously',
        'look established',
        'more established',
        'first impression',
        'look popular',
        'look empty',
        'look consistent',
        'convincing',
        'look worth',
      ];
      const files = await allPages();
      expect(files.length).toBeGreaterThan(15);
      for (const file of files) {
        const shown = text(await page(root, file)).toLowerCase();
        for (const phrase of refused) expect(shown, `${file}: ${phrase}`).not.toContain(phrase);
      }
      // The service pages describe a package as a higher count, never as what wins visitors over.
      for (const name of services) {
        const shown = text((await page(root, `${name}.html`)).querySelector('main')!).toLowerCase();
        for (const phrase of [
          'seriously',
          'look established',
          'first impression',
          'look popular',
          'well received',
          'worth their time',
        ])
          expect(shown, `${name}: ${phrase}`).not.toContain(phrase);
      }
    },
  );

  it('the legal pages show when they were first published and when their text last changed', async () => {
    for (const [file, source] of [
      ['term-of-service.html', 'terms-of-service.md'],
      ['privacy-policy.html', 'privacy-policy.md'],
    ] as const) {
      const updated = /^updated: (\d{4}-\d{2}-\d{2})$/m.exec(
        await readFile(path.join(root, 'content/pages', source), 'utf8'),
      )![1]!;
      const shownUpdated = new Intl.DateTimeFormat('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${updated}T00:00:00Z`));
      const dates = (await page(root, file)).querySelector('main .container-narrow > p.muted')!;
      expect(text(dates), file).toBe(`First published 26 June 2022 · Last updated ${shownUpdated}`);
      expect(
        dates.querySelectorAll('time').map((time) => time.getAttribute('datetime')),
        file,
      ).toEqual(['2022-06-26', updated]);
    }
  });

  it('the privacy policy speaks of a newsletter only when the sign-up form is shown', async () => {
    const withoutForm = await page(root, 'privacy-policy.html');
    expect((await page(root, 'index.html')).querySelector('footer form')).toBeNull();
    expect(text(withoutForm.querySelector('main')!)).not.toMatch(/newsletter/i);
    expect(withoutForm.querySelector('main')!.innerHTML).not.toMatch(/&lt;!--|end if/);

    const { root: withNewsletter } = await project();
    const built = await runCli(['--root', withNewsletter, 'build'], {
      NEWSLETTER_URL: 'https://news.example.com/subscribe',
    });
    expect(built.code, built.stderr).toBe(0);
    expect((await page(withNewsletter, 'index.html')).querySelector('footer form')).not.toBeNull();
    const policy = (await page(withNewsletter, 'privacy-policy.html')).querySelector('main')!;
    for (const part of [
      'When you sign up to our newsletter',
      'Newsletter e-mail address',
      'Marketing e-mails',
      'Signing up to our newsletter is entirely up to you',
    ]) {
      expect(text(policy), part).toContain(part);
    }
    // A list item between the markers stays in its list.
    const recipients = policy.querySelectorAll('ul').find((list) => text(list).includes('our e-mail provider'))!;
    expect(text(recipients)).toContain('our newsletter provider');
    expect(policy.innerHTML).not.toMatch(/&lt;!--|end if/);
  });
});

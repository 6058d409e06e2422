/**
 * One failing fixture per way bad content must be rejected. Each case copies a built project
 * (the real content, its output and .cache/) into a temporary folder, breaks exactly one thing,
 * runs the real CLI and checks that the message names the file and the field, that no stack trace
 * is printed, and that the output of an earlier, good build is left exactly as it was.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  builtProject,
  cliPath,
  copyOfProject,
  editFile,
  folderState,
  repoRoot,
  runCli,
  tempProject,
  type CliResult,
} from '../helpers.js';

/** The line (from 1) of a content file that first holds `text`: where its problem is named. */
function lineOf(file: string, text: string): number {
  return (
    readFileSync(path.join(repoRoot, file), 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1
  );
}

/**
 * `file:line:column` of `written` once `from` is replaced by `to` in the content file: the line
 * holding `from`, and the column (from 1) of `written` in that line as edited.
 */
function placeOf(file: string, from: string, to: string, written: string): string {
  const line = lineOf(file, from);
  const edited = readFileSync(path.join(repoRoot, file), 'utf8').split('\n')[line - 1]!.replace(from, to);
  return `${file}:${line}:${edited.indexOf(written) + 1}`;
}

interface Case {
  name: string;
  breakIt: (root: string) => Promise<void>;
  /** Strings the error output must contain: code, file, field, and what is wrong. */
  expect: string[];
  /** Strings it must not contain: a problem reported twice, by a rule that does not own it. */
  absent?: string[];
}

const cases: Case[] = [
  {
    name: 'malformed YAML',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-instagram-likes.yaml',
        'subCategory: 11',
        'subCategory: 11\n  bad: [unclosed',
      ),
    expect: ['SF101', 'content/services/buy-instagram-likes.yaml:', 'YAML cannot be read'],
  },
  {
    name: 'malformed front matter',
    breakIt: (root) =>
      editFile(
        root,
        'content/blog/tiktok-growth-routine.md',
        'slug: tiktok-growth-routine',
        'slug: "tiktok-growth-routine',
      ),
    // Where the quote opens, not where the front matter ran out.
    expect: [
      'SF102',
      'content/blog/tiktok-growth-routine.md:3:7',
      'this " is never closed',
      '  > 3 | slug: "tiktok-growth-routine\n      |       ^\n',
    ],
  },
  {
    name: 'missing required field',
    breakIt: (root) => editFile(root, 'content/services/buy-instagram-likes.yaml', /^title: .*\n/m, ''),
    expect: ['SF103', 'content/services/buy-instagram-likes.yaml', '› title', 'required field is missing'],
  },
  {
    name: 'duplicate product id',
    breakIt: (root) =>
      editFile(root, 'content/catalogue.yaml', '{ id: 1002, quantity: 250', '{ id: 1001, quantity: 250'),
    expect: [
      'SF110',
      'content/catalogue.yaml',
      'platforms[0].sub[0].packages[1].id',
      'Product id 1001 is already used',
    ],
  },
  {
    name: 'checkout slug naming another quantity',
    breakIt: (root) => editFile(root, 'content/catalogue.yaml', 'slug: 10k-ig-followers', 'slug: 1000-ig-followers'),
    expect: [
      'SF111',
      'content/catalogue.yaml',
      'platforms[0].sub[0].packages[6].slug',
      'names 1,000, but the package is 10,000',
    ],
  },
  {
    name: 'price with three decimals',
    breakIt: (root) => editFile(root, 'content/catalogue.yaml', 'price: 1.89,', 'price: 1.899,'),
    expect: ['SF112', 'content/catalogue.yaml', 'platforms[0].sub[0].packages[0].price', '1.899'],
  },
  {
    name: 'price that is not positive',
    breakIt: (root) => editFile(root, 'content/catalogue.yaml', 'price: 5.49,', 'price: -5.49,'),
    expect: ['SF112', 'platforms[0].sub[0].packages[2].price'],
  },
  {
    name: 'cross-sell to an unknown service',
    breakIt: (root) =>
      editFile(root, 'content/services/buy-instagram-likes.yaml', 'crossSells: [10, 12]', 'crossSells: [10, 99]'),
    expect: ['SF113', 'content/services/buy-instagram-likes.yaml', 'crossSells[1]', 'Cross-sell 99'],
  },
  {
    name: 'page pointing to an unknown sub-category',
    breakIt: (root) =>
      editFile(root, 'content/services/buy-instagram-likes.yaml', 'subCategory: 11', 'subCategory: 19'),
    // The cross-sells to 11, the page's own sub-category, have no page only because of it.
    expect: [
      'Found a problem:',
      'SF113',
      'content/services/buy-instagram-likes.yaml',
      '› subCategory',
      'Sub-category 19',
      'these have no service page yet: 11',
    ],
    absent: ['has no service page to link to'],
  },
  {
    name: 'two routes with the same path',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-instagram-likes.yaml',
        'path: /buy-instagram-likes',
        'path: /buy-instagram-followers',
      ),
    expect: ['SF120', 'buy-instagram', '› path', 'The path /buy-instagram-followers is already the route of'],
  },
  {
    name: 'internal link to a path that is not a route',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-instagram-likes.yaml',
        '**Buy Now** takes you to our secure checkout.',
        '**Buy Now** takes you to our secure checkout. See [followers](/buy-instagrm-folowers).',
      ),
    expect: [
      'SF121',
      `${placeOf(
        'content/services/buy-instagram-likes.yaml',
        '**Buy Now** takes you to our secure checkout.',
        '**Buy Now** takes you to our secure checkout. See [followers](/buy-instagrm-folowers).',
        '/buy-instagrm-folowers',
      )} › packagesNote`,
      '/buy-instagrm-folowers',
      'hint:',
    ],
  },
  {
    name: 'a link to a part of another page that it does not have, on every service page',
    breakIt: (root) =>
      editFile(root, 'content/site.yaml', '(/term-of-service#free-refill)', '(/term-of-service#free-refil)'),
    expect: [
      'SF121',
      `${placeOf('content/site.yaml', '#free-refill)', '#free-refil)', '/term-of-service#')} › guarantees[0].text`,
      'The link to /term-of-service#free-refil on /buy-',
      'other pages) names #free-refil, which /term-of-service does not have.',
      'hint: Did you mean #free-refill?',
    ],
  },
  {
    name: "a link to a part of its own page that it does not have, in a text page's body",
    breakIt: (root) =>
      editFile(
        root,
        'content/pages/privacy-policy.md',
        '## Our legitimate interests',
        'See [who is responsible](#who-is-responsible).\n\n## Our legitimate interests',
      ),
    expect: [
      'SF121',
      // The heading's line is where the link is now written.
      `${placeOf(
        'content/pages/privacy-policy.md',
        '## Our legitimate interests',
        'See [who is responsible](#who-is-responsible).',
        '#who-is-responsible',
      )} › (body)`,
      'The link to #who-is-responsible on /privacy-policy names #who-is-responsible, ' +
        'which /privacy-policy does not have.',
      'hint: Did you mean #who-is-responsible-for-your-information?',
    ],
  },
  {
    name: 'unknown token',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-instagram-likes.yaml',
        'arriving within {{startTime}}',
        'arriving within {{startTme}}',
      ),
    expect: [
      'SF104',
      'content/services/buy-instagram-likes.yaml',
      '› faq[2].a',
      '{{startTme}}',
      'Did you mean {{startTime}}?',
      'hint: Write {{startTime}}.',
    ],
  },
  {
    name: 'redirect to a page that does not exist',
    breakIt: (root) => editFile(root, 'content/redirects.yaml', 'to: /buy-youtube-views }', 'to: /buy-youtube-veiws }'),
    expect: ['SF122', 'content/redirects.yaml', '[2].to', '/buy-youtube-veiws'],
  },
  {
    name: 'blog slug that is not one path segment',
    breakIt: (root) =>
      editFile(root, 'content/blog/tiktok-growth-routine.md', 'slug: tiktok-growth-routine', 'slug: ../tiktok'),
    expect: ['SF124', 'content/blog/tiktok-growth-routine.md', '› slug', 'cannot be a page address'],
  },
  {
    name: 'price typed into copy',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-instagram-likes.yaml',
        '**Buy Now** takes you to our secure checkout.',
        'Packages from £1.49.',
      ),
    expect: ['SF105', 'content/services/buy-instagram-likes.yaml', '› packagesNote', '£1'],
  },
  {
    name: 'relative internal link',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-instagram-likes.yaml',
        '**Buy Now** takes you to our secure checkout.',
        '[Ask us](contact).',
      ),
    expect: ['SF121', '› packagesNote', 'is relative', 'Start internal links with a slash'],
  },
  {
    name: "broken path deep in a page's sections",
    breakIt: (root) =>
      editFile(
        root,
        'content/pages/home.yaml',
        '        path: /buy-youtube-views\n',
        '        path: /buy-youtube-veiws\n',
      ),
    expect: ['SF121', 'content/pages/home.yaml', '› sections[2].items[1].path', '/buy-youtube-views'],
  },
  {
    name: 'absolute link to a misspelt page of the site itself',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-instagram-likes.yaml',
        '**Buy Now** takes you to our secure checkout.',
        '[More](https://www.example.com/buy-instagram-folowers).',
      ),
    expect: ['SF121', '› packagesNote', 'points to no page', '/buy-instagram-followers'],
  },
  {
    name: 'cross-sell to a sub-category without a page',
    breakIt: async (root) => {
      await editFile(
        root,
        'content/catalogue.yaml',
        /(- id: 40\n\s+name: Followers\n\s+service: followers\n\s+)packages: \[\].*\n/,
        '$1packages:\n          - { id: 4001, quantity: 100, price: 3, slug: 100-fb-followers }\n',
      );
      await editFile(root, 'content/services/buy-instagram-likes.yaml', 'crossSells: [10, 12]', 'crossSells: [10, 40]');
    },
    expect: ['SF113', 'crossSells[1]', 'has no service page'],
  },
  {
    name: 'section id taken by the page layout',
    breakIt: (root) => editFile(root, 'content/services/buy-instagram-likes.yaml', 'id: how-it-works', 'id: faq'),
    expect: ['SF123', 'sections[1].id', 'already used by the page layout'],
  },
  {
    name: "section id whose heading's id is taken by the page layout (newsletter-heading, the footer's)",
    breakIt: (root) =>
      editFile(root, 'content/services/buy-instagram-likes.yaml', 'id: how-it-works', 'id: newsletter'),
    expect: ['SF123', 'sections[1].id', 'gives its heading the id "newsletter-heading"'],
  },
  {
    name: 'old path redirected twice',
    breakIt: (root) =>
      editFile(
        root,
        'content/redirects.yaml',
        '- { from: /index, to: / }',
        '- { from: /index, to: / }\n- { from: /index, to: /about }',
      ),
    expect: ['SF122', '[1].from', 'redirected twice'],
  },
  {
    name: 'redirect whose old address climbs out of the output folder',
    breakIt: (root) =>
      editFile(
        root,
        'content/redirects.yaml',
        '- { from: /index, to: / }',
        '- { from: /index, to: / }\n- { from: /../../outside, to: /about }',
      ),
    expect: ['SF125', 'content/redirects.yaml', '› [1].from', 'climbs out of its folder'],
  },
  {
    name: 'redirect whose old address climbs out percent-encoded (%2e%2e)',
    breakIt: (root) =>
      editFile(
        root,
        'content/redirects.yaml',
        '- { from: /index, to: / }',
        '- { from: /index, to: / }\n- { from: /%2e%2e/%2e%2e/outside/victim, to: /about }\n' +
          '- { from: /old%2Fpage, to: /about }\n- { from: /old%5cpage, to: /about }',
      ),
    expect: [
      'SF125',
      '› [1].from',
      '› [2].from',
      '› [3].from',
      'it writes a dot, a slash or a backslash percent-encoded (%2e, %2f, %5c), which a host decodes',
      'Found 3 problems',
    ],
  },
  {
    name: 'claim that holds a token itself, and braces that are no token',
    breakIt: async (root) => {
      await editFile(
        root,
        'content/site.yaml',
        '  startTime: about 15 minutes',
        '  startTime: "{{startTime}} {{startTime}}"',
      );
      await editFile(root, 'content/site.yaml', '  supportHours: 24/7', '  supportHours: "within {{ support-hours }}"');
    },
    expect: [
      'Found 2 problems',
      'SF104',
      'content/site.yaml:4 › claims.startTime',
      'The token {{startTime}} stands for "{{startTime}} {{startTime}}", which holds a token itself',
      'claims.supportHours',
      'braces that are no token ("within {{ support-hours }}")',
    ],
    // The braces of supportHours are reported where they are written, not again where it is used.
    absent: ['guarantees[4].title'],
  },
  {
    name: 'SVG in content/images/ that is more than a picture (a script, an event handler, a file from elsewhere)',
    breakIt: async (root) => {
      const svg = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${inner}</svg>`;
      await writeFile(path.join(root, 'content/images/scripted.svg'), svg('<script>alert(1)</script>'));
      await writeFile(
        path.join(root, 'content/images/handler.svg'),
        svg('<rect width="10" height="10" onload="alert(1)"/>'),
      );
      await writeFile(
        path.join(root, 'content/images/remote.svg'),
        svg('<image href="https://tracker.example/pixel.png" width="10" height="10"/>'),
      );
    },
    expect: [
      'Found 3 problems',
      'SF206  content/images/scripted.svg',
      'it holds a script',
      'SF206  content/images/handler.svg',
      'it holds an event handler',
      'SF206  content/images/remote.svg',
      'it holds a picture from another file (<image href="https://tracker.example/pixel.png">)',
    ],
  },
  {
    name: 'post slug that takes the place of the feed',
    breakIt: (root) =>
      editFile(root, 'content/blog/tiktok-growth-routine.md', 'slug: tiktok-growth-routine', 'slug: feed.xml'),
    expect: ['SF125', 'content/blog/tiktok-growth-routine.md', '› slug', 'the build writes a file of its own there'],
  },
  {
    name: 'redirect whose old address differs from a page only by case',
    breakIt: (root) =>
      editFile(
        root,
        'content/redirects.yaml',
        '- { from: /index, to: / }',
        '- { from: /index, to: / }\n- { from: /About, to: /about }',
      ),
    expect: ['SF120', 'content/redirects.yaml', '› [1].from', 'differs from /about only by case'],
  },
  {
    name: 'post slug that hosts would not serve (_)',
    breakIt: (root) =>
      editFile(root, 'content/blog/tiktok-growth-routine.md', 'slug: tiktok-growth-routine', 'slug: _notes'),
    expect: ['SF125', 'content/blog/tiktok-growth-routine.md', '› slug', 'starts with _'],
  },
  {
    name: 'post slugs that differ only by case',
    breakIt: (root) =>
      editFile(
        root,
        'content/blog/tiktok-growth-routine.md',
        'slug: tiktok-growth-routine',
        'slug: Get-Your-Instagram-Profile-Ready',
      ),
    expect: ['SF120', '› slug', 'differs from /blog/get-your-instagram-profile-ready only by case'],
  },
  {
    name: 'date that is not in the calendar (30 February)',
    breakIt: (root) => editFile(root, 'content/pages/privacy-policy.md', 'updated: 2026-11-27', 'updated: 2026-02-30'),
    expect: ['SF103', 'content/pages/privacy-policy.md', '› updated', 'must be a real date'],
  },
  {
    name: 'a text page first published after its last update',
    breakIt: (root) =>
      editFile(root, 'content/pages/terms-of-service.md', 'published: 2022-06-26', 'published: 2027-01-01'),
    expect: ['SF103', 'content/pages/terms-of-service.md', '› published', 'must not be after updated'],
  },
  {
    name: 'a text-page block on a condition that does not exist',
    breakIt: (root) =>
      editFile(root, 'content/pages/privacy-policy.md', '<!-- if newsletter -->', '<!-- if newsleter -->'),
    expect: ['SF103', 'content/pages/privacy-policy.md:16', '"<!-- if newsleter -->" names no condition', 'newsletter'],
  },
  {
    name: 'a text-page block never closed',
    breakIt: (root) =>
      editFile(root, 'content/pages/privacy-policy.md', /<!-- end if -->\n(?![\s\S]*<!-- end if -->)/, ''),
    expect: ['SF103', 'content/pages/privacy-policy.md:', 'is never closed'],
  },
  {
    name: 'date with month 13',
    breakIt: (root) => editFile(root, 'content/blog/tiktok-growth-routine.md', /^date: .*$/m, 'date: 2025-13-01'),
    expect: ['SF103', 'content/blog/tiktok-growth-routine.md', '› date', 'must be a real date'],
  },
  {
    name: 'absurd price',
    breakIt: (root) => editFile(root, 'content/catalogue.yaml', 'price: 1.89,', 'price: 1e21,'),
    expect: ['SF112', 'platforms[0].sub[0].packages[0].price', 'below £10,000'],
  },
  {
    name: 'link with a javascript: scheme',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-youtube-subscribers.yaml',
        'href: "{{checkoutUrl}}"',
        'href: "JavaScript:alert(1)"',
      ),
    expect: ['SF121', 'content/services/buy-youtube-subscribers.yaml', 'cta.href', 'uses the javascript: scheme'],
  },
  {
    name: 'content file over 1 MB',
    breakIt: (root) =>
      editFile(root, 'content/services/buy-tiktok-views.yaml', /$/, `\n# ${'x'.repeat(1024 * 1024)}\n`),
    expect: ['SF101', 'content/services/buy-tiktok-views.yaml', 'more than the 1 MB a content file may be'],
  },
  {
    name: 'post over 1 MB',
    breakIt: (root) =>
      editFile(root, 'content/blog/tiktok-growth-routine.md', /$/, `\n${'Long words. '.repeat(100_000)}\n`),
    expect: ['SF102', 'content/blog/tiktok-growth-routine.md', 'more than the 1 MB a content file may be'],
  },
  {
    name: 'YAML alias bomb in a post front matter',
    breakIt: (root) =>
      editFile(
        root,
        'content/blog/tiktok-growth-routine.md',
        /^slug:/m,
        'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n' +
          'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\nslug:',
      ),
    expect: ['SF102', 'content/blog/tiktok-growth-routine.md', 'YAML cannot be read', 'alias'],
  },
  {
    name: 'YAML alias bomb',
    breakIt: (root) =>
      editFile(
        root,
        'content/site.yaml',
        /^claims:/m,
        'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n' +
          'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n' +
          'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nclaims:',
      ),
    expect: ['SF101', 'content/site.yaml', 'YAML cannot be read', 'alias'],
  },
  {
    name: 'paid upgrade offered without its price',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-youtube-likes.yaml',
        'Your video must\n  be public while we deliver.',
        'A Premium tier is available at checkout for an upgrade fee.',
      ),
    expect: ['SF106', 'content/services/buy-youtube-likes.yaml:', '› packagesNote', 'without its price'],
  },
  {
    name: 'support tile that names another size than the largest package',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-tiktok-followers.yaml',
        'heading: More than 5,000?',
        'heading: More than 10,000?',
      ),
    expect: [
      'SF116',
      'content/services/buy-tiktok-followers.yaml',
      '› supportTile.heading',
      'the largest package in the grid is 5,000',
    ],
  },
  {
    name: 'two most popular packages in one grid',
    breakIt: (root) =>
      editFile(
        root,
        'content/catalogue.yaml',
        'slug: 500-ig-followers }\n          - { id: 1004, quantity: 1000, price: 10, slug: 1000-ig-followers }',
        'slug: 500-ig-followers, popular: { from: 2026-08-01, to: 2026-10-31, orders: 300, ofOrders: 1030 } }\n' +
          '          - { id: 1004, quantity: 1000, price: 10, slug: 1000-ig-followers, ' +
          'popular: { from: 2026-08-01, to: 2026-10-31, orders: 412, ofOrders: 1030 } }',
      ),
    expect: [
      'SF117',
      'content/catalogue.yaml:',
      '› platforms[0].sub[0].packages[3].popular',
      'Instagram Followers already has a most popular package (500); 1,000 is marked popular too',
    ],
    absent: ['SF118', 'SF103'],
  },
  {
    name: 'a package marked popular without its source (popular: true)',
    breakIt: (root) =>
      editFile(root, 'content/catalogue.yaml', 'slug: 1000-ig-followers }', 'slug: 1000-ig-followers, popular: true }'),
    expect: [
      'Found a problem:',
      'SF118  content/catalogue.yaml:',
      '› platforms[0].sub[0].packages[3].popular',
      'The 1,000 package of Instagram Followers is marked "Most popular" without the source of the claim',
      'popular: { from: 2026-08-01, to: 2026-10-31, orders: 412, ofOrders: 1030 }',
    ],
    absent: ['SF103'],
  },
  {
    name: 'a most popular package with more orders than its whole sub-category',
    breakIt: (root) =>
      editFile(
        root,
        'content/catalogue.yaml',
        'slug: 1000-ig-followers }',
        'slug: 1000-ig-followers, popular: { from: 2026-08-01, to: 2026-10-31, orders: 1100, ofOrders: 1030 } }',
      ),
    expect: [
      'SF103  content/catalogue.yaml:',
      '› platforms[0].sub[0].packages[3].popular.orders',
      'orders must not be more than ofOrders',
      'hint: Correct orders or ofOrders',
    ],
  },
  {
    name: 'a most popular package counted over a period not yet ended',
    breakIt: (root) =>
      editFile(
        root,
        'content/catalogue.yaml',
        'slug: 1000-tiktok-likes }',
        'slug: 1000-tiktok-likes, popular: { from: 2999-09-01, to: 2999-11-30, orders: 412, ofOrders: 1030 } }',
      ),
    expect: [
      'SF118  content/catalogue.yaml:',
      '› platforms[1].sub[1].packages[3].popular.to',
      'to 2999-11-30, a day after this build',
    ],
  },
  {
    name: 'rating typed into a hero, without a source',
    breakIt: (root) =>
      editFile(
        root,
        'content/services/buy-instagram-followers.yaml',
        'hero:\n',
        'hero:\n  ratingLine: { stars: 5, customers: 2K+ }\n',
      ),
    expect: ['SF103', 'content/services/buy-instagram-followers.yaml', '› hero', 'ratingLine'],
  },
  {
    name: 'review of a service the site does not show',
    breakIt: (root) =>
      writeFile(
        path.join(root, 'content/reviews.yaml'),
        'checked: Every review is from a customer whose order we delivered, matched to that order.\n' +
          'reviews:\n  - { subCategory: 40, author: Sam K., date: 2026-10-01, rating: 5, ' +
          'text: Quick and as described. }\n',
      ),
    expect: ['SF114', 'content/reviews.yaml', '› reviews[0]', 'no service page'],
  },
  {
    name: 'reviews and a platform rating both given',
    breakIt: (root) =>
      writeFile(
        path.join(root, 'content/reviews.yaml'),
        'checked: Every review is from a customer whose order we delivered, matched to that order.\n' +
          'reviews:\n  - { subCategory: 10, author: Sam K., date: 2026-10-01, rating: 5, text: Quick. }\n' +
          'platform: { name: Trustpilot, url: "https://uk.trustpilot.com/review/x", rating: 4.5, count: 10, ' +
          'readOn: 2026-11-01 }\n',
      ),
    expect: ['SF103', 'content/reviews.yaml'],
  },
  {
    name: "a price typed into the catalogue with its currency sign: the schema's problem only",
    breakIt: (root) => editFile(root, 'content/catalogue.yaml', 'price: 1.89,', 'price: £1.89,'),
    expect: [
      'Found a problem:',
      'SF103  content/catalogue.yaml:26 › platforms[0].sub[0].packages[0].price',
      'found the text "£1.89"',
      'hint: Write price: 1.89, the number alone',
    ],
    absent: ['SF105'],
  },
  {
    name: 'a misspelt field: the nearest known one, and not also a missing field',
    breakIt: (root) => editFile(root, 'content/catalogue.yaml', 'price: 1.89,', 'pirce: 1.89,'),
    expect: [
      'Found a problem:',
      'SF103  content/catalogue.yaml:26 › platforms[0].sub[0].packages[0].pirce',
      'Unknown field pirce. Did you mean price?',
      'hint: Rename pirce to price.',
    ],
    absent: ['required field is missing'],
  },
  {
    name: 'a misspelt field of one kind of section (a discriminated union)',
    breakIt: (root) =>
      editFile(root, 'content/pages/home.yaml', '    defaultSubCategory: 10', '    defaultSubcategory: 10'),
    expect: [
      'Found a problem:',
      'SF103  content/pages/home.yaml:',
      '› sections[0].defaultSubcategory',
      'Unknown field defaultSubcategory. Did you mean defaultSubCategory?',
    ],
  },
  {
    name: 'an unknown field with nothing near it: the fields known there',
    breakIt: (root) =>
      editFile(root, 'content/services/buy-instagram-likes.yaml', 'hero:\n', 'hero:\n  ratingLine: { stars: 5 }\n'),
    expect: [
      '› hero.ratingLine',
      'Unknown field ratingLine.\n',
      'hint: Remove ratingLine, or rename it to one of the fields of hero: heading, buttons.',
    ],
  },
  {
    name: 'an unknown section kind',
    breakIt: (root) => editFile(root, 'content/pages/home.yaml', '  - kind: cards', '  - kind: cardz'),
    expect: [
      'Found a problem:',
      `SF103  content/pages/home.yaml:${lineOf('content/pages/home.yaml', '  - kind: cards')} › sections[1].kind`,
      'Unknown kind cardz. Did you mean cards?',
      'hint: Write kind: cards;',
    ],
  },
  {
    name: 'an unknown value of a list of values',
    breakIt: (root) => editFile(root, 'content/site.yaml', 'icon: email', 'icon: emial'),
    expect: [
      `SF103  content/site.yaml:${lineOf('content/site.yaml', 'icon: email')} › contactChannels[1].icon`,
      'Unknown value emial for icon. Did you mean email?',
      'hint: Write email;',
    ],
  },
  {
    name: 'a YAML syntax error: its line and column, and the lines around it with a caret',
    breakIt: (root) =>
      editFile(root, 'content/site.yaml', '  startTime: about 15 minutes', '  startTime about 15 minutes'),
    expect: [
      'Found a problem:',
      'SF101  content/site.yaml:4:3\n  The YAML cannot be read: Implicit keys need to be on a single line.\n' +
        '    3 | claims:\n  > 4 |   startTime about 15 minutes\n      |   ^\n    5 |   growthWindow: 24 to 48 hours',
      'hint: Each line of a mapping is key: value: add the missing ": " after the key',
    ],
  },
  {
    name: "a syntax error in a front matter: the file's own line, not one below",
    breakIt: (root) =>
      editFile(
        root,
        'content/blog/tiktok-growth-routine.md',
        'slug: tiktok-growth-routine',
        'slug: tiktok: growth routine',
      ),
    expect: [
      'SF102  content/blog/tiktok-growth-routine.md:3:7\n',
      '  > 3 | slug: tiktok: growth routine\n      |       ^\n',
      'hint: Put text that contains ": " in double quotes',
    ],
  },
  {
    name: 'an image from another site on a page (the CSP would block it)',
    breakIt: (root) =>
      editFile(
        root,
        'content/pages/privacy-policy.md',
        /\n## /,
        '\n![Our team](https://cdn.example.net/team.jpg)\n\n## ',
      ),
    expect: [
      'SF206',
      'content/pages/privacy-policy.md',
      'https://cdn.example.net/team.jpg',
      'pages show images from content/images/ only',
    ],
  },
];

describe('bad content is rejected, every problem named, dist/ untouched', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  let distHash: string;
  const out = () => path.join(project.root, 'dist');

  // One good build, copied for each case (its output and .cache/ with it): a cold build per
  // case, images and share cards drawn each time, made this file the slowest of the suite.
  let built: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    built = await builtProject();
  });
  afterAll(() => built?.cleanup());

  beforeEach(async () => {
    project = await copyOfProject(built.root);
    distHash = await folderState(out());
  });

  afterEach(async () => {
    await project.cleanup();
  });

  for (const testCase of cases) {
    it(testCase.name, async () => {
      await testCase.breakIt(project.root);
      const result = await runCli(['--root', project.root, 'build']);
      expect(result.code).toBe(1);
      for (const fragment of testCase.expect) expect(result.stderr).toContain(fragment);
      for (const fragment of testCase.absent ?? []) expect(result.stderr).not.toContain(fragment);
      // Nothing was written beside the project either (a path that climbed out would land there).
      expect(existsSync(path.join(project.root, '..', 'outside.html'))).toBe(false);
      expect(result.stderr).toContain('hint:');
      expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(await folderState(out())).toBe(distHash);
    });
  }

  it('reports every problem of a pass, not only the first', async () => {
    await editFile(project.root, 'content/catalogue.yaml', 'price: 1.89,', 'price: 1.899,');
    await editFile(project.root, 'content/catalogue.yaml', '{ id: 1002, quantity: 250', '{ id: 1001, quantity: 250');
    await editFile(project.root, 'content/catalogue.yaml', 'slug: 10k-ig-followers', 'slug: 1000-ig-followers');
    const catalogueRun = await runCli(['--root', project.root, 'build']);
    expect(catalogueRun.stderr).toContain('Found 3 problems');
    for (const code of ['SF110', 'SF111', 'SF112']) expect(catalogueRun.stderr).toContain(code);

    // A catalogue problem and a broken link are found in different stages, and reported together.
    await editFile(
      project.root,
      'content/services/buy-tiktok-views.yaml',
      'packagesNote: >-\n',
      '$&  See [likes](/buy-tiktok-lkes).\n',
    );
    const mixedRun = await runCli(['--root', project.root, 'build']);
    for (const code of ['SF110', 'SF111', 'SF112', 'SF121']) expect(mixedRun.stderr).toContain(code);
    expect(mixedRun.stderr).toContain('Found 4 problems');

    // Schema problems in several files are reported together too.
    await editFile(project.root, 'content/services/buy-instagram-likes.yaml', /^title: .*\n/m, '');
    await editFile(project.root, 'content/services/buy-tiktok-likes.yaml', /^breadcrumb: .*\n/m, 'breadcrumbs: Typo\n');
    const schemaRun = await runCli(['--root', project.root, 'build']);
    expect(schemaRun.code).toBe(1);
    expect(schemaRun.stderr).toContain('buy-instagram-likes.yaml:');
    expect(schemaRun.stderr).toContain('› title');
    expect(schemaRun.stderr).toContain('buy-tiktok-likes.yaml');
    expect(schemaRun.stderr).toContain('Unknown field breadcrumbs');
    // ...and with the catalogue problems, which are checked on everything that did parse.
    expect(schemaRun.stderr).toContain('SF110');
    expect(await folderState(out())).toBe(distHash);
  });

  it('a syntax error in site.yaml is one problem, not a cascade of unknown tokens', async () => {
    await editFile(project.root, 'content/site.yaml', 'claims:', 'claims: [');
    const result = await runCli(['--root', project.root, 'build']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SF101');
    expect(result.stderr).not.toContain('SF104');
    expect(result.stderr).toContain('Found a problem:');
  });

  it(
    'a page file that cannot be read is its own problem only, not also every link, ' + 'redirect and cross-sell to it',
    async () => {
      // about.yaml is linked from the menu, the footer and the home page.
      await editFile(project.root, 'content/pages/about.yaml', /^title: (.*)$/m, 'title: $1: : a colon too many');
      // buy-instagram-followers.yaml is linked, redirected to and cross-sold by other service pages.
      await editFile(project.root, 'content/services/buy-instagram-followers.yaml', /^title: .*\n/m, '');
      const result = await runCli(['--root', project.root, 'build']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Found 2 problems:');
      expect(result.stderr).toContain('SF101  content/pages/about.yaml:2');
      expect(result.stderr).toContain('SF103  content/services/buy-instagram-followers.yaml');
      for (const echo of ['SF113', 'SF121', 'SF122']) expect(result.stderr).not.toContain(echo);
    },
  );

  it('refuses an output folder that is the project, its content, or not an earlier build', async () => {
    for (const out of ['.', 'content', 'content/services']) {
      const result = await runCli(['--root', project.root, 'build', '--out', out]);
      expect(result.code, out).toBe(1);
      expect(result.stderr).toContain('will not write to this folder');
    }
    await mkdir(path.join(project.root, 'photos'));
    await writeFile(path.join(project.root, 'photos', 'holiday.jpg'), 'x');
    const result = await runCli(['--root', project.root, 'build', '--out', 'photos']);
    expect(result.stderr).toContain('The output folder holds files that no build wrote: holiday.jpg.');
    expect(existsSync(path.join(project.root, 'photos', 'holiday.jpg'))).toBe(true);
    expect(existsSync(path.join(project.root, 'content', 'catalogue.yaml'))).toBe(true);
  });
});

/** The real CLI run from a folder of one's choosing, as a person at a terminal would. */
function runCliIn(cwd: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('run outside a project folder', () => {
  it('from a folder without content/: one problem naming the folder, not every content file missing', async () => {
    const elsewhere = realpathSync(await mkdtemp(path.join(tmpdir(), 'storefront-elsewhere-')));
    try {
      for (const args of [['build'], ['dev', '--port', '0'], ['catalogue', 'pull', '--from-checkout', '--offline']]) {
        const result = await runCliIn(elsewhere, args);
        expect(result.code, args.join(' ')).not.toBe(0);
        expect(result.stderr).toMatch(/^Found a problem:\n\n {2}SF141 {2}/);
        expect(result.stderr).toContain(
          `No content/ here (looked in ${elsewhere}): run it in the project folder, or pass --root DIR.`,
        );
        expect(result.stderr).toContain('hint: ');
        expect(result.stderr).not.toContain('Restore it from the repository');
        expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
      }
      expect(existsSync(path.join(elsewhere, 'dist'))).toBe(false);
      expect(existsSync(path.join(elsewhere, 'catalogue.proposed.yaml'))).toBe(false);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('from inside content/ of a project: one problem, and the hint names the project folder', async () => {
    const project = await tempProject();
    try {
      const root = realpathSync(project.root);
      const result = await runCliIn(path.join(root, 'content'), ['build']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/^Found a problem:\n/);
      expect(result.stderr).toContain(`No content/ here (looked in ${path.join(root, 'content')})`);
      expect(result.stderr).toContain(
        `hint: This folder is inside the project folder ${root}: run \`cd ..\` first, or pass \`--root ..\`.`,
      );
      // Given with --root, the hint gives the project instead.
      const given = await runCli(['--root', path.join(root, 'content'), 'build']);
      expect(given.code).not.toBe(0);
      expect(given.stderr).toMatch(/^Found a problem:\n/);
      expect(given.stderr).toContain(`hint: This folder is inside the project folder ${root}: pass \`--root `);
      expect(existsSync(path.join(root, 'content', 'dist'))).toBe(false);
    } finally {
      await project.cleanup();
    }
  });
});

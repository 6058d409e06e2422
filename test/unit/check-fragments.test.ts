/**
 * The fragment check's reading of pages (routes/check-fragments.ts), which the build and `check`
 * share: which ids a page has, where a link leads, and which links name an id their page lacks.
 */
import { describe, expect, it } from 'vitest';
import { fragmentTarget, missingFragments, readAnchors } from '../../src/routes/check-fragments.js';

describe('readAnchors', () => {
  it('reads ids, old-style <a name>, and the links that name a fragment, references decoded', () => {
    const anchors = readAnchors(
      '<h2 id="free-refill">Free refill</h2><a name="legacy"></a><meta name="description" content="x">' +
        '<div data-id="not-an-id"></div><a href="/about#caf&#xe9;">Café</a><a href="/about">About</a>' +
        '<a class="x" href="#free-refill">Up</a><span id="fish&amp;chips"></span>',
    );
    expect([...anchors.ids].sort()).toEqual(['fish&chips', 'free-refill', 'legacy']);
    expect(anchors.links).toEqual(['/about#café', '#free-refill']);
  });
});

describe('fragmentTarget', () => {
  const site = 'https://shop.example.org';
  it('resolves a link from its page to a route path and a decoded fragment', () => {
    expect(fragmentTarget('#faq', `${site}/about`, site)).toEqual({ path: '/about', fragment: 'faq' });
    expect(fragmentTarget('/terms/#caf%C3%A9', `${site}/`, site)).toEqual({ path: '/terms', fragment: 'café' });
    expect(fragmentTarget(`${site}/#faq`, `${site}/about`, site)).toEqual({ path: '/', fragment: 'faq' });
  });
  it('names nothing for another site, no fragment, the top of the page or a text fragment', () => {
    for (const href of ['https://other.example/#faq', '/about', '/about#', '#top', '#:~:text=refill', 'mailto:a@b.c#x'])
      expect(fragmentTarget(href, `${site}/about`, site), href).toBeUndefined();
  });
  it('reads a site served from a folder of its origin under its base path only', () => {
    const base = `${site}/shop`;
    expect(fragmentTarget('/shop/about#faq', `${base}/`, base)).toEqual({ path: '/about', fragment: 'faq' });
    expect(fragmentTarget('/shopping#faq', `${base}/`, base)).toBeUndefined();
  });
});

describe('missingFragments', () => {
  const page = (html: string) => readAnchors(html);
  const pages = new Map([
    ['/', page('<a href="/terms#free-refil">x</a><a href="/old-terms#free-refill">y</a><a href="/gone#x">z</a>')],
    ['/terms', page('<h2 id="free-refill">Free refill</h2><h2 id="free-delivery">Free delivery</h2>')],
  ]);
  const site = 'https://shop.example.org';
  const target = (href: string, on: string) => {
    const to = fragmentTarget(href, `${site}${on}`, site);
    return to?.path === '/old-terms' ? { ...to, path: '/terms' } : to;
  };
  it('lists a link whose page lacks the id, with its nearest ids; a redirect is followed; to no page, nothing', () => {
    expect(missingFragments(pages, target)).toEqual([
      { on: '/', href: '/terms#free-refil', path: '/terms', fragment: 'free-refil', nearby: ['free-refill'] },
    ]);
  });
});

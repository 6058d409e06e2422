/**
 * The generator's own ids (issue 43, item 2): dev's overlay has an id no content can take, and a
 * section id that is, or whose heading's id is, one the templates give is refused.
 */
import { describe, expect, it } from 'vitest';
import { headingSlug } from '../../src/content/markdown.js';
import { RESERVED_SECTION_IDS, reservedIdClash } from '../../src/content/schemas.js';
import { ID_PREFIX } from '../../src/cms/sanitize.js';
import { OVERLAY_ID } from '../../src/dev/client/overlay-id.js';

describe("dev's overlay id", () => {
  it('is no heading slug, no section id and no WordPress id', () => {
    for (const text of ['Storefront dev overlay', '__storefront dev overlay', '_ _storefront-dev-overlay'])
      expect(headingSlug(text)).not.toBe(OVERLAY_ID);
    // What headingSlug and a section id may hold: lowercase letters, digits and hyphens.
    expect(OVERLAY_ID).not.toMatch(/^[a-z0-9-]+$/);
    expect(OVERLAY_ID.startsWith(ID_PREFIX)).toBe(false);
  });
});

describe('a section id the page layout has', () => {
  it('is refused itself, by its heading, or as pick-*; others pass', () => {
    expect(reservedIdClash('faq')).toBe('faq');
    expect(reservedIdClash('pick-2')).toBe('pick-2');
    expect(reservedIdClash('newsletter')).toBe('newsletter-heading');
    expect(reservedIdClash('page')).toBe('page-heading');
    expect(reservedIdClash('storefront-dev-overlay')).toBeUndefined();
    expect(reservedIdClash('how-it-works')).toBeUndefined();
    for (const id of RESERVED_SECTION_IDS) expect(reservedIdClash(id)).toBe(id);
  });
});

import { renderToString } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { scriptSafeJson } from '../../templates/Document.js';

describe('JSON-LD escaping', () => {
  it('no content can close the script element, and the JSON still parses to the same value', () => {
    const hostile = { name: '</script><script>alert(1)</script>', note: 'a & b <!-- x -->', sep: '\u2028' };
    const json = scriptSafeJson(hostile);
    expect(json).not.toMatch(/<\/script/i);
    expect(json).not.toContain('<!--');
    expect(JSON.parse(json)).toEqual(hostile);
    const html = renderToString(
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the test renders what the site renders
      createElement('script', { type: 'application/ld+json', dangerouslySetInnerHTML: { __html: json } }),
    );
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });
});

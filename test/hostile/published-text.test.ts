/**
 * Every published text is checked where it is final (issue 35, item 4), through the real CLI:
 * a post's Markdown body, a page's prose, a text page and an FAQ answer are checked after
 * Markdown and character references are decoded (`&#x202E;` is the override it names), and so
 * are WordPress titles, excerpts, bodies and image texts after sanitising. A refused build names
 * the file (or the post's address), the field, the line and the character, and leaves the output
 * folder byte for byte. Right-to-left prose with its marks and closed isolates, typed or written
 * as references, still builds. The feed is parsed by Chromium's DOMParser as application/xml
 * (Blink's XML parser, libxml2, which stops at any character XML 1.0 does not allow): a
 * parser that is lenient about control characters, such as htmlparser2's xmlMode, could not tell.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editFile, hashTree, projectsOfThisFile, resetContent, runCli } from '../helpers.js';
import { launchChromium } from '../support/browser.js';
import { FakeWordPress, makePosts, type FakePost } from '../support/fake-wordpress.js';

const project = projectsOfThisFile();

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** What Chromium's XML parser says of a text: undefined when well-formed, else its error. */
async function xmlError(xml: string): Promise<string | undefined> {
  const page = await browser.newPage();
  try {
    return await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const error = doc.getElementsByTagName('parsererror')[0];
      return error ? (error.textContent ?? 'parsererror') : undefined;
    }, xml);
  } finally {
    await page.close();
  }
}

/** A post file with this body. */
const postFile = (slug: string, body: string, title = `Post ${slug}`) =>
  `---\ntitle: ${title}\nslug: ${slug}\ndate: 2026-02-01T09:00:00Z\nexcerpt: An excerpt of ${slug}.\n---\n` +
  `First line of ${slug}.\n\n${body}\n`;

/** The line of each post's body that holds the case: the front matter is 6 lines, then 2 of text. */
const CASE_LINE = 9;

describe('local content is checked as a visitor reads it', () => {
  let root: string;
  let distHash: string;
  const dist = () => path.join(root, 'dist');

  beforeAll(async () => {
    ({ root } = await project());
    const built = await runCli(['--root', root, 'build']);
    expect(built.code, built.stderr).toBe(0);
    distHash = await hashTree(dist());
  });

  const restore = () => resetContent(root);

  /** One post per case: its body, and the character the problem must name. */
  const postCases: { slug: string; body: string; names: string; reference?: true }[] = [
    { slug: 'raw-rlo', body: 'They are \u202econsistent.', names: 'U+202E RIGHT-TO-LEFT OVERRIDE' },
    { slug: 'raw-lro', body: 'Order number \u202d12345.', names: 'U+202D LEFT-TO-RIGHT OVERRIDE' },
    { slug: 'open-isolate', body: 'A name \u2067left open.', names: 'U+2067 RIGHT-TO-LEFT ISOLATE' },
    { slug: 'digit-shapes', body: 'Call \u206e0123 456.', names: 'U+206E NATIONAL DIGIT SHAPES' },
    { slug: 'bom-inside', body: 'Split\ufeffword.', names: 'U+FEFF ZERO WIDTH NO-BREAK SPACE' },
    { slug: 'escape', body: 'Clear \x1b[2J the screen.', names: 'U+001B ESCAPE' },
    { slug: 'nonchar', body: 'Not a character \ufffe here.', names: 'U+FFFE, a noncharacter' },
    { slug: 'hex-ref', body: 'They are &#x202E;consistent.', names: 'U+202E RIGHT-TO-LEFT OVERRIDE', reference: true },
    { slug: 'dec-ref', body: 'They are &#8238;consistent.', names: 'U+202E RIGHT-TO-LEFT OVERRIDE', reference: true },
    { slug: 'isolate-ref', body: 'A name &#x2067;left open.', names: 'U+2067 RIGHT-TO-LEFT ISOLATE', reference: true },
    { slug: 'heading-ref', body: '## A &#x202D;heading', names: 'U+202D LEFT-TO-RIGHT OVERRIDE', reference: true },
    { slug: 'code-span', body: 'Type `rm \u202e-rf` here.', names: 'U+202E RIGHT-TO-LEFT OVERRIDE' },
    {
      slug: 'link-title',
      body: '[Read this](/about "About &#x202E;us")',
      names: 'U+202E RIGHT-TO-LEFT OVERRIDE',
      reference: true,
    },
    {
      slug: 'image-alt',
      body: '![A &#8238;chart](/images/tiktok-routine.svg)',
      names: 'U+202E RIGHT-TO-LEFT OVERRIDE',
      reference: true,
    },
    { slug: 'fenced-code', body: '```\necho \u202e\n```', names: 'U+202E RIGHT-TO-LEFT OVERRIDE' },
  ];

  it(
    `refuses each of ${postCases.length} disguised post bodies, ` +
      'all in one pass, ' +
      'naming file, line and character',
    async () => {
      try {
        for (const { slug, body } of postCases)
          await writeFile(path.join(root, 'content/blog', `${slug}.md`), postFile(slug, body));
        const result = await runCli(['--root', root, 'build']);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(new RegExp(`^Found ${postCases.length} problems:`, 'm'));
        const blocks = result.stderr.split(/\n(?=\s*SF\d{3}\s)/);
        for (const { slug, names, reference, body } of postCases) {
          // The fence's code is on the line after its opening ```.
          const line = CASE_LINE + (body.startsWith('```') ? 1 : 0);
          const block = blocks.find((b) => b.includes(`content/blog/${slug}.md:`));
          expect(block, slug).toBeDefined();
          expect(block, slug).toContain(`SF103  content/blog/${slug}.md:${line} › body`);
          expect(block, slug).toContain(`The body contains ${names}`);
          if (reference) expect(block, slug).toContain('(written as a character reference, &#…;)');
          else expect(block, slug).not.toContain('written as a character reference');
          expect(block, slug).toContain('hint: Remove it.');
        }
        expect(result.stderr).toContain('Nothing was written; the output folder is as it was.');
        expect(result.stderr).not.toMatch(/[\x1b\u202a-\u202e\u2066-\u2069\ufeff\ufffe]/);
        expect(await hashTree(dist())).toBe(distHash);
      } finally {
        await restore();
      }
    },
  );

  it(
    'refuses references in page prose, a text page and FAQ answers, ' + 'that the check before rendering let through',
    async () => {
      try {
        await editFile(
          root,
          'content/pages/about.yaml',
          'is an online shop for social',
          'is an online &#x202E;shop for social',
        );
        await editFile(
          root,
          'content/pages/about.yaml',
          'intro: The business you buy from when you order on this site, and where to write to it.',
          'intro: The business you buy from when you order on this site, &#8238;and where to write to it.',
        );
        await editFile(
          root,
          'content/services/buy-instagram-followers.yaml',
          'No. We only need your Instagram username.',
          'No. We only need your &#x2067;Instagram username.',
        );
        await editFile(
          root,
          'content/services/buy-instagram-followers.yaml',
          'Yes. We cannot deliver followers',
          'Yes. We &#x202E;cannot deliver followers',
        );
        await editFile(
          root,
          'content/services/buy-instagram-followers.yaml',
          /(How quickly will my followers arrive\?\n\s+a: >-\n\s+)/,
          '$1&#8238;',
        );
        const privacy = await readFile(path.join(root, 'content/pages/privacy-policy.md'), 'utf8');
        const lines = privacy.split('\n');
        // A line of the body, well below the front matter.
        const at = lines.findIndex((text, i) => i > 12 && /^[A-Z][a-z]/.test(text));
        lines[at] = `${lines[at]} &#x202D;and more`;
        await writeFile(path.join(root, 'content/pages/privacy-policy.md'), lines.join('\n'));
        const result = await runCli(['--root', root, 'build']);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/^Found 6 problems:/m);
        expect(result.stderr).toMatch(
          new RegExp(
            /SF103 {2}content\/pages\/about\.yaml:\d+ › sections\[0\]\.body\n/.source +
              / {2}body contains U\+202E RIGHT-TO-LEFT OVERRIDE /.source +
              /\(written as a character reference, &#…;\) on line 1 of the text/.source,
          ),
        );
        expect(result.stderr).toMatch(
          new RegExp(
            /SF103 {2}content\/pages\/about\.yaml:\d+ › sections\[3\]\.intro\n/.source +
              / {2}intro contains U\+202E RIGHT-TO-LEFT OVERRIDE /.source +
              /\(written as a character reference, &#…;\) once rendered/.source,
          ),
        );
        expect(result.stderr).toMatch(
          new RegExp(
            /content\/services\/buy-instagram-followers\.yaml:\d+ › faq\[0\]\.a\n/.source +
              / {2}a contains U\+2067 RIGHT-TO-LEFT ISOLATE .*an isolate left open/.source,
          ),
        );
        expect(result.stderr).toMatch(
          new RegExp(
            /content\/services\/buy-instagram-followers\.yaml:\d+ › faq\[1\]\.a\n/.source +
              / {2}a contains U\+202E RIGHT-TO-LEFT OVERRIDE/.source,
          ),
        );
        expect(result.stderr).toMatch(
          new RegExp(
            /content\/services\/buy-instagram-followers\.yaml:\d+ › faq\[2\]\.a\n/.source +
              / {2}a contains U\+202E RIGHT-TO-LEFT OVERRIDE/.source,
          ),
        );
        expect(result.stderr).toContain(
          `SF103  content/pages/privacy-policy.md:${at + 1} › body\n  The body contains U+202D LEFT-TO-RIGHT ` +
            'OVERRIDE (written as a character reference, &#…;)',
        );
        expect(result.stderr).toContain('A character reference such as &#x202E; counts as the character it names.');
        expect(await hashTree(dist())).toBe(distHash);
      } finally {
        await restore();
      }
    },
  );

  it(
    'builds right-to-left prose with its marks and closed isolates, typed or as references, ' + 'kept as written',
    async () => {
      try {
        // "Welcome to our shop" in Arabic with a mark; a Hebrew sentence with a name in an isolate.
        const typed = 'مرحبًا بكم في متجرنا\u200f (Example)\u200f. ברוכים הבאים \u2067Example Shop\u2069\u200f.';
        const referenced = 'مرحبًا بكم&#x200F; (Example)&#8207;. ברוכים הבאים &#x2067;Example Shop&#x2069;&rlm;.';
        const decoded = 'مرحبًا بكم\u200f (Example)\u200f. ברוכים הבאים \u2067Example Shop\u2069\u200f.';
        await writeFile(
          path.join(root, 'content/blog/right-to-left.md'),
          postFile('right-to-left', `${typed}\n\n${referenced}`, `"ברוכים הבאים \u2067Example\u2069\u200f"`),
        );
        await editFile(
          root,
          'content/services/buy-instagram-followers.yaml',
          'No. We only need your Instagram username.',
          `No. ${referenced}`,
        );
        const result = await runCli(['--root', root, 'build']);
        expect(result.code, result.stderr).toBe(0);
        const post = await readFile(path.join(dist(), 'blog', 'right-to-left.html'), 'utf8');
        expect(post).toContain(typed);
        expect(post).toContain(decoded);
        const service = await readFile(path.join(dist(), 'buy-instagram-followers.html'), 'utf8');
        expect(service).toContain(decoded);
        const feed = await readFile(path.join(dist(), 'blog', 'feed.xml'), 'utf8');
        expect(feed).toContain('<title>ברוכים הבאים \u2067Example\u2069\u200f</title>');
        expect(await xmlError(feed)).toBeUndefined();
      } finally {
        await restore();
      }
    },
  );
});

describe('WordPress titles, excerpts, bodies and image texts are checked after sanitising', () => {
  const ESC = '\x1b';
  const base = makePosts(1)[0]!;
  const post = (id: number, fields: Partial<FakePost>): FakePost => ({
    ...base,
    id,
    slug: `post-${id}`,
    date_gmt: `2026-01-${String(id).padStart(2, '0')}T10:00:00`,
    modified_gmt: `2026-01-${String(id).padStart(2, '0')}T11:00:00`,
    featuredMedia: undefined,
    ...fields,
  });
  /** Each hostile post, the field the problem names and the character. */
  const hostile: { post: FakePost; field: string; names: string }[] = [
    { post: post(1, { title: `Sale${ESC}]0;pwned${ESC}\\ today` }), field: 'title', names: 'U+001B ESCAPE' },
    { post: post(2, { title: 'Sale &#x202E;txt.exe' }), field: 'title', names: 'U+202E RIGHT-TO-LEFT OVERRIDE' },
    { post: post(3, { title: 'Bell &#7; rings' }), field: 'title', names: 'U+0007 BELL' },
    { post: post(4, { title: `Form${'\f'}feed` }), field: 'title', names: 'U+000C FORM FEED' },
    { post: post(5, { title: 'Null &#1; start' }), field: 'title', names: 'U+0001, a control character' },
    { post: post(6, { excerpt: '<p>Read &#8238;this</p>' }), field: 'excerpt', names: 'U+202E RIGHT-TO-LEFT OVERRIDE' },
    { post: post(7, { excerpt: `<p>Tab\u000bbed</p>` }), field: 'excerpt', names: 'U+000B LINE TABULATION' },
    {
      post: post(8, { content: '<p>A name \u2067left open</p><p>and closed later\u2069</p>' }),
      field: 'content',
      names: 'U+2067 RIGHT-TO-LEFT ISOLATE',
    },
    {
      post: post(9, { content: '<p>Split\ufeffword</p>' }),
      field: 'content',
      names: 'U+FEFF ZERO WIDTH NO-BREAK SPACE',
    },
    {
      post: post(10, {
        content:
          '<p><img src="https://elsewhere.example/x.png" alt="ok"><a href="/x" title="About &#x202D;us">x</a></p>',
      }),
      field: 'content',
      names: 'U+202D LEFT-TO-RIGHT OVERRIDE',
    },
    {
      post: post(11, { content: '<p><strong>&#x206E;0123</strong></p>' }),
      field: 'content',
      names: 'U+206E NATIONAL DIGIT SHAPES',
    },
    {
      post: post(12, { content: '<pre><code>echo \u202e</code></pre>' }),
      field: 'content',
      names: 'U+202E RIGHT-TO-LEFT OVERRIDE',
    },
    {
      post: post(13, { featuredMedia: { id: 9013, alt: 'A chart \u202eof growth', width: 1200, height: 630 } }),
      field: 'featured image alt',
      names: 'U+202E RIGHT-TO-LEFT OVERRIDE',
    },
    { post: post(14, { title: 'Odd &#xFFFF; end' }), field: 'title', names: 'U+FFFF, a noncharacter' },
  ];
  // Right-to-left writing WordPress may send: marks and a closed isolate, typed and as references.
  const hebrew = post(20, {
    slug: 'shalom',
    title: 'ברוכים הבאים &#x2067;Example&#x2069;&rlm;',
    excerpt: '<p>מרחב &#8207;(Example)&#x200F;.</p>',
    content: '<p>ברוכים הבאים <em>\u2067Example Shop\u2069</em>\u200f.</p>',
  });
  const plain = post(21, { slug: 'plain', title: 'Don&#8217;t &amp; won&#8217;t &lt;stop&gt;' });
  let wp: FakeWordPress;
  let root: string;
  let distHash: string;
  const build = (...extra: string[]) =>
    runCli(['--root', root, 'build', '--cms', wp.apiUrl, '--cms-timeout', '5000', '--cms-retries', '0', ...extra]);

  beforeAll(async () => {
    wp = await new FakeWordPress([...hostile.map((c) => c.post), hebrew, plain]).start();
    ({ root } = await project());
    const built = await runCli(['--root', root, 'build']);
    expect(built.code, built.stderr).toBe(0);
    distHash = await hashTree(path.join(root, 'dist'));
  });
  afterAll(() => wp?.stop());

  it(
    `refuses each of ${hostile.length} posts in one pass, naming the post, the field and the character; ` +
      'the output folder is left as it was',
    async () => {
      const result = await build();
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^Found ${hostile.length} problems:`, 'm'));
      const blocks = result.stderr.split(/\n(?=\s*SF\d{3}\s)/);
      for (const { post: p, field, names } of hostile) {
        const block = blocks.find((b) => b.includes(`/wp/v2/posts/${p.id}\n`));
        expect(block, String(p.id)).toBeDefined();
        expect(block, String(p.id)).toMatch(new RegExp(`SF204 {2}${field} › \\S+/wp/v2/posts/${p.id}\\n`));
        expect(block, String(p.id)).toContain(`The post ${p.id} (${p.slug}) has ${names} in its ${field}`);
        expect(block, String(p.id)).toContain('hint: Edit the post in WordPress and delete the character');
      }
      expect(result.stderr).toContain('The post 1 (post-1) has U+001B ESCAPE in its title after "Sale"');
      expect(result.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\u202a-\u202e\u2066-\u2069\ufeff\uffff]/);
      expect(await hashTree(path.join(root, 'dist'))).toBe(distHash);
    },
  );

  it(
    'with --stale-ok leaves them out with a warning; the rest builds, right-to-left marks kept, ' +
      'and the feed is well-formed XML',
    async () => {
      const result = await build('--stale-ok');
      expect(result.code, result.stderr).toBe(0);
      for (const { post: p } of hostile)
        expect(result.stderr).toContain(
          `WARNING: SF204 ${wp.apiUrl}/wp/v2/posts/${p.id}: The post ${p.id} (${p.slug}) has`,
        );
      const feed = await readFile(path.join(root, 'dist', 'blog', 'feed.xml'), 'utf8');
      expect(await xmlError(feed)).toBeUndefined();
      expect(feed).toContain('<title>ברוכים הבאים \u2067Example\u2069\u200f</title>');
      expect(feed).toContain('<summary>מרחב \u200f(Example)\u200f.</summary>');
      expect(feed).toContain('<title>Don’t &amp; won’t &lt;stop&gt;</title>');
      expect(feed.match(/<entry>/g)).toHaveLength(2);
      expect(feed).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\u202a-\u202e\ufeff\uffff]/);
      const page = await readFile(path.join(root, 'dist', 'blog', 'shalom.html'), 'utf8');
      expect(page).toContain('<em>\u2067Example Shop\u2069</em>\u200f.');
      // The parser is a real judge: the same feed with a title holding ESC, as the build wrote one before, is refused.
      expect(await xmlError(feed.replace('<title>Don’t', `<title>Sale${ESC}]0;pwned Don’t`))).toBeDefined();
    },
  );
});

#!/usr/bin/env node
// Writes a deterministic Markdown blog corpus for the build benchmark.
//   node bench/make-corpus.mjs --count N --out DIR [--seed S] [--force]
// Used by scripts/bench-peers.mjs (the benchmark against Eleventy and Hugo) and scripts/bench.mjs.
// Each post's title and body depend only on (seed, post number), so the 1,000-post corpus is the
// first 1,000 posts of the 4,000-post one; only the dates depend on N (they always span ~15 years).
// The text is random sentences over a small word list: no real articles are copied.
import fs from 'node:fs';
import path from 'node:path';

function usage(msg) {
  if (msg) process.stderr.write(`make-corpus: ${msg}\n`);
  process.stderr.write('usage: node bench/make-corpus.mjs --count N --out DIR [--seed S] [--force]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { count: null, out: null, seed: 1, force: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const key = eq > 0 ? a.slice(0, eq) : a;
    const val = () => (eq > 0 ? a.slice(eq + 1) : argv[++i]);
    if (key === '--count') opts.count = val();
    else if (key === '--out') opts.out = val();
    else if (key === '--seed') opts.seed = val();
    else if (key === '--force') opts.force = true;
    else if (key === '-h' || key === '--help') usage();
    else usage(`unknown argument: ${a}`);
  }
  if (!/^[1-9][0-9]*$/.test(String(opts.count ?? ''))) usage('--count must be a positive integer');
  if (!opts.out) usage('--out is required');
  if (!/^[0-9]+$/.test(String(opts.seed))) usage('--seed must be a non-negative integer');
  return { ...opts, count: Number(opts.count), seed: Number(opts.seed) >>> 0 };
}

// mulberry32: tiny, fast and good enough for text; one stream per post keeps posts independent.
function rngFor(seed, n) {
  let a = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n + 1, 0xc2b2ae35)) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (arr) => arr[Math.floor(next() * arr.length)];
  return { next, int, pick, chance: (p) => next() < p };
}

const W = {
  subjects: [
    'creators',
    'small creators',
    'brands',
    'new accounts',
    'local shops',
    'musicians',
    'coaches',
    'streamers',
    'podcasters',
    'artists',
    'small teams',
    'agencies',
    'founders',
    'beginners',
    'most accounts',
    'video makers',
    'photographers',
    'fitness coaches',
    'food bloggers',
    'growing channels',
  ],
  verbs: [
    'grow',
    'boost',
    'measure',
    'track',
    'share',
    'schedule',
    'test',
    'optimise',
    'build',
    'reach',
    'publish',
    'plan',
    'review',
    'launch',
    'repurpose',
    'analyse',
    'nurture',
    'convert',
    'compare',
    'improve',
    'earn',
    'keep',
    'attract',
    'reward',
    'refresh',
    'trim',
    'pin',
    'caption',
    'batch',
    'rethink',
  ],
  nouns: [
    'followers',
    'reach',
    'engagement',
    'audience',
    'content',
    'posts',
    'reels',
    'stories',
    'hashtags',
    'the algorithm',
    'brand voice',
    'niche',
    'growth',
    'analytics',
    'impressions',
    'views',
    'likes',
    'comments',
    'shares',
    'captions',
    'thumbnails',
    'subscribers',
    'watch time',
    'the feed',
    'profile',
    'bio',
    'campaigns',
    'collaborations',
    'community',
    'strategy',
    'trends',
    'hooks',
    'clips',
    'metrics',
    'insights',
    'retention',
    'newsletters',
    'giveaways',
    'partnerships',
    'sponsors',
    'budget',
    'fans',
    'playlists',
    'live streams',
    'short videos',
    'carousels',
    'saves',
    'link clicks',
    'profile visits',
    'replies',
  ],
  adjectives: [
    'organic',
    'consistent',
    'authentic',
    'weekly',
    'daily',
    'viral',
    'steady',
    'local',
    'loyal',
    'short',
    'long-form',
    'visual',
    'honest',
    'simple',
    'clear',
    'fresh',
    'seasonal',
    'targeted',
    'realistic',
    'measurable',
    'early',
    'slow',
    'quick',
    'creative',
    'focused',
    'patient',
    'bold',
    'quiet',
    'useful',
    'niche',
  ],
  adverbs: [
    'quickly',
    'steadily',
    'often',
    'rarely',
    'consistently',
    'carefully',
    'slowly',
    'usually',
    'honestly',
    'gradually',
    'quietly',
    'reliably',
  ],
  preps: ['with', 'for', 'across', 'without', 'after', 'before', 'during', 'through', 'alongside', 'beyond'],
  conns: ['because', 'while', 'so', 'but', 'although', 'when', 'and', 'since'],
  times: [
    'every week',
    'each morning',
    'on weekends',
    'after a launch',
    'in the first hour',
    'over a quarter',
    'before a campaign',
    'every month',
    'at peak times',
    'during a slow season',
    'on launch day',
    'this year',
  ],
  platforms: ['Instagram', 'TikTok', 'YouTube', 'Facebook', 'SoundCloud', 'Twitch', 'Pinterest', 'Threads'],
  code: [
    'followers.count',
    'engagement_rate',
    'utm_source=bio',
    'views / reach',
    'post.scheduledAt',
    '#creatortips',
    'watch_time_hours',
    'reach.organic',
    '--dry-run',
    'saves > likes',
    'ctr',
    'retention[0]',
  ],
  sites: [
    'https://example.com/guides/growth-checklist',
    'https://example.org/reports/creator-survey',
    'https://example.net/tools/caption-planner',
    'https://example.com/research/engagement-benchmarks',
    'https://example.org/help/scheduling-posts',
  ],
  services: [
    '/instagram-followers/',
    '/tiktok-likes/',
    '/youtube-subscribers/',
    '/instagram-views/',
    '/youtube-watch-hours/',
    '/soundcloud-plays/',
  ],
};

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const titleCase = (s) =>
  s
    .split(' ')
    .map((w) => (/^(a|an|the|of|for|to|in|on|with|and|vs)$/.test(w) ? w : cap(w)))
    .join(' ')
    .replace(/^./, (c) => c.toUpperCase());
const slugify = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

// Sentence templates return [text, wordCount]; counting here avoids re-splitting every body.
function sentence(r) {
  const { pick } = r;
  let s;
  switch (r.int(0, 7)) {
    case 0:
      s =
        `${cap(pick(W.subjects))} ${pick(W.verbs)} ${pick(W.adjectives)} ` +
        `${pick(W.nouns)} ${pick(W.preps)} ${pick(W.nouns)} ${pick(W.times)}`;
      break;
    case 1:
      s =
        `${cap(pick(W.subjects))} ${pick(W.adverbs)} ${pick(W.verbs)} ${pick(W.nouns)}, ` +
        `${pick(W.conns)} ${pick(W.subjects)} ${pick(W.verbs)} ${pick(W.adjectives)} ${pick(W.nouns)}`;
      break;
    case 2:
      s =
        `If you ${pick(W.verbs)} your ${pick(W.nouns)} ${pick(W.times)}, your ` +
        `${pick(W.nouns)} will ${pick(W.verbs)} ${pick(W.adjectives)} ${pick(W.nouns)} too`;
      break;
    case 3:
      s =
        `${cap(pick(W.adjectives))} ${pick(W.nouns)} matter more than ` +
        `${pick(W.nouns)} when ${pick(W.subjects)} ${pick(W.verbs)} on ${pick(W.platforms)}`;
      break;
    case 4:
      s =
        `On ${pick(W.platforms)}, ${pick(W.subjects)} who ${pick(W.verbs)} ` +
        `${pick(W.nouns)} ${pick(W.times)} ${pick(W.adverbs)} see more ${pick(W.nouns)}`;
      break;
    case 5:
      s =
        `The ${pick(W.adjectives)} way to ${pick(W.verbs)} ${pick(W.nouns)} is to ` +
        `${pick(W.verbs)} ${pick(W.nouns)} ${pick(W.preps)} ${pick(W.adjectives)} ${pick(W.nouns)}`;
      break;
    case 6:
      s =
        `${cap(pick(W.times))}, ${pick(W.subjects)} ${pick(W.verbs)} ${pick(W.nouns)} and ` +
        `${pick(W.verbs)} the ${pick(W.nouns)} that ${pick(W.verbs)} ${pick(W.nouns)}`;
      break;
    default:
      s =
        `Nobody can ${pick(W.verbs)} ${pick(W.adjectives)} ${pick(W.nouns)} overnight, ${pick(W.conns)} ` +
        `${pick(W.subjects)} ${pick(W.adverbs)} ${pick(W.verbs)} ${pick(W.nouns)} ${pick(W.times)}`;
  }
  return s + (r.chance(0.08) ? '?' : '.');
}

const countWords = (s) => s.split(' ').length;

function paragraph(r, ctx) {
  const parts = [];
  const n = r.int(3, 6);
  for (let i = 0; i < n; i++) parts.push(sentence(r));
  // Decorate one or two sentences with inline Markdown so renderers do real inline work.
  const k = r.int(0, n - 1);
  const words = parts[k].split(' ');
  const w = r.int(1, words.length - 2);
  words[w] = r.chance(0.5) ? `*${words[w]}*` : `**${words[w]}**`;
  parts[k] = words.join(' ');
  if (r.chance(0.45)) parts[r.int(0, n - 1)] += ` Watch \`${r.pick(W.code)}\` closely.`;
  if (r.chance(0.3)) {
    const link = ctx.linkTo(r);
    parts[r.int(0, n - 1)] += ` See [${link.text}](${link.href}) for more.`;
  }
  const text = parts.join(' ');
  return [text, countWords(text)];
}

function listItems(r, n) {
  const items = [];
  for (let i = 0; i < n; i++) {
    const s = r.chance(0.5)
      ? `${cap(r.pick(W.verbs))} ${r.pick(W.adjectives)} ${r.pick(W.nouns)} ${r.pick(W.times)}`
      : `${cap(r.pick(W.adjectives))} ${r.pick(W.nouns)} ${r.pick(W.preps)} ${r.pick(W.nouns)}`;
    items.push(r.chance(0.2) ? `${s} (try \`${r.pick(W.code)}\`)` : s);
  }
  return items;
}

function codeBlock(r) {
  if (r.chance(0.5)) {
    const p = r.pick(W.platforms).toLowerCase();
    return [
      '```json',
      '{',
      `  "platform": "${p}",`,
      `  "followers": ${r.int(100, 250000)},`,
      `  "engagementRate": ${(r.next() * 9 + 0.5).toFixed(2)},`,
      `  "postsPerWeek": ${r.int(1, 21)}`,
      '}',
      '```',
    ];
  }
  return [
    '```js',
    `const rate = (likes + comments) / followers;`,
    `if (rate < ${(r.next() * 0.05).toFixed(3)}) {`,
    `  schedule.add('${r.pick(W.verbs)}', ${r.int(1, 7)});`,
    '}',
    '```',
  ];
}

function title(r) {
  const { pick } = r;
  switch (r.int(0, 4)) {
    case 0:
      return titleCase(`how ${pick(W.subjects)} ${pick(W.verbs)} ${pick(W.adjectives)} ${pick(W.nouns)}`);
    case 1:
      return titleCase(`${r.int(3, 12)} ${pick(W.adjectives)} ways to ${pick(W.verbs)} your ${pick(W.nouns)}`);
    case 2:
      return titleCase(`why ${pick(W.adjectives)} ${pick(W.nouns)} beat ${pick(W.adjectives)} ${pick(W.nouns)}`);
    case 3:
      return titleCase(`the ${pick(W.adjectives)} guide to ${pick(W.nouns)} on ${pick(W.platforms)}`);
    default:
      return titleCase(`what ${pick(W.subjects)} get wrong about ${pick(W.nouns)}`);
  }
}

function post(seed, n, meta, date) {
  const r = rngFor(seed ^ 0x27d4eb2f, n); // the title has its own stream, so any post's slug is cheap to derive
  const ctx = {
    linkTo(rr) {
      if (rr.chance(0.4)) return { text: rr.pick(W.nouns), href: rr.pick(W.sites) };
      if (n > 1 && rr.chance(0.8)) {
        const o = meta(rr.int(1, n - 1));
        return { text: o.title, href: `/blog/${o.slug}` };
      }
      return { text: 'our services', href: rr.pick(W.services) };
    },
  };
  const target = r.int(600, 900);
  const nSections = r.int(2, 3);
  const sections = [{ heading: null, paras: [], extras: [] }];
  for (let i = 0; i < nSections; i++) {
    sections.push({
      heading: titleCase(`${r.pick(W.adjectives)} ${r.pick(W.nouns)} ${r.pick(W.times)}`),
      paras: [],
      extras: [],
    });
  }
  let words = 0;
  const add = (sec, lines, wc) => {
    sec.extras.push(lines);
    words += wc;
  };
  const bullets = listItems(r, r.int(3, 6));
  add(
    sections[1],
    bullets.map((s) => `- ${s}`),
    bullets.join(' ').split(' ').length,
  );
  const numbered = listItems(r, r.int(3, 5));
  add(
    sections[nSections],
    numbered.map((s, i) => `${i + 1}. ${s}`),
    numbered.join(' ').split(' ').length,
  );
  const abs = r.pick(W.sites);
  add(sections[r.int(1, nSections)], [`Useful reading: [${r.pick(W.nouns)} notes](${abs}).`], 3);
  // Every post links to an older one, so a renderer always meets a relative /blog/ link.
  const related = n > 1 ? meta(r.int(1, n - 1)) : null;
  add(
    sections[nSections],
    [related ? `Related: [${related.title}](/blog/${related.slug}).` : 'Related: [all posts](/blog/).'],
    6,
  );
  if (r.chance(0.35)) {
    const q = sentence(r);
    add(sections[r.int(0, nSections)], [`> ${q}`], countWords(q));
  }
  if (r.chance(0.25)) add(sections[r.int(1, nSections)], codeBlock(r), 12);
  // Paragraphs go round-robin until the word target, so every section has prose.
  for (let i = 0; words < target; i++) {
    const [text, wc] = paragraph(r, ctx);
    sections[i % sections.length].paras.push(text);
    words += wc;
  }
  const out = [];
  for (const sec of sections) {
    if (sec.heading) out.push(`## ${sec.heading}`, '');
    const blocks = sec.paras.map((p) => [p]);
    // Lists and quotes sit after the section's first paragraph, as writers usually place them.
    blocks.splice(Math.min(1, blocks.length), 0, ...sec.extras);
    for (const b of blocks) out.push(...b, '');
  }
  const m = meta(n);
  const excerpt = sentence(r);
  return `---\ntitle: "${m.title}"\ndate: ${date}\nslug: ${m.slug}\nexcerpt: "${excerpt}"\n---\n\n${out.join('\n')}`;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const out = path.resolve(opts.out);
  fs.mkdirSync(out, { recursive: true });
  const existing = fs.readdirSync(out).filter((f) => /^post-\d+\.md$/.test(f));
  if (existing.length) {
    if (!opts.force) usage(`${out} already holds ${existing.length} posts (pass --force to replace them)`);
    for (const f of existing) fs.unlinkSync(path.join(out, f));
  }
  const titles = new Map();
  const meta = (n) => {
    let m = titles.get(n);
    if (!m) {
      const t = title(rngFor(opts.seed, n));
      m = { title: t, slug: `${slugify(t)}-${n}` }; // the number makes slugs unique
      titles.set(n, m);
    }
    return m;
  };
  // Dates spread evenly over 2012-01-01 .. 2026-10-31 with jitter; minute steps keep them distinct.
  const start = Date.UTC(2012, 0, 1) / 60000;
  const spanMin = Date.UTC(2026, 9, 31) / 60000 - start;
  const step = Math.max(1, Math.floor(spanMin / opts.count));
  const width = Math.max(5, String(opts.count).length);
  for (let n = 1; n <= opts.count; n++) {
    const r = rngFor(opts.seed ^ 0x5bd1e995, n);
    const minute = start + (n - 1) * step + Math.floor(r.next() * step);
    const date = new Date(minute * 60000).toISOString().replace(/:00\.000Z$/, ':00Z');
    fs.writeFileSync(path.join(out, `post-${String(n).padStart(width, '0')}.md`), post(opts.seed, n, meta, date));
  }
  process.stderr.write(`make-corpus: wrote ${opts.count} posts to ${out}\n`);
}

main();

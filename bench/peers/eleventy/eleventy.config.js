// Eleventy reads the corpus folder itself as its input dir (scripts/bench-peers.mjs passes
// --input), so nothing is copied per build. The layouts and the list page come in as virtual
// templates, which keeps the corpus free of Eleventy files that Hugo would also pick up.
// site.json is bench/site.json, copied beside this file when the peer is installed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const read = (file) => fs.readFileSync(path.join(here, file), 'utf8');

export default function (eleventyConfig) {
  eleventyConfig.setQuietMode(true);
  eleventyConfig.addGlobalData('site', JSON.parse(read('site.json')));
  eleventyConfig.addGlobalData('layout', 'post.njk');
  eleventyConfig.addGlobalData('permalink', () => (data) => `/blog/${data.slug}/index.html`);
  eleventyConfig.addFilter('isoDate', (date) => date.toISOString().slice(0, 10));
  eleventyConfig.addCollection('posts', (api) =>
    api
      .getAll()
      .filter((item) => item.data.slug)
      .sort((a, b) => b.date - a.date),
  );
  eleventyConfig.addTemplate('_includes/base.njk', read('base.njk'));
  eleventyConfig.addTemplate('_includes/post.njk', read('post.njk'));
  eleventyConfig.addTemplate('blog-index.njk', read('blog-index.njk'));
  return {
    // Posts are plain Markdown: skip Eleventy's default Liquid pre-pass over every body, as Hugo
    // and a React renderer don't template post bodies either.
    markdownTemplateEngine: false,
    templateFormats: ['md', 'njk'],
  };
}

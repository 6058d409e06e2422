import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkContentImage } from '../content/content-image.js';
import { checkedContentImageFiles, IMAGE_FILE } from '../content/local-image.js';
import { ProblemList } from '../errors/storefront-error.js';
import { precompiled } from '../util/precompiled.js';

export interface Asset {
  /** Path under the output folder, e.g. `assets/site.3f2a9c1b.css`. */
  file: string;
  contents: string | Buffer;
}

const contentHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 10);

/** The stylesheet, minified by esbuild. */
export async function compileStylesheet(root: string): Promise<string> {
  const { transform } = await import('esbuild');
  const source = await readFile(path.join(root, 'templates', 'styles.css'), 'utf8');
  return (await transform(source, { loader: 'css', minify: true, target: ['chrome100', 'firefox100', 'safari15'] }))
    .code;
}

/** A browser script (by default the site's), bundled and minified by esbuild. */
export async function compileScript(root: string, entry = 'src/browser/site.ts'): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    legalComments: 'none',
  });
  return result.outputFiles[0]!.text;
}

/** The stylesheet, under a content-hashed name so it can be cached for a year (compiled by `npm run compile`). */
export async function stylesheetAsset(root: string): Promise<Asset> {
  const css = await precompiled(root, 'site.css', [path.join(root, 'templates', 'styles.css')], () =>
    compileStylesheet(root),
  );
  return { file: `assets/site.${contentHash(css)}.css`, contents: css };
}

/** The browser script, under a content-hashed name. */
export async function scriptAsset(root: string): Promise<Asset> {
  const browserDir = path.join(root, 'src', 'browser');
  const sources = (await readdir(browserDir)).map((name) => path.join(browserDir, name));
  const js = await precompiled(root, 'site.js', sources, () => compileScript(root));
  return { file: `assets/site.${contentHash(js)}.js`, contents: js };
}

/** A file the writer copies from the project as it is, at most `limit` bytes (see SiteWriter.copy). */
export interface CopiedFile {
  file: string;
  source: string;
  limit: number;
}

/**
 * Images of the content (content/images/**), published at /images/: the files contentImageFiles
 * lists, each as checkContentImage allows it. An SVG is written as it was rebuilt; any other
 * image is copied as it is, as a stream (CopiedFile): never all of them in memory. The content
 * stage reported every problem already; one here means a file changed since.
 */
export async function contentImages(contentDir: string): Promise<(Asset | CopiedFile)[]> {
  const files: (Asset | CopiedFile)[] = [];
  const problems = new ProblemList();
  for (const image of checkedContentImageFiles(contentDir)) {
    const checked = checkContentImage(image);
    const file = `images/${image.name}`;
    if ('problem' in checked) problems.add(checked.problem);
    else
      files.push(
        checked.contents ? { file, contents: checked.contents } : { file, source: image.real, limit: IMAGE_FILE.limit },
      );
  }
  problems.throwIfAny();
  return files;
}

/** Files copied as they are: the favicon. (The share cards are made by src/images/share-cards.ts.) */
export async function staticAssets(root: string): Promise<Asset[]> {
  const dir = path.join(root, 'templates', 'static');
  return Promise.all(
    ['favicon.svg'].map(async (file) => ({
      file,
      contents: await readFile(path.join(dir, file)),
    })),
  );
}

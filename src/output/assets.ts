import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { build as esbuild, transform } from 'esbuild';

export interface Asset {
  /** Path under the output folder, e.g. `assets/site.3f2a9c1b.css`. */
  file: string;
  contents: string | Buffer;
}

const contentHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 10);

/** The stylesheet, under a content-hashed name so it can be cached for a year. */
export async function stylesheetAsset(root: string): Promise<Asset> {
  const source = await readFile(path.join(root, 'templates', 'styles.css'), 'utf8');
  const css = (await transform(source, { loader: 'css', minify: true, target: ['chrome100', 'firefox100', 'safari15'] })).code;
  return { file: `assets/site.${contentHash(css)}.css`, contents: css };
}

/** The browser script, bundled and minified by esbuild, under a content-hashed name. */
export async function scriptAsset(root: string): Promise<Asset> {
  const result = await esbuild({
    entryPoints: [path.join(root, 'src', 'browser', 'site.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    legalComments: 'none',
  });
  const js = result.outputFiles[0]!.text;
  return { file: `assets/site.${contentHash(js)}.js`, contents: js };
}

/** Images of the content (content/images/**), copied to /images/. */
export async function contentImages(contentDir: string): Promise<Asset[]> {
  const dir = path.join(contentDir, 'images');
  if (!existsSync(dir)) return [];
  const names = (await readdir(dir, { recursive: true })).map(String);
  const files: Asset[] = [];
  for (const name of names.sort()) {
    const full = path.join(dir, name);
    if (!(await stat(full)).isFile()) continue;
    files.push({ file: `images/${name.split(path.sep).join('/')}`, contents: await readFile(full) });
  }
  return files;
}

/** Files copied as they are: the favicon and the Open Graph image. */
export async function staticAssets(root: string): Promise<Asset[]> {
  const dir = path.join(root, 'templates', 'static');
  return Promise.all(
    ['favicon.svg', 'assets/og-image.png'].map(async (file) => ({
      file,
      contents: await readFile(path.join(dir, file)),
    })),
  );
}

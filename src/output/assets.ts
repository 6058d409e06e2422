import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface Asset {
  /** Path under the output folder, e.g. `assets/site.3f2a9c1b.css`. */
  file: string;
  contents: string | Buffer;
}

/** The stylesheet, under a content-hashed name so it can be cached for a year. */
export async function stylesheetAsset(root: string): Promise<Asset> {
  const css = await readFile(path.join(root, 'templates', 'styles.css'), 'utf8');
  const hash = createHash('sha256').update(css).digest('hex').slice(0, 10);
  return { file: `assets/site.${hash}.css`, contents: css };
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

/**
 * One module per host (issue 42, item 4): every host in src/hosts/hosts.ts has its module
 * (src/hosts/<name>.ts) exporting a complete Host, a page docs/hosts/<name>.md that deploying.md
 * links to, and its files in test/build/targets.test.ts. Reads files and modules only: no build.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Host, HostFileMakers } from '../../src/hosts/host.js';
import { HOSTS, TARGETS } from '../../src/hosts/hosts.js';
import { repoRoot } from '../helpers.js';

const read = (rel: string) => readFileSync(path.join(repoRoot, rel), 'utf8');

/** Makers that name what a host asked for, in order. */
const named: HostFileMakers<string> = {
  redirects: (force) => (force ? '_redirects 301!' : '_redirects'),
  headers: () => '_headers',
  nginxConf: () => '_nginx.conf',
  redirectPages: () => ['redirect pages'],
};
/** The files each way of reading back implies. */
const filesOf: Record<Host['readBack'], string[][]> = {
  'rule files': [
    ['_redirects', '_headers'],
    ['_redirects 301!', '_headers'],
  ],
  nginx: [['_nginx.conf']],
  'redirect pages': [['redirect pages']],
};

describe('every host of the list', () => {
  it('has a name of its own, in the order of --target', () => {
    expect(new Set(TARGETS).size).toBe(HOSTS.length);
    expect(TARGETS).toEqual(HOSTS.map((host) => host.name));
  });

  for (const host of HOSTS) {
    describe(host.name, () => {
      it('has a module, src/hosts/<name>.ts, that exports it', async () => {
        const file = path.join(repoRoot, 'src', 'hosts', `${host.name}.ts`);
        const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
        expect(Object.values(module)).toContain(host);
      });

      it('is a complete Host', () => {
        expect(host.title).toMatch(/\S/);
        expect(typeof host.compresses).toBe('boolean');
        expect(typeof host.servesAtRoot).toBe('boolean');
        expect(Object.keys(filesOf)).toContain(host.readBack);
        // The files it is given agree with what preview and check read back.
        expect(filesOf[host.readBack]).toContainEqual(host.files(named));
        if (host.buildService) {
          const { name, variable, value, settings, setsTarget } = host.buildService;
          for (const text of [name, variable, value, settings]) expect(text).toMatch(/\S/);
          expect(typeof setsTarget).toBe('boolean');
        }
        if (host.warning !== undefined) expect(host.warning).toMatch(/^WARNING: /);
        if (host.limits) {
          const limits = host.limits({});
          expect(limits.host).toBe(host.title);
          const { host: _, ...each } = limits;
          expect(Object.keys(each).length).toBeGreaterThan(0);
          for (const limit of Object.values(each)) {
            expect(limit.limit).toBeGreaterThan(0);
            expect(limit.docs).toMatch(/^https:\/\//);
          }
        }
      });

      it('has a page, docs/hosts/<name>.md, that deploying.md links to', () => {
        expect(existsSync(path.join(repoRoot, 'docs', 'hosts', `${host.name}.md`))).toBe(true);
        expect(read('docs/deploying.md')).toContain(`](hosts/${host.name}.md)`);
      });

      it('is covered by test/build/targets.test.ts (its host files)', () => {
        const test = read('test/build/targets.test.ts');
        expect(test).toContain("import { TARGETS, type Target } from '../../src/hosts/hosts.js';");
        expect(test).toMatch(new RegExp(`^ {4}'?${host.name}'?: \\{ _redirects: `, 'm'));
      });
    });
  }
});

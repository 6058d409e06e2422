/**
 * `--format`, through the real CLI: `check` and `build` print their problems on stdout as CI
 * systems read them, each read back by the reader a CI system would use (GitHub's syntax, a JUnit
 * parser, the SARIF 2.1.0 schema, JSON.parse); GitHub Actions gets annotations unasked.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as AjvModule from 'ajv';
import { parse as parseJunit } from 'junit2json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editFile, repoRoot, runCli, tempProject } from '../helpers.js';

const Ajv = (AjvModule as unknown as { default: typeof AjvModule.Ajv }).default;
const fixture = path.join(repoRoot, 'test', 'fixtures', 'check-broken-site');
const dir = 'test/fixtures/check-broken-site';

/** How many problems the text report on stderr counts. */
const counted = (stderr: string) => Number(/Found (\d+) problems/.exec(stderr)?.[1]);

/** The annotations of stdout: `::error file=…,line=…::message`, properties unescaped of %2C only (none else here). */
function annotations(stdout: string) {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => {
      const match = /^::error (.*?)::(.*)$/.exec(line);
      expect(match, line).not.toBeNull();
      const properties = Object.fromEntries(match![1]!.split(',').map((p) => p.split('=') as [string, string]));
      return { properties, message: match![2]! };
    });
}

describe('check --format', () => {
  let text: { stderr: string };
  beforeAll(async () => {
    text = await runCli(['check', '--out', fixture]);
  });

  it('github: an annotation per problem, at its file of the output folder; unasked on GitHub Actions', async () => {
    for (const run of [
      await runCli(['check', '--out', fixture, '--format', 'github']),
      await runCli(['check', '--out', fixture], { GITHUB_ACTIONS: 'true' }),
    ]) {
      expect(run.code).toBe(1);
      const found = annotations(run.stdout);
      expect(found).toHaveLength(counted(text.stderr));
      expect(found).toContainEqual({
        properties: { file: `${dir}/index.html`, title: 'SF301' },
        message: expect.stringMatching(
          /^The link to \/buy-instagrm-followers on \/ is broken: no such page\.%0Ahint: /,
        ),
      });
      // The report a person reads is still on stderr.
      expect(run.stderr).toBe(text.stderr);
    }
  });

  it('junit: a JUnit document a JUnit parser reads, a failed case per problem; nothing else on stdout', async () => {
    const run = await runCli(['check', '--out', fixture, '--format', 'junit']);
    expect(run.code).toBe(1);
    const suites = await parseJunit(run.stdout);
    const suite = (suites as { testsuite?: { failures?: number; testcase?: { failure?: { type?: string }[] }[] }[] })
      .testsuite![0]!;
    expect(suite.failures).toBe(counted(text.stderr));
    expect(suite.testcase!.filter((c) => c.failure?.[0]?.type === 'SF304')).toHaveLength(3);
  });

  it('sarif: a document valid against the SARIF 2.1.0 schema, a result per problem at its file', async () => {
    const run = await runCli(['check', '--out', fixture, '--format', 'sarif']);
    expect(run.code).toBe(1);
    const schema = JSON.parse(readFileSync(path.join(repoRoot, 'test', 'fixtures', 'sarif-schema-2.1.0.json'), 'utf8'));
    const ajv = new Ajv({ strict: false, unicodeRegExp: false, validateFormats: false });
    const log = JSON.parse(run.stdout);
    expect(ajv.validate(schema, log), ajv.errorsText()).toBe(true);
    const results = log.runs[0].results as { ruleId: string; locations: unknown[] }[];
    expect(results).toHaveLength(counted(text.stderr));
    expect(results.map((r) => JSON.stringify(r.locations))).toContainEqual(
      expect.stringContaining(`"uri":"${dir}/_redirects"`),
    );
  });

  it('json: the problems with their places', async () => {
    const run = await runCli(['check', '--out', fixture, '--format', 'json']);
    const report = JSON.parse(run.stdout) as { tool: string; problems: { code: string; file?: string }[] };
    expect(report.tool).toBe('storefront check');
    expect(report.problems).toHaveLength(counted(text.stderr));
    expect(report.problems).toContainEqual(expect.objectContaining({ code: 'SF303', file: `${dir}/sitemap.xml` }));
  });
});

describe('build --format', () => {
  let project: Awaited<ReturnType<typeof tempProject>>;
  beforeAll(async () => {
    project = await tempProject();
  });
  afterAll(() => project?.cleanup());

  it('a build that passes writes its report (no failure), and its summary goes to stderr', async () => {
    const run = await runCli(['--root', project.root, 'build', '--format', 'junit']);
    expect(run.code, run.stderr).toBe(0);
    const suites = (await parseJunit(run.stdout)) as { failures?: number; tests?: number };
    expect(suites.failures).toBe(0);
    expect(run.stderr).toMatch(/pages/);
  });

  it('github: a link in content to no page is annotated at its file, line and column', async () => {
    const file = 'content/pages/privacy-policy.md';
    await editFile(
      project.root,
      file,
      '## Our legitimate interests',
      'See [terms](/terms-of-servic).\n\n## Our legitimate interests',
    );
    const line =
      readFileSync(path.join(project.root, file), 'utf8').split('\n').indexOf('See [terms](/terms-of-servic).') + 1;
    const run = await runCli(['--root', project.root, 'build', '--format', 'github']);
    expect(run.code).toBe(1);
    expect(annotations(run.stdout)).toEqual([
      {
        properties: { file, line: String(line), col: '13', title: 'SF121 (body)' },
        message: expect.stringMatching(/^The link to \/terms-of-servic points to no page of the site\./),
      },
    ]);
  });
});

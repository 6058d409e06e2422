/**
 * Problems for CI systems (src/errors/problem-formats.ts), read back as those systems read them:
 * GitHub's workflow commands by their documented syntax and the runner's unescaping, JUnit XML by
 * a JUnit parser (junit2json, over xml2js and sax in strict mode), SARIF by Ajv against the SARIF
 * 2.1.0 JSON Schema of the OASIS committee (test/fixtures/sarif-schema-2.1.0.json) and by the
 * rules GitHub code scanning adds, JSON by JSON.parse.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as AjvModule from 'ajv';
import { parse as parseJunit, type TestSuites } from 'junit2json';
import { describe, expect, it } from 'vitest';
import { codeTitles, problem } from '../../src/errors/catalogue.js';
import { formatProblems, PROBLEM_FORMATS } from '../../src/errors/problem-formats.js';
import type { Problem } from '../../src/errors/storefront-error.js';

const Ajv = (AjvModule as unknown as { default: typeof AjvModule.Ajv }).default;

const run = { tool: 'storefront check', version: '0.1.0', summary: 'Checked 20 pages: 4 problems.' };

/** A link in content to no page, with its file, line, column and field. */
const missingPage = problem(
  'linkToMissingPage',
  { href: '/pricing', closest: '/prices' },
  { file: 'content/pages/home.yaml', line: 12, column: 5, field: 'sections[2].cta.href' },
);
/** A broken link `storefront check` found, placed by its URL only. */
const brokenLink = problem(
  'checkBrokenLink',
  { link: 'https://cms.example.com/old post', cause: 'HTTP 404' },
  { url: 'https://cms.example.com:8443/wp-json/wp/v2/posts/7?context=view' },
);
/**
 * Text as content or a server may write it: what each format must escape (`%`, `,`, `:`, line
 * breaks, `<`, `&`, quotes), a control character XML cannot hold, and an emoji it can.
 */
const HOSTILE = '/a%20b,c:d 100%0A\nnext line\rafter <script>alert("x")</script> & \'q\' \u0007 🛒';
const hostile = problem(
  'linkToMissingPage',
  { href: HOSTILE, closest: '/' },
  { file: 'content\\blog\\50%, off::now.md', line: 3 },
);
/** A problem with no place at all: a flag against another flag. */
const placeless = problem('offlineWithStaleOk', {});
const problems: Problem[] = [missingPage, brokenLink, hostile, placeless];

/** The message and the hint, as every format writes them. */
const details = (p: Problem) => `${p.message}\nhint: ${p.hint}`;

describe('PROBLEM_FORMATS', () => {
  it('lists every format, text first (the default)', () => {
    expect(PROBLEM_FORMATS).toEqual(['text', 'github', 'junit', 'sarif', 'json']);
  });
});

describe('github', () => {
  // Each line read as the runner reads it (actions/runner, ActionCommand.TryParseV2): the command
  // info runs from `::` to the next `::`, its properties are split at `,` and then at the first
  // `=`; a property is unescaped from %0D, %0A, %3A, %2C and then %25 (%XX: the character's code
  // in hexadecimal), the message from %0D, %0A and then %25.
  const decoded = (s: string, characters: string[]) =>
    [...characters, '%'].reduce(
      (text, c) => text.replaceAll(`%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`, c),
      s,
    );
  const decodeData = (s: string) => decoded(s, ['\r', '\n']);
  const decodeProperty = (s: string) => decoded(s, ['\r', '\n', ':', ',']);
  const commands = (text: string) =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        expect(line.startsWith('::')).toBe(true);
        const end = line.indexOf('::', 2);
        const info = line.slice(2, end);
        const space = info.indexOf(' ');
        const pairs = space < 0 ? [] : info.slice(space + 1).split(',');
        const properties = Object.fromEntries(
          pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), decodeProperty(pair.slice(pair.indexOf('=') + 1))]),
        );
        const command = space < 0 ? info : info.slice(0, space);
        return { command, properties, message: decodeData(line.slice(end + 2)) };
      });

  it('is one ::error command a line, each problem read back whole', () => {
    const text = formatProblems('github', problems, run);
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toContain('\r');
    expect(commands(text)).toEqual([
      {
        command: 'error',
        properties: { file: 'content/pages/home.yaml', line: '12', col: '5', title: 'SF121 sections[2].cta.href' },
        message: details(missingPage),
      },
      {
        command: 'error',
        properties: { title: `SF301 ${brokenLink.url}` },
        message: details(brokenLink),
      },
      {
        command: 'error',
        properties: { file: 'content/blog/50%, off::now.md', line: '3', title: 'SF121' },
        message: details(hostile),
      },
      { command: 'error', properties: { title: placeless.code }, message: details(placeless) },
    ]);
    expect(hostile.message).toContain(HOSTILE);
  });

  it('prints nothing without problems', () => {
    expect(formatProblems('github', [], run)).toBe('');
  });
});

describe('junit', () => {
  /** Characters XML 1.0 allows (its `Char` production). */
  const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

  it('is a suite with one failing test case per problem, read back by a JUnit parser', async () => {
    const xml = formatProblems('junit', problems, run);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml).toMatch(XML_CHAR);
    const report = (await parseJunit(xml)) as TestSuites;
    expect(report).toMatchObject({ name: run.tool, tests: 4, failures: 4 });
    const suite = report.testsuite![0]!;
    expect(suite).toMatchObject({ name: run.tool, tests: 4, failures: 4, errors: 0, skipped: 0 });
    expect(suite.properties).toEqual([
      { name: 'version', value: run.version },
      { name: 'summary', value: run.summary },
    ]);
    const cases = suite.testcase!;
    expect(cases.map((c) => [c.name, c.classname])).toEqual([
      ['SF121 content/pages/home.yaml:12:5 › sections[2].cta.href', 'content/pages/home.yaml'],
      [`SF301 ${brokenLink.url}`, brokenLink.url],
      ['SF121 content\\blog\\50%, off::now.md:3', 'content\\blog\\50%, off::now.md'],
      ['SF170', run.tool],
    ]);
    for (const [index, testCase] of cases.entries()) {
      const p = problems[index]!;
      expect(testCase.failure).toHaveLength(1);
      expect(testCase.failure![0]!.type).toBe(p.code);
      if (p !== hostile) {
        expect(testCase.failure![0]!.message).toBe(p.message);
        expect(testCase.failure![0]!.inner).toContain(details(p));
      }
    }
  });

  it('keeps hostile text as text, line breaks and all, and replaces what XML cannot hold', async () => {
    const xml = formatProblems('junit', [hostile], run);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('\u0007');
    const report = (await parseJunit(xml)) as TestSuites;
    const failure = report.testsuite![0]!.testcase![0]!.failure![0]!;
    const readable = (text: string) => text.replace('\u0007', '\uFFFD');
    expect(failure.message).toBe(readable(hostile.message));
    expect(failure.message).toContain('\nnext line\rafter <script>alert("x")</script> & \'q\' \uFFFD 🛒');
    expect(failure.inner).toBe(`${readable(details(hostile))}\ncontent\\blog\\50%, off::now.md:3`);
  });

  it('is one passing test case without problems, so the suite is never empty', async () => {
    const report = (await parseJunit(formatProblems('junit', [], { tool: run.tool, version: run.version })))!;
    expect(report).toMatchObject({ tests: 1, failures: 0 });
    const suite = (report as TestSuites).testsuite![0]!;
    expect(suite.properties).toEqual([{ name: 'version', value: run.version }]);
    expect(suite.testcase).toEqual([{ name: 'no problems', classname: run.tool }]);
  });
});

describe('sarif', () => {
  // The committee's schema is draft-07, Ajv's default. Its `language` pattern is no valid Unicode
  // regular expression, so patterns are compiled as plain ones, as JSON Schema's ECMA 262 dialect
  // was before `u`. Ajv ships no formats: the three the schema names are checked here by RFC 3986's
  // character set (URI references; a URI also has a scheme) and RFC 3339's form (date-time).
  const ajv = new Ajv({ allErrors: true, unicodeRegExp: false });
  const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
  const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
  ajv.addFormat('uri-reference', URI_CHARACTERS);
  ajv.addFormat('uri', (s: string) => URI_CHARACTERS.test(s) && SCHEME.test(s) && URL.canParse(s));
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/i);
  const schemaFile = path.join(import.meta.dirname, '../fixtures/sarif-schema-2.1.0.json');
  const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));

  interface Location {
    physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number; startColumn?: number } };
  }
  interface Log {
    runs: {
      tool: { driver: { name: string; version: string; rules: { id: string; shortDescription: { text: string } }[] } };
      automationDetails: { id: string };
      invocations: { executionSuccessful: boolean; toolExecutionNotifications?: Record<string, unknown>[] }[];
      results: { ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: Location[] }[];
    }[];
  }
  const sarifOf = (list: readonly Problem[]) => JSON.parse(formatProblems('sarif', list, run)) as Log;

  it('is valid against the SARIF 2.1.0 schema, with problems or without', () => {
    for (const list of [problems, []]) {
      const log = sarifOf(list);
      expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    }
  });

  it('is refused by the same validator when it is not SARIF (the check checks)', () => {
    const log = sarifOf(problems);
    log.runs[0]!.results[0]!.level = 'fatal';
    expect(validate(log)).toBe(false);
    const badUri = sarifOf(problems);
    badUri.runs[0]!.results[0]!.locations[0]!.physicalLocation!.artifactLocation!.uri = 'content/a b.yaml';
    expect(validate(badUri)).toBe(false);
  });

  it('has a rule per code, titled from the catalogue, and a result or notification per problem', () => {
    const [only] = sarifOf(problems).runs;
    const { driver } = only!.tool;
    expect(driver).toMatchObject({ name: 'storefront', version: run.version });
    expect(driver.rules).toEqual(
      ['SF121', 'SF170', 'SF301'].map((id) => ({ id, shortDescription: { text: codeTitles[id as 'SF121'] } })),
    );
    expect(only!.automationDetails.id).toBe('storefront check/');
    expect(only!.results.map((r) => [r.ruleId, driver.rules[r.ruleIndex]!.id, r.level, r.message.text])).toEqual(
      [missingPage, brokenLink, hostile].map((p) => [p.code, p.code, 'error', details(p)]),
    );
    expect(only!.invocations).toEqual([
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          { level: 'error', message: { text: details(placeless) }, associatedRule: { id: 'SF170', index: 1 } },
        ],
      },
    ]);
  });

  it('places each result as GitHub code scanning requires: one relative, non-empty URI at least', () => {
    const locations = sarifOf(problems).runs[0]!.results.map((r) => r.locations);
    for (const list of locations) {
      expect(list.length).toBeGreaterThan(0);
      for (const { physicalLocation } of list) {
        const uri = physicalLocation?.artifactLocation?.uri ?? '';
        expect(uri).not.toBe('');
        expect(uri).not.toMatch(SCHEME);
        // The errata of SARIF 2.1.0 require a region to have its start line.
        if (physicalLocation?.region) expect(physicalLocation.region.startLine).toBeGreaterThan(0);
      }
    }
    expect(locations.map((list) => list[0]!.physicalLocation)).toEqual([
      { artifactLocation: { uri: 'content/pages/home.yaml' }, region: { startLine: 12, startColumn: 5 } },
      { artifactLocation: { uri: 'cms.example.com%3A8443/wp-json/wp/v2/posts/7' } },
      { artifactLocation: { uri: 'content/blog/50%25%2C%20off%3A%3Anow.md' }, region: { startLine: 3 } },
    ]);
  });
});

describe('json', () => {
  it('is the run and every problem with its defined keys only, and no frame', () => {
    const framed = { ...missingPage, frame: ['  11 | a', '> 12 | b', '     |     ^'] };
    const report = JSON.parse(formatProblems('json', [framed, placeless], run));
    expect(report).toEqual({
      tool: 'storefront check',
      version: '0.1.0',
      summary: run.summary,
      problems: [
        {
          code: 'SF121',
          message: missingPage.message,
          hint: missingPage.hint,
          file: 'content/pages/home.yaml',
          line: 12,
          column: 5,
          field: 'sections[2].cta.href',
        },
        { code: 'SF170', message: placeless.message, hint: placeless.hint },
      ],
    });
  });

  it('has no summary key when the run has none', () => {
    expect(JSON.parse(formatProblems('json', [], { tool: 'storefront build', version: '0.1.0' }))).toEqual({
      tool: 'storefront build',
      version: '0.1.0',
      problems: [],
    });
  });
});

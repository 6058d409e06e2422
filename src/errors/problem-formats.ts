import { codeTitles } from './catalogue.js';
import { problemPlace } from './problem-place.js';
import type { Problem } from './storefront-error.js';

/**
 * Problems as CI systems read them (issue 42): GitHub Actions annotations, JUnit XML (GitLab,
 * Jenkins, CircleCI, Azure), SARIF 2.1.0 (GitHub code scanning) or plain JSON. `text` is the
 * terminal's (src/cli/report-error.ts), not made here. No format carries `frame`: its lines are
 * drawn for a terminal, and every format here has the line and column as data.
 */
export const PROBLEM_FORMATS = ['text', 'github', 'junit', 'sarif', 'json'] as const;
export type ProblemFormat = (typeof PROBLEM_FORMATS)[number];

/** What ran: `tool` as typed (`storefront check`), the package's version, the run's summary line. */
export interface ProblemRun {
  tool: string;
  version: string;
  summary?: string;
}

/** The whole text to print on stdout, ending with a line break (nothing for `github` without problems). */
export function formatProblems(
  format: Exclude<ProblemFormat, 'text'>,
  problems: readonly Problem[],
  run: ProblemRun,
): string {
  switch (format) {
    case 'github':
      return problems.map((p) => `${githubCommand(p)}\n`).join('');
    case 'junit':
      return junit(problems, run);
    case 'sarif':
      return `${JSON.stringify(sarif(problems, run), null, 2)}\n`;
    case 'json':
      return `${JSON.stringify(jsonReport(problems, run), null, 2)}\n`;
  }
}

/** The message and, on its own line, the hint, as the terminal shows them. */
const details = (p: Problem) => (p.hint ? `${p.message}\nhint: ${p.hint}` : p.message);
/** A file as CI systems name files: forward slashes, whatever the system that ran. */
const slashed = (file: string) => file.replaceAll('\\', '/');
/** Line and column where they mean something: a line of a known file, a column of a known line. */
function position(p: Problem): { line?: number; column?: number } {
  const line = p.file && p.line && p.line > 0 ? p.line : undefined;
  return { line, column: line && p.column && p.column > 0 ? p.column : undefined };
}

// GitHub: `::error file=F,line=L,col=C,title=T::message`, escaped as @actions/core's command.ts
// escapes (escapeData, escapeProperty): the runner decodes exactly these, and a raw line break
// would end the command, a raw `,` or `:` a property.
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function githubCommand(p: Problem): string {
  const { line, column } = position(p);
  // The title says what the annotation has no property for: the field, and a URL when no file
  // places it (an annotation without a file is still listed in the run's summary).
  const title = [p.code, p.field, p.file ? undefined : p.url].filter(Boolean).join(' ');
  const properties = Object.entries({ file: p.file && slashed(p.file), line, col: column, title })
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`);
  return `::error ${properties.join(',')}::${escapeData(details(p))}`;
}

// JUnit XML. Problems may carry text from content or from a server: characters XML 1.0 cannot
// hold (C0 controls but tab and line breaks, lone surrogates, U+FFFE, U+FFFF) become U+FFFD, and
// so do DEL and the C1 controls, which it may hold but some readers refuse. Line breaks and tabs
// are written as references in attributes (a parser turns raw ones into spaces), and a carriage
// return everywhere (a parser drops it before a line feed).
const NOT_XML = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XML_TEXT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const XML_ATTRIBUTE: Record<string, string> = {
  ...XML_TEXT,
  '"': '&quot;',
  "'": '&apos;',
  '\n': '&#10;',
  '\t': '&#9;',
};
const xmlText = (s: string) => s.replace(NOT_XML, '\uFFFD').replace(/[&<>\r]/g, (c) => XML_TEXT[c]!);
const xmlAttribute = (s: string) => s.replace(NOT_XML, '\uFFFD').replace(/[&<>\r"'\n\t]/g, (c) => XML_ATTRIBUTE[c]!);
const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`)
    .join('');

function junit(problems: readonly Problem[], run: ProblemRun): string {
  // One test case per problem, named by code and place; with none, one passing case, as some
  // readers take an empty suite for a run that did not happen.
  const cases =
    problems.length === 0
      ? [`    <testcase${attributes({ name: 'no problems', classname: run.tool })}/>`]
      : problems.map((p) => {
          const where = problemPlace(p);
          const testcase = attributes({
            name: where ? `${p.code} ${where}` : p.code,
            classname: p.file ?? p.url ?? run.tool,
          });
          const text = where ? `${details(p)}\n${where}` : details(p);
          const failure = `<failure${attributes({ message: p.message, type: p.code })}>${xmlText(text)}</failure>`;
          return `    <testcase${testcase}>\n      ${failure}\n    </testcase>`;
        });
  const counts = { tests: Math.max(problems.length, 1), failures: problems.length };
  const properties = Object.entries({ version: run.version, summary: run.summary })
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `      <property${attributes({ name, value: value! })}/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: run.tool, ...counts })}>`,
    `  <testsuite${attributes({ name: run.tool, ...counts, errors: 0, skipped: 0 })}>`,
    `    <properties>\n${properties.join('\n')}\n    </properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

// SARIF 2.1.0.
type PlacedProblem = Problem & ({ file: string } | { url: string });
const isPlaced = (p: Problem): p is PlacedProblem => Boolean(p.file || p.url);
// A URI reference takes no space, `%` or `[`: each segment is percent-encoded.
const encodeSegments = (path: string, decode: (segment: string) => string = (s) => s) =>
  path
    .split('/')
    .map((segment) => encodeURIComponent(decode(segment)))
    .join('/');
const decodeSafely = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * Where a problem is, for code scanning: its file as a relative URI, with a region when the line is
 * known; or, with only a URL (a WordPress post, a page of the built site), the URL's host and path
 * as a relative URI, `cms.example.com/wp-json/wp/v2/posts/7`. The schema would take the URL itself
 * or a logical location alone, but GitHub code scanning refuses the whole upload for either
 * ("unrecognized SARIF location URI scheme", "expected a physical location"). The URL as it was is
 * kept in the result's properties.
 */
function sarifLocation(p: PlacedProblem) {
  const { line, column } = position(p);
  const url = p.url && URL.canParse(p.url) ? new URL(p.url) : undefined;
  const uri = p.file
    ? encodeSegments(slashed(p.file))
    : url
      ? `${encodeURIComponent(url.host)}${encodeSegments(url.pathname, decodeSafely)}`
      : encodeSegments(p.url!, decodeSafely);
  const region = line ? { region: { startLine: line, ...(column ? { startColumn: column } : {}) } } : {};
  return { physicalLocation: { artifactLocation: { uri }, ...region } };
}

function sarif(problems: readonly Problem[], run: ProblemRun) {
  const codes = [...new Set(problems.map((p) => p.code))].sort();
  const titles = codeTitles as Record<string, string | undefined>;
  // The field and the URL, which no SARIF place shows as the terminal does, kept as they were.
  const properties = (p: Problem) =>
    p.field || p.url
      ? { properties: { ...(p.field ? { field: p.field } : {}), ...(p.url ? { url: p.url } : {}) } }
      : {};
  // A problem with no file and no URL (a flag, a setting, the build as a whole) is about the run,
  // not a place in the code: GitHub code scanning refuses a result without a location ("expected
  // at least one location"), so it is a notification of the invocation, which needs none. The run
  // still completed (executionSuccessful): these problems are what it reports.
  const notifications = problems
    .filter((p) => !isPlaced(p))
    .map((p) => ({
      level: 'error',
      message: { text: details(p) },
      associatedRule: { id: p.code, index: codes.indexOf(p.code) },
      ...properties(p),
    }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'storefront',
            version: run.version,
            rules: codes.map((code) => ({ id: code, shortDescription: { text: titles[code] ?? code } })),
          },
        },
        // Code scanning takes one analysis per tool and category (this id up to its last `/`):
        // without it, the results of `build` and of `check` for one commit would clash.
        automationDetails: { id: `${run.tool}/`, ...(run.summary ? { description: { text: run.summary } } : {}) },
        invocations: [
          { executionSuccessful: true, ...(notifications.length ? { toolExecutionNotifications: notifications } : {}) },
        ],
        results: problems.filter(isPlaced).map((p) => ({
          ruleId: p.code,
          ruleIndex: codes.indexOf(p.code),
          level: 'error',
          message: { text: details(p) },
          locations: [sarifLocation(p)],
          ...properties(p),
        })),
      },
    ],
  };
}

function jsonReport(problems: readonly Problem[], run: ProblemRun) {
  const keys = ['code', 'message', 'hint', 'file', 'line', 'column', 'field', 'url'] as const;
  return {
    tool: run.tool,
    version: run.version,
    ...(run.summary !== undefined ? { summary: run.summary } : {}),
    problems: problems.map((p) =>
      Object.fromEntries(keys.filter((key) => p[key] !== undefined).map((key) => [key, p[key]])),
    ),
  };
}

import path from 'node:path';
import { isCollection, isScalar, isSeq, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { problem } from '../errors/catalogue.js';
import type { ProblemList } from '../errors/storefront-error.js';
import { codeFrame } from './code-frame.js';
import { insideProject } from './inside-project.js';
import { readBounded, type FileKind } from './read-bounded.js';

/**
 * A parsed YAML (or front matter) source, kept with its document so that a schema problem at a
 * key path can be reported with its line number.
 */
export interface SourceFile {
  /** Path relative to the project root, as shown in messages. */
  file: string;
  data: unknown;
  /** Markdown body, for Markdown files. */
  body?: string;
  /** The line of the file on which the body starts, for Markdown files. */
  bodyLine?: number;
  /** Line number of a key path, when the document has it. */
  lineOf(fieldPath: readonly PropertyKey[]): number | undefined;
}

export function displayPath(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/') || file;
}

function locate(doc: Document, counter: LineCounter) {
  return (fieldPath: readonly PropertyKey[]): number | undefined => {
    // Walk up to the nearest node that exists (a missing field is reported at its parent).
    for (let depth = fieldPath.length; depth >= 0; depth--) {
      const node = doc.getIn(fieldPath.slice(0, depth) as unknown[], true) as
        | { range?: [number, number, number] }
        | undefined;
      if (node && typeof node === 'object' && node.range) {
        return counter.linePos(node.range[0]).line;
      }
    }
    return undefined;
  };
}

/**
 * What YAML may hold: a content file is a few kilobytes, and an alias that repeats a large node
 * many times (a "billion laughs") must fail with a message, not fill the memory.
 */
export const YAML_LIMITS = { maxAliasCount: 100 };

/**
 * The most a YAML file or a Markdown file may weigh: the largest content file is about 10 KB and
 * a long post a few tens. A larger file is a mistake (a pasted export, an image as text).
 */
export const MAX_FILE_BYTES = 1024 * 1024;

/** A YAML content file, and a Markdown one (a text page, a post): checked before they are read. */
export const YAML_FILE: FileKind = {
  name: 'a content file',
  limit: MAX_FILE_BYTES,
  overLimit: 'yamlFileOverLimit',
  grewPastLimit: 'yamlFileGrewPastLimit',
};
export const MARKDOWN_FILE: FileKind = {
  ...YAML_FILE,
  overLimit: 'markdownFileOverLimit',
  grewPastLimit: 'markdownFileGrewPastLimit',
};

/**
 * The problems of YAML text, as a YAML content file's (SF101) or as a Markdown file's front
 * matter's (SF102): the same problems, told apart by their code.
 */
const IN_YAML_FILE = {
  tooLarge: 'yamlTextTooLarge',
  neverClosed: 'yamlNeverClosed',
  unreadable: 'yamlUnreadable',
} as const;
const IN_FRONT_MATTER = {
  tooLarge: 'markdownTextTooLarge',
  neverClosed: 'frontMatterNeverClosed',
  unreadable: 'frontMatterUnreadable',
} as const;
type YamlProblems = typeof IN_YAML_FILE | typeof IN_FRONT_MATTER;

/**
 * Whether a text (given, not read: a front matter block, dev's own text) is over MAX_FILE_BYTES,
 * which is then a problem.
 */
function tooLarge(text: string, file: string, reported: YamlProblems, problems: ProblemList): boolean {
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_FILE_BYTES) return false;
  const values = { kilobytes: Math.round(bytes / 1024), megabytes: MAX_FILE_BYTES / 1024 / 1024 };
  problems.add(problem(reported.tooLarge, values, { file }));
  return true;
}

/**
 * A quoted text, a [list] or a {map} that the error's position ends, so never closed: the place
 * it opens is where to look (yaml reports where the file, or the list, ran out).
 */
function unclosedAt(doc: Document, position: number): { start: number; open: string } | undefined {
  let found: { start: number; open: string } | undefined;
  visit(doc, (_key, node) => {
    const range = (node as { range?: [number, number, number] }).range;
    if (!range || range[1] !== position) return;
    if (isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')) {
      found = { start: range[0], open: node.type === 'QUOTE_DOUBLE' ? '"' : "'" };
      return visit.BREAK;
    }
    if (isCollection(node) && node.flow) {
      found = { start: range[0], open: isSeq(node) ? '[' : '{' };
      return visit.BREAK;
    }
    return undefined;
  });
  return found;
}

const CLOSER: Record<string, string> = { '"': '"', "'": "'", '[': ']', '{': '}' };

/**
 * Parses YAML text, or reports its first error (the rest usually follow from it) with its line,
 * its column and a code frame. `fileText` is the whole file when `text` is a front matter block:
 * the block keeps the line break after the opening `---`, so its lines are the file's.
 */
function parseYamlText(
  text: string,
  file: string,
  problems: ProblemList,
  reported: YamlProblems,
  fileText = text,
): { data: unknown; lineOf: SourceFile['lineOf'] } | undefined {
  if (tooLarge(text, file, reported, problems)) return undefined;
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter: lines });
  const err = doc.errors[0];
  if (err) {
    // yaml's positions count lines and columns from 1.
    const unclosed = unclosedAt(doc, err.pos[0]);
    const position = unclosed ? lines.linePos(unclosed.start) : err.linePos?.[0];
    const place = {
      file,
      line: position?.line,
      column: position?.col,
      ...(position ? { frame: codeFrame(fileText, position.line, position.col) } : {}),
    };
    problems.add(
      unclosed
        ? problem(reported.neverClosed, { open: unclosed.open, close: CLOSER[unclosed.open]! }, place)
        : problem(
            reported.unreadable,
            {
              reason: err.message
                .split('\n')[0]!
                .replace(/ at line \d+, column \d+:?$/, '')
                .replace(/\.$/, ''),
              yamlCode: err.code,
            },
            place,
          ),
    );
    return undefined;
  }
  let data: unknown;
  try {
    data = doc.toJS(YAML_LIMITS);
  } catch (e) {
    const failure = (e as Error).message;
    const values = { reason: failure.replace(/\.$/, ''), alias: /alias/i.test(failure) };
    problems.add(problem(reported.unreadable, values, { file }));
    return undefined;
  }
  return { data, lineOf: lazyLines(text) };
}

/**
 * Line numbers are only needed for a message, so they are found by parsing again then; no
 * document stays in memory for the files that are fine.
 */
function lazyLines(text: string): SourceFile['lineOf'] {
  return (fieldPath) => {
    const counter = new LineCounter();
    const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
    return locate(doc, counter)(fieldPath);
  };
}

/**
 * YAML files parsed by an earlier build of the same process, by path, with the text they were
 * parsed from: `storefront dev` keeps one (see BuildMemo), so a file whose text is unchanged is
 * not parsed again. The parsed data is never changed by its readers (tokens and schemas make
 * new objects).
 */
export type YamlMemo = Map<string, { text: string; parsed: { data: unknown; lineOf: SourceFile['lineOf'] } }>;

export async function readYamlFile(
  root: string,
  absolute: string,
  problems: ProblemList,
  memo?: YamlMemo,
): Promise<SourceFile | undefined> {
  const file = displayPath(root, absolute);
  // A link out of the project is a problem, and its target is not read.
  const real = insideProject(root, absolute, problems);
  if (!real) return undefined;
  const bytes = readBounded(real, file, YAML_FILE, problems, absolute);
  if (!bytes) return undefined;
  const text = bytes.toString('utf8');
  const last = memo?.get(absolute);
  if (last?.text === text) return { file, ...last.parsed };
  const parsed = parseYamlText(text, file, problems, IN_YAML_FILE);
  if (parsed) memo?.set(absolute, { text, parsed });
  return parsed && { file, ...parsed };
}

/** Reads Markdown with YAML front matter. */
export async function readMarkdownFile(
  root: string,
  absolute: string,
  problems: ProblemList,
): Promise<SourceFile | undefined> {
  const file = displayPath(root, absolute);
  const real = insideProject(root, absolute, problems);
  const bytes = real === undefined ? undefined : readBounded(real, file, MARKDOWN_FILE, problems, absolute);
  return bytes && parseMarkdownText(file, bytes.toString('utf8'), problems);
}

/**
 * A Markdown file's front matter block and body. The block is YAML between a first line `---`
 * and the next line that starts with `---` (the rule of gray-matter, Jekyll and Eleventy); a
 * file that does not start with `---` is all body. The block keeps the newline after the
 * opening `---`, so its line 2 is the file's line 2.
 */
export function splitFrontMatter(input: string): { matter: string; body: string } | { language: string } {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (!text.startsWith('---') || text.charAt(3) === '-') return { matter: '', body: text };
  let rest = text.slice(3);
  // The opening line may name the language, as in `---yaml`.
  const language = rest.slice(0, Math.max(0, rest.search(/\r?\n/))).trim();
  // A block marked as another language (`---toml`) is not read: the language is the problem.
  if (language !== '' && language !== 'yaml') return { language };
  if (language !== '') rest = rest.slice(rest.indexOf(language) + language.length);
  const close = rest.indexOf('\n---');
  if (close === -1) return { matter: rest, body: '' };
  let body = rest.slice(close + 4);
  if (body.startsWith('\r')) body = body.slice(1);
  if (body.startsWith('\n')) body = body.slice(1);
  return { matter: rest.slice(0, close), body };
}

export function parseMarkdownText(file: string, text: string, problems: ProblemList): SourceFile | undefined {
  if (tooLarge(text, file, IN_FRONT_MATTER, problems)) return undefined;
  const split = splitFrontMatter(text);
  if ('language' in split) {
    problems.add(problem('frontMatterNotYaml', { language: split.language }, { file }));
    return undefined;
  }
  const parsed = parseYamlText(split.matter, file, problems, IN_FRONT_MATTER, text);
  // The body is the end of the text, so the lines before it are the front matter's.
  const bodyLine = text.slice(0, text.length - split.body.length).split('\n').length;
  return parsed && { file, body: split.body, bodyLine, data: parsed.data ?? {}, lineOf: parsed.lineOf };
}

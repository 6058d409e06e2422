import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { codes } from '../errors/codes.js';
import type { ProblemList } from '../errors/storefront-error.js';
import { insideProject } from './inside-project.js';

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

function locate(doc: Document, counter: LineCounter, offset: number) {
  return (fieldPath: readonly PropertyKey[]): number | undefined => {
    // Walk up to the nearest node that exists (a missing field is reported at its parent).
    for (let depth = fieldPath.length; depth >= 0; depth--) {
      const node = doc.getIn(fieldPath.slice(0, depth) as unknown[], true) as
        | { range?: [number, number, number] }
        | undefined;
      if (node && typeof node === 'object' && node.range) {
        return counter.linePos(node.range[0]).line + offset;
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

/** Whether a file's text is over MAX_FILE_BYTES, which is then a problem. */
function tooLarge(text: string, file: string, code: string, problems: ProblemList): boolean {
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_FILE_BYTES) return false;
  problems.add({
    code,
    file,
    message: `The file is ${Math.round(bytes / 1024)} KB, more than the ${MAX_FILE_BYTES / 1024 / 1024} MB a content file may be.`,
    hint: 'Split it, or keep large data (images, exports) out of content files.',
  });
  return true;
}

/** Parses YAML text, or reports its first error (the rest usually follow from it) with its line. */
function parseYamlText(
  text: string,
  file: string,
  problems: ProblemList,
  code: string,
  lineOffset = 0,
): { data: unknown; lineOf: SourceFile['lineOf'] } | undefined {
  if (tooLarge(text, file, code, problems)) return undefined;
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const err = doc.errors[0];
  let data: unknown;
  let failure = err && `${err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`;
  if (!failure) {
    try {
      data = doc.toJS(YAML_LIMITS);
    } catch (e) {
      failure = (e as Error).message;
    }
  }
  if (failure) {
    problems.add({
      code,
      file,
      line: err?.linePos?.[0]?.line !== undefined ? err.linePos[0].line + lineOffset : undefined,
      message: `The YAML cannot be read: ${failure.replace(/\.$/, '')}.`,
      hint: 'Check the indentation and quoting around that line; quote text that contains ": " or starts with {{.',
    });
    return undefined;
  }
  // Only an error's position counts the front matter's opening line; node ranges are offsets into the text.
  return { data, lineOf: lazyLines(text, 0) };
}

/**
 * Line numbers are only needed for a message, so they are found by parsing again then; no
 * document stays in memory for the files that are fine.
 */
function lazyLines(text: string, lineOffset: number): SourceFile['lineOf'] {
  return (fieldPath) => {
    const counter = new LineCounter();
    const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
    return locate(doc, counter, lineOffset)(fieldPath);
  };
}

/**
 * YAML files parsed by an earlier build of the same process, by path, with the text they were
 * parsed from: `storefront dev` keeps one (see BuildMemo), so a file whose text is unchanged is
 * not parsed again. The parsed data is never changed by its readers (tokens and schemas make
 * new objects).
 */
export type YamlMemo = Map<string, { text: string; parsed: { data: unknown; lineOf: SourceFile['lineOf'] } }>;

export async function readYamlFile(root: string, absolute: string, problems: ProblemList, memo?: YamlMemo): Promise<SourceFile | undefined> {
  const file = displayPath(root, absolute);
  // A link out of the project is a problem, and its target is not read.
  const real = insideProject(root, absolute, problems);
  if (!real) return undefined;
  const text = await readFile(real, 'utf8');
  const last = memo?.get(absolute);
  if (last?.text === text) return { file, ...last.parsed };
  const parsed = parseYamlText(text, file, problems, codes.yamlSyntax);
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
  return real === undefined ? undefined : parseMarkdownText(file, await readFile(real, 'utf8'), problems);
}

/**
 * A Markdown file's front matter block and body. The block is YAML between a first line `---`
 * and the next line that starts with `---` (the rule of gray-matter, Jekyll and Eleventy); a
 * file that does not start with `---` is all body. The block keeps the newline after the
 * opening `---`, so its line 2 is the file's line 2.
 */
export function splitFrontMatter(input: string): { matter: string; body: string } | { error: string } {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (!text.startsWith('---') || text.charAt(3) === '-') return { matter: '', body: text };
  let rest = text.slice(3);
  // The opening line may name the language, as in `---yaml`.
  const language = rest.slice(0, Math.max(0, rest.search(/\r?\n/))).trim();
  if (language !== '' && language !== 'yaml') return { error: `the front matter is marked as "${language}"; only YAML is read` };
  if (language !== '') rest = rest.slice(rest.indexOf(language) + language.length);
  const close = rest.indexOf('\n---');
  if (close === -1) return { matter: rest, body: '' };
  let body = rest.slice(close + 4);
  if (body.startsWith('\r')) body = body.slice(1);
  if (body.startsWith('\n')) body = body.slice(1);
  return { matter: rest.slice(0, close), body };
}

export function parseMarkdownText(file: string, text: string, problems: ProblemList): SourceFile | undefined {
  if (tooLarge(text, file, codes.frontMatterSyntax, problems)) return undefined;
  const split = splitFrontMatter(text);
  if ('error' in split) {
    problems.add({
      code: codes.frontMatterSyntax,
      file,
      message: `The front matter cannot be read: ${split.error}.`,
      hint: 'Front matter is YAML between two lines of three dashes (---) at the top of the file.',
    });
    return undefined;
  }
  const parsed = parseYamlText(split.matter, file, problems, codes.frontMatterSyntax, 1);
  // The body is the end of the text, so the lines before it are the front matter's.
  const bodyLine = text.slice(0, text.length - split.body.length).split('\n').length;
  return parsed && { file, body: split.body, bodyLine, data: parsed.data ?? {}, lineOf: parsed.lineOf };
}

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import matter from 'gray-matter';
import { codes } from '../errors/codes.js';
import type { ProblemList } from '../errors/storefront-error.js';

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

function parseYamlText(
  text: string,
  file: string,
  problems: ProblemList,
  code: string,
  lineOffset = 0,
): { data: unknown; lineOf: SourceFile['lineOf'] } | undefined {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    // The first error is the real one; the rest usually follow from it.
    for (const err of doc.errors.slice(0, 1)) {
      problems.add({
        code,
        file,
        line: err.linePos?.[0]?.line !== undefined ? err.linePos[0].line + lineOffset : undefined,
        message: `The YAML cannot be read: ${err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}.`,
        hint: 'Check the indentation and quoting around that line; quote text that contains ": " or starts with {{.',
      });
    }
    return undefined;
  }
  return { data: doc.toJS(), lineOf: locate(doc, counter, lineOffset) };
}

/**
 * Line numbers are only needed for a message, so they are found by parsing again then; no
 * document stays in memory for the files that are fine (40,000 posts add up).
 */
function lazyLines(text: string, lineOffset: number): SourceFile['lineOf'] {
  return (fieldPath) => {
    const counter = new LineCounter();
    const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
    return locate(doc, counter, lineOffset)(fieldPath);
  };
}

export async function readYamlFile(
  root: string,
  absolute: string,
  problems: ProblemList,
): Promise<SourceFile | undefined> {
  const file = displayPath(root, absolute);
  const text = await readFile(absolute, 'utf8');
  const parsed = parseYamlText(text, file, problems, codes.yamlSyntax);
  return parsed && { file, ...parsed };
}

/**
 * Reads Markdown with YAML front matter. gray-matter parses it with its fast js-yaml engine;
 * only when that fails is the front matter parsed again by the yaml package, whose messages
 * and line numbers are clearer.
 */
export async function readMarkdownFile(
  root: string,
  absolute: string,
  problems: ProblemList,
): Promise<SourceFile | undefined> {
  const file = displayPath(root, absolute);
  return parseMarkdownText(file, await readFile(absolute, 'utf8'), problems);
}

export function parseMarkdownText(file: string, text: string, problems: ProblemList): SourceFile | undefined {
  try {
    // An options object also turns off gray-matter's cache of every file it has read.
    const fast = matter(text, { language: 'yaml' });
    return { file, data: fast.data, body: fast.content, lineOf: lazyLines(fast.matter, 0) };
    // (gray-matter's raw block starts with the newline after the opening ---, so its line 2 is the file's.)
  } catch {
    // Reported below, with the yaml package's message.
  }
  let split: { matter: string; content: string };
  try {
    // gray-matter caches by input text; the engine only hands back the raw block.
    const result = matter(text, { engines: { yaml: (s: string) => ({ __raw: s }) } });
    split = { matter: (result.data as { __raw?: string }).__raw ?? '', content: result.content };
  } catch (err) {
    problems.add({
      code: codes.frontMatterSyntax,
      file,
      message: `The front matter cannot be read: ${(err as Error).message}`,
      hint: 'Front matter is YAML between two lines of three dashes (---) at the top of the file.',
    });
    return undefined;
  }
  const parsed = parseYamlText(split.matter, file, problems, codes.frontMatterSyntax, 1);
  return parsed && { file, body: split.content, ...parsed };
}

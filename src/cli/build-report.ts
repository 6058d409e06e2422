/**
 * What `storefront build` says when it is done. By default (stdout):
 *
 *   Built 320 pages (1 home, 9 service, ...) and 31 other files, 1.4 MB, into dist in 0.52 s.
 *     stages: config 0.01 s · content 0.09 s · routes 0.01 s · render 0.24 s · write 0.12 s
 *
 * The first line keeps its words and order: scripts and tests read `Built N pages (kinds)`.
 * With --verbose, stderr gets one line per stage, `  content    0.093 s`, which
 * scripts/bench.mjs reads with /^\s+(\w+)\s+([\d.]+) s$/m, each followed by what the stage
 * did on a line that never ends in " s" (so the script's pattern never takes it for a stage).
 */
import path from 'node:path';
import type { BuildSummary } from '../build.js';
import type { Palette } from './colours.js';

export function formatBytes(bytes: number): string {
  return bytes > 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`;
}

export const seconds = (ms: number, digits: number) => `${(ms / 1000).toFixed(digits)} s`;

/** `1 file`, `2 files`. */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** `Built 320 pages (...) and 31 other files, 1.4 MB, into dist in 0.52 s.` */
export function headline(summary: BuildSummary, cwd: string, colours: Palette): string {
  const kinds = Object.entries(summary.pagesByKind)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  const fetch =
    summary.blog.source === 'local'
      ? ''
      : summary.blog.source === 'network'
        ? `, ${count(summary.blog.posts, 'post')} fetched in ${seconds(summary.blog.fetchMs ?? 0, 2)}`
        : `, ${count(summary.blog.posts, 'post')} from the CMS cache`;
  const where = path.relative(cwd, summary.outDir) || '.';
  return (
    `${colours.green(`Built ${summary.pages} pages`)} (${kinds}) and ${summary.files - summary.pages} other files, ` +
    `${formatBytes(summary.bytes)}, into ${where} in ${seconds(summary.totalMs, 2)}${fetch}.`
  );
}

/** A stage run twice (the route table, again after the CMS fetch) counts once, with both times. */
function stageTotals(summary: BuildSummary): { name: string; ms: number }[] {
  const totals = new Map<string, number>();
  for (const stage of summary.stages) totals.set(stage.name, (totals.get(stage.name) ?? 0) + stage.ms);
  return [...totals].map(([name, ms]) => ({ name, ms }));
}

/** The line under the headline: the time of each stage. */
export function summaryDetail(summary: BuildSummary, colours: Palette): string[] {
  const stages = stageTotals(summary)
    .map((stage) => `${stage.name} ${seconds(stage.ms, 2)}`)
    .join(' · ');
  const lines = [colours.dim(`  stages: ${stages}`)];
  if (summary.blog.sync) lines.push(colours.dim(`  cms: ${summary.blog.sync}`));
  return [...lines, colours.dim(`  target: ${summary.target.name} (${summary.target.why})`)];
}

/** What a stage did, for --verbose; undefined when there is nothing to add to its time. */
function stageWork(name: string, summary: BuildSummary, postsDir: string, stageMs: number): string | undefined {
  const rendered = summary.pagesRendered;
  switch (name) {
    case 'content':
      return summary.blog.source === 'local' ? `${summary.blog.posts} posts from ${postsDir}` : undefined;
    case 'cms':
      return summary.blog.source === 'network'
        ? `${count(summary.blog.posts, 'post')} fetched from the CMS`
        : `${count(summary.blog.posts, 'post')} from the CMS cache (.cache/cms)`;
    case 'routes':
      return `${summary.pages} pages in the route table`;
    case 'cards': {
      const cards = summary.shareCards;
      return cards && `${count(cards.files, 'share card')}, ${cards.made} drawn (the others from .cache/share)`;
    }
    case 'render': {
      const rate = stageMs > 0 && rendered > 0 ? ` (${Math.round(rendered / (stageMs / 1000))} a second)` : '';
      return `${rendered} pages rendered${rate}`;
    }
    case 'write':
      return `${count(summary.files, 'file')} written (${formatBytes(summary.bytes)})`;
    default:
      return undefined;
  }
}

/** The --verbose lines, on stderr: each stage's time (bench.mjs's format), then what it did. */
export function stageLines(summary: BuildSummary, postsDir: string): string[] {
  const lines = ['Stages:'];
  summary.stages.forEach((stage, index) => {
    lines.push(`  ${stage.name.padEnd(10)} ${seconds(stage.ms, 3)}`);
    // A stage run twice is described once, after its last run (the route table with the CMS posts).
    const last = summary.stages.findLastIndex((other) => other.name === stage.name) === index;
    const work = last ? stageWork(stage.name, summary, postsDir, stage.ms) : undefined;
    if (work) lines.push(`${' '.repeat(13)}${work}`);
  });
  return lines;
}

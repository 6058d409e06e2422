/**
 * Worker thread of loadLocalPosts: parses and renders its share of the post files, sending
 * them back in batches so that neither side holds two copies of the whole share at once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ProblemList } from '../errors/storefront-error.js';
import { parsePostFiles, type PostsJob } from './load-posts.js';

const BATCH = 500;
const job = workerData as PostsJob;
for (let start = 0; start < job.names.length; start += BATCH) {
  const problems = new ProblemList();
  const posts = await parsePostFiles(job.root, job.dir, job.names.slice(start, start + BATCH), job.facts, problems);
  parentPort!.postMessage({ posts, problems: problems.items });
}
parentPort!.postMessage('done');

/** The worker thread of parse-pool.ts: parses chunks of post files until none are left. */
import { parentPort } from 'node:worker_threads';
import { claimChunk, type ParseJob, type ParseReply } from './parse-pool.js';
import { parsePostFile } from './parse-post.js';

parentPort!.once('message', (job: ParseJob) => {
  for (let chunk = claimChunk(job); chunk; chunk = claimChunk(job)) {
    const parsed = chunk.names.map((name) => parsePostFile(job.root, job.dir, name, job.facts));
    parentPort!.postMessage({ index: chunk.index, parsed } satisfies ParseReply);
  }
  parentPort!.postMessage('done' satisfies ParseReply);
});

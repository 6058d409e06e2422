/** Worker thread of loadLocalPosts: parses and renders its share of the post files. */
import { parentPort, workerData } from 'node:worker_threads';
import { ProblemList } from '../errors/storefront-error.js';
import { parsePostFiles, type PostsJob } from './load-posts.js';

const job = workerData as PostsJob;
const problems = new ProblemList();
const posts = await parsePostFiles(job.root, job.dir, job.names, job.facts, problems);
parentPort!.postMessage({ posts, problems: problems.items });

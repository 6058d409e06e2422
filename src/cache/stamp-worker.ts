// The worker of stamp-thread.ts: stamps one folder and sends back [path, stamp, path, stamp, ...].
import { parentPort, workerData } from 'node:worker_threads';
import { stampFolder } from '../util/file-stamp.js';
import type { StampJob } from './stamp-thread.js';

const { dir, recursive } = workerData as StampJob;
const flat: string[] = [];
for (const [file, stamp] of stampFolder(dir, recursive)) flat.push(file, stamp);
parentPort!.postMessage(flat);

import v8 from 'node:v8';
import vm from 'node:vm';

/** From this many posts (and every this many pages) memory is collected on purpose. */
export const LARGE_BLOG = 5000;

/**
 * A full garbage collection, on request. V8 grows the heap lazily while a build allocates fast,
 * so a large build's peak memory is mostly garbage; collecting between stages and every few
 * thousand pages keeps it near what is really in use (under 1 GB at 40,000 posts).
 */
let gc: (() => void) | undefined;
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}

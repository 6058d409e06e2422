/**
 * Runs `work` over `items`, at most `concurrency` at a time, keeping the results in order. After
 * the first failure no item is started (a WordPress client stops asking for pages); the work
 * under way finishes, and then that first error is thrown, so nothing runs on after the call.
 */
export async function runParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}

/**
 * A gate that lets at most `slots` of the calls given to it run at once; the others wait their
 * turn. For work nested inside runParallel that needs a lower limit of its own.
 */
export function limitConcurrency(slots: number): <T>(work: () => Promise<T>) => Promise<T> {
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (slots > 0) slots -= 1;
    else await new Promise<void>((go) => waiting.push(go));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else slots += 1;
    }
  };
}

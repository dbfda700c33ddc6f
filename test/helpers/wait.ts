/**
 * Polls `check` until it resolves true (work done after the answer: a job, a delivery), failing
 * after `ms`. Returns how long it took.
 */
export async function eventually(check: () => Promise<boolean>, ms = 10_000, what = 'condition'): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`${what} not met after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Polls `check` until it holds, failing with `what` after `timeoutMs`. The deadlines are generous:
 * the suites run on a loaded 2-core machine, and a condition that never holds still fails.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  what: string | (() => string) = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

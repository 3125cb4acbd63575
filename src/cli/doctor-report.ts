/**
 * What `courtside doctor` found: one result per check, printed one line each (or as one JSON
 * object), and the exit code they make.
 *
 * Verdicts: `ok` works; `warn` worth knowing but not a fault (no live game to subscribe to, a
 * large lag); `fail` broken, or the upstream does something it should not (named,
 * with what courtside does about it and what to do); `skip` not checked (not configured, or an
 * earlier step failed). A needed check that was not checked never counts as working: doctor
 * cannot say that courtside works where it could not look.
 */
export type Verdict = 'ok' | 'warn' | 'fail' | 'skip';

export const CHECK_NAMES = [
  'site-api',
  'fastcast-discovery',
  'fastcast-upgrade',
  'fastcast-tls',
  'fastcast-connect',
  'fastcast-subscribe',
  'fastcast-checkpoint',
  'fastcast-frames',
  'push-lag',
  'redis',
] as const;

export type CheckName = (typeof CHECK_NAMES)[number];

export interface CheckResult {
  readonly check: CheckName;
  readonly verdict: Verdict;
  /** Whether courtside needs it as configured: a failed needed check makes the exit code 1. */
  readonly needed: boolean;
  /** What was found, one sentence. */
  readonly detail: string;
  /** What to do about it, for a `fail` or `warn`. */
  readonly fix?: string;
  /** Figures for scripts (`--json`). */
  readonly data?: Readonly<Record<string, unknown>>;
}

export function result(
  check: CheckName,
  verdict: Verdict,
  detail: string,
  more: { needed?: boolean; fix?: string; data?: Record<string, unknown> } = {},
): CheckResult {
  return {
    check,
    verdict,
    needed: more.needed ?? true,
    detail,
    ...(more.fix !== undefined ? { fix: more.fix } : {}),
    ...(more.data !== undefined ? { data: more.data } : {}),
  };
}

const failedChecks = (results: readonly CheckResult[]): CheckName[] =>
  results.filter((r) => r.needed && r.verdict === 'fail').map((r) => r.check);
const undoneChecks = (results: readonly CheckResult[]): CheckName[] =>
  results.filter((r) => r.needed && r.verdict === 'skip').map((r) => r.check);

/** 0 when every needed check was done and passed (`ok` or `warn`), else 1. */
export function doctorExitCode(results: readonly CheckResult[]): number {
  return failedChecks(results).length > 0 || undoneChecks(results).length > 0 ? 1 : 0;
}

const WIDTH = Math.max(...CHECK_NAMES.map((n) => n.length));

/** One line: verdict, check, what was found and, when something is wrong, what to do. */
export function formatResult(r: CheckResult): string {
  const fix = r.fix !== undefined && r.verdict !== 'ok' ? ` -> ${r.fix}` : '';
  return `${r.verdict.padEnd(4)}  ${r.check.padEnd(WIDTH)}  ${r.detail}${fix}`;
}

/** The closing line: how many needed checks failed, and so the exit code. */
export function summaryLine(results: readonly CheckResult[]): string {
  const failed = failedChecks(results);
  const undone = undoneChecks(results);
  if (failed.length > 0)
    return (
      `doctor: ${failed.length} needed check(s) failed: ${failed.join(', ')}` +
      (undone.length > 0 ? ` (not checked after it: ${undone.join(', ')})` : '')
    );
  if (undone.length > 0)
    return `doctor: ${undone.length} needed check(s) could not be done: ${undone.join(', ')}; whether courtside works here is not known`;
  return 'doctor: everything needed works';
}

/** `--json`: one object with every check, in order. */
export function reportObject(
  results: readonly CheckResult[],
  context: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return { ...context, ok: doctorExitCode(results) === 0, checks: results };
}

import { afterEach, describe, expect, it } from 'vitest';
import { runDoctor, type DoctorFlags } from '../../src/cli/doctor.js';
import { fastcastResults, type ProbeFindings } from '../../src/cli/doctor-findings.js';
import { doctorExitCode, result, summaryLine, type CheckResult } from '../../src/cli/doctor-report.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream, type UpstreamOptions } from '../../src/simulator/index.js';
import { getTestRedis } from '../support/redis.js';
import { runCli } from './harness.js';

/**
 * `courtside doctor` against the simulator: healthy, every line ok and exit 0; with each FastCast
 * fault the simulator plays, the fault named on the line of the check it breaks and exit 1. Most
 * runs are in-process (the same function the command runs); the command itself runs as a user
 * runs it for the exit codes, the JSON and a wrong flag.
 */
const REDIS = await getTestRedis();
const running: RunningUpstream[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((u) => u.close()));
});

/** Two live synthetic games at 60x, frames every few hundred ms, heartbeats every 0.3 s. */
async function simulator(options: UpstreamOptions = {}): Promise<RunningUpstream> {
  const up = await startUpstream({
    logger: silentLogger,
    simulate: { games: 2, seed: 5, staggerMs: 0 },
    speed: 60,
    fastcast: { hbiSeconds: 0.3 },
    ...options,
  });
  running.push(up);
  return up;
}

const flagsFor = (up: RunningUpstream, more: DoctorFlags = {}): DoctorFlags => ({
  upstream: up.url,
  fastcastUrl: up.fastcastUrl as string,
  seconds: '2',
  ...more,
});

async function doctor(up: RunningUpstream, more: DoctorFlags = {}) {
  let text = '';
  const report = await runDoctor(flagsFor(up, more), {}, (t) => (text += t));
  if (!report) throw new Error('doctor refused its flags');
  const line = (check: CheckResult['check']): string =>
    text.split('\n').find((l) => l.split(/\s+/)[1] === check) ?? `(no line for ${check})`;
  return { ...report, text, line, verdict: (check: CheckResult['check']) => line(check).split(/\s+/)[0] };
}

describe('courtside doctor', () => {
  it('against a healthy simulator: every check ok (TLS skipped on ws://), exit 0, in about ten seconds', async () => {
    const up = await simulator();
    const started = Date.now();
    const d = await doctor(up, REDIS ? { redis: REDIS.url } : {});
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(d.exitCode).toBe(0);
    const lines = d.text.trim().split('\n');
    expect(lines[0]).toMatch(
      /^courtside doctor: upstream http:\/\/127\.0\.0\.1:\d+, FastCast .*, game (mens|womens)\/9\d+$/,
    );
    expect(lines.at(-1)).toBe('doctor: everything needed works');
    // One line per check, in order, with its verdict first.
    expect(lines.slice(1, -1).map((l) => l.split(/\s+/)[1])).toEqual(d.results.map((r) => r.check));
    for (const r of d.results) {
      if (r.check === 'fastcast-tls') expect(r).toMatchObject({ verdict: 'skip', needed: false });
      else if (r.check === 'redis' && !REDIS) expect(r.verdict).toBe('skip');
      else expect([r.check, r.verdict, r.detail]).toEqual([r.check, 'ok', r.detail]);
    }
    expect(d.line('fastcast-frames')).toMatch(
      /ok\s+fastcast-frames\s+[1-9]\d* patch frame\(s\) applied in 2 s/,
    );
    expect(d.line('push-lag')).toMatch(/p50 \d+ ms, max \d+ ms over [1-9]\d* patch/);
    if (REDIS) expect(d.line('redis')).toMatch(/standalone, Redis \d+\.\d+/);
  });

  // Each fault of the simulator: the check whose line names it, and how.
  const FASTCAST_FAULTS: Array<[string, UpstreamOptions, CheckResult['check'], RegExp]> = [
    [
      'absent-keys',
      { fastcastFaults: 'absent-keys=2' },
      'fastcast-frames',
      /operation\(s\) do not apply, on parts courtside does not read \(remove \/odds\/0\/details, replace \/pickcenter\/0\/spread\): skipped/,
    ],
    [
      'no-h',
      { fastcastFaults: 'no-h' },
      'fastcast-subscribe',
      /answered rc 200 but no H \(checkpoint\) came within/,
    ],
    [
      'wrapped-checkpoint',
      { fastcastFaults: 'wrapped-checkpoint' },
      'fastcast-checkpoint',
      /wrapped as \{"pl": document\}/,
    ],
    [
      'inflate-bomb',
      // Just over the 16 MiB that courtside inflates a payload to, so that the test stays small.
      { fastcastFaults: `inflate-bomb=${16 * 1024 * 1024 + 1024}` },
      'fastcast-frames',
      /patch frame\(s\) did not decode \(.*inflates past 16 MiB/,
    ],
    [
      'catch-up-bomb',
      // The checkpoint is fine, but the catch-up's bomb leaves no document: never a success.
      { fastcastFaults: `catch-up-bomb=${16 * 1024 * 1024 + 1024}` },
      'fastcast-frames',
      /no document: the checkpoint \(\d+ KB\) was fine, but .*patch frame\(s\) did not decode \(.*inflates past 16 MiB/,
    ],
    [
      'batched-frames',
      { fastcastFaults: 'batched-frames' },
      'fastcast-frames',
      /message\(s\) held several frames \(a JSON list\)/,
    ],
    [
      'maintenance',
      { fastcastFaults: 'maintenance' },
      'fastcast-connect',
      /then M: the server announces maintenance/,
    ],
    [
      'maintenance of a topic',
      { fastcastFaults: 'maintenance@900005000' },
      'fastcast-subscribe',
      /then M: the topic is in maintenance/,
    ],
    [
      'encoded-token',
      { fastcastFaults: 'encoded-token' },
      'fastcast-upgrade',
      /accepted with the whole token percent-encoded/,
    ],
    [
      'refused-upgrade',
      { fastcastFaults: 'refused-upgrade' },
      'fastcast-upgrade',
      /upgrade refused: answered 403/,
    ],
    ['discovery-down', { fastcastFaults: 'discovery-down' }, 'fastcast-discovery', /discovery failed: .*503/],
    ['waf', { fastcastFaults: 'waf' }, 'site-api', /blocked by the edge .*\(403, an HTML page\)/],
    [
      'topic404',
      { faults: 'topic404=1' },
      'fastcast-subscribe',
      /answered rc 404: FastCast has no topic for game/,
    ],
    ['expiredtoken', { faults: 'expiredtoken=1' }, 'fastcast-upgrade', /upgrade refused: answered 401/],
    ['lostframe', { faults: 'lostframe=1' }, 'fastcast-frames', /frames lost \(mid \d+ after \d+\)/],
    [
      'badpatch',
      { faults: 'badpatch=1' },
      'fastcast-frames',
      /patch\(es\) do not apply on a part courtside reads \(remove \/plays\/\S+: .*\): each costs a fresh checkpoint/,
    ],
    ['dropsocket', { faults: 'dropsocket=1' }, 'fastcast-frames', /the socket ended/],
    [
      'silentsocket',
      { faults: 'silentsocket=1' },
      'fastcast-frames',
      /the socket went silent: nothing \(no frame, no ping\) for \d+ ms/,
    ],
  ];

  it.each(FASTCAST_FAULTS)('names the fault %s and exits 1', async (_name, faults, check, named) => {
    const up = await simulator(faults);
    // The topic of the game a per-game fault names, when it names one.
    const game = /@(\d+)/.exec(String(faults.fastcastFaults ?? ''))?.[1];
    const d = await doctor(up, game ? { game } : {});
    expect(d.line(check)).toMatch(new RegExp(`^fail\\s+${check}\\s+`));
    expect(d.line(check)).toMatch(named);
    // And says what to do.
    expect(d.line(check)).toMatch(/ -> \S/);
    expect(d.exitCode).toBe(1);
    expect(d.text.trim().split('\n').at(-1)).toMatch(new RegExp(`needed check\\(s\\) failed: .*${check}`));
  });

  it('a needed check not done is never a success: exit 1, said in the closing line', () => {
    const ok = result('site-api', 'ok', 'answered');
    const undone = result('fastcast-frames', 'skip', 'not reached');
    const unneeded = result('redis', 'skip', 'not configured', { needed: false });
    expect(doctorExitCode([ok, unneeded])).toBe(0);
    expect(summaryLine([ok, unneeded])).toBe('doctor: everything needed works');
    expect(doctorExitCode([ok, undone, unneeded])).toBe(1);
    expect(summaryLine([ok, undone, unneeded])).toBe(
      'doctor: 1 needed check(s) could not be done: fastcast-frames; whether courtside works here is not known',
    );
    const failed = result('fastcast-subscribe', 'fail', 'no H');
    expect(summaryLine([ok, failed, undone])).toBe(
      'doctor: 1 needed check(s) failed: fastcast-subscribe (not checked after it: fastcast-frames)',
    );
  });

  it('a topic watched with no patch coming (a break in play) is not checked, and so not a success', () => {
    const topic = 'gp-basketball-nba-1';
    const findings = {
      fastcastUrl: 'http://127.0.0.1:1/public/websockethost',
      stepMs: 4000,
      boardsRead: true,
      game: { league: 'mens', id: '1' },
      connect: { frame: { op: 'C', rc: 200, hbi: 30 }, ms: 1 },
      subscribe: { frame: { op: 'S', rc: 200, tc: topic }, ms: 1 },
      hello: { frame: { op: 'H', tc: topic, mid: 1 }, ms: 2 },
      watch: {
        topic: { name: topic },
        checkpoint: { url: 'http://x/cp', bytes: 2048, wrapped: false, refused: undefined, plays: 3 },
        checkpointError: undefined,
        documents: 1,
        patchesApplied: 0,
        resyncs: [],
        skipped: [],
        lags: [],
      },
      log: { received: [{ frame: { op: 'I', tc: topic, mid: 2, pl: '0' }, at: 0 }], lists: 0, unreadable: 0 },
      watchedMs: 4000,
      silentMs: 10,
    } as unknown as ProbeFindings;
    const frames = fastcastResults(findings).find((r) => r.check === 'fastcast-frames');
    expect(frames).toMatchObject({
      verdict: 'skip',
      needed: true,
      detail: 'not checked: no patch came in 4 s (1 other frame(s) of the topic)',
    });
    expect(summaryLine([frames!])).toMatch(/could not be done: fastcast-frames/);
    expect(doctorExitCode([frames!])).toBe(1);
  });

  it('a Redis that does not answer fails its line; no Redis configured is skipped and not needed', async () => {
    const up = await simulator();
    const d = await doctor(up, { redis: 'redis://127.0.0.1:1', seconds: '1' });
    expect(d.line('redis')).toMatch(
      /^fail\s+redis\s+cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .* -> start Redis/,
    );
    expect(d.exitCode).toBe(1);
    const none = await doctor(up, { seconds: '1' });
    expect(none.results.find((r) => r.check === 'redis')).toMatchObject({ verdict: 'skip', needed: false });
    expect(none.exitCode).toBe(0);
  });

  it('with push off: the FastCast checks are skipped and not needed, even against a FastCast that is down', async () => {
    const up = await simulator({ fastcastFaults: 'discovery-down' });
    const d = await doctor(up, { push: 'off' });
    const fastcast = d.results.filter((r) => r.check.startsWith('fastcast-') || r.check === 'push-lag');
    expect(fastcast).toHaveLength(8);
    for (const r of fastcast)
      expect(r).toMatchObject({
        verdict: 'skip',
        needed: false,
        detail: expect.stringMatching(/push is off/),
      });
    expect(d.text).toMatch(/^courtside doctor: upstream \S+, FastCast off$/m);
    expect(d.exitCode).toBe(0);
  });

  it('with no live game: the subscription is a warning naming --game, the connection is still checked', async () => {
    const up = await simulator({ simulate: { games: 0, seed: 1 } });
    const d = await doctor(up, { seconds: '1' });
    expect(d.line('fastcast-connect')).toMatch(/^ok/);
    expect(d.line('fastcast-subscribe')).toMatch(/^warn\s+fastcast-subscribe\s+no live game .* --game <id>/);
    expect(d.verdict('fastcast-frames')).toBe('skip');
    expect(d.line('fastcast-checkpoint')).toMatch(
      /^skip\s+fastcast-checkpoint\s+not reached: no game to subscribe to$/,
    );
    expect(d.exitCode).toBe(0);
  });

  it('with scoreboards it cannot read: no game is not called a quiet day, and the subscription is said not checked', async () => {
    const up = await simulator({ fastcastFaults: 'waf' });
    const d = await doctor(up, { seconds: '1' });
    expect(d.line('fastcast-connect')).toMatch(/^ok/);
    expect(d.line('fastcast-subscribe')).toMatch(
      /^skip\s+fastcast-subscribe\s+not reached: the scoreboards could not be read \(site-api\), .* --game <id>/,
    );
    expect(d.text.trim().split('\n').at(-1)).toBe(
      'doctor: 1 needed check(s) failed: site-api (not checked after it: fastcast-subscribe)',
    );
    expect(d.exitCode).toBe(1);
  });

  // Three processes, each starting from source: slow on a busy machine.
  it(
    'as a user runs it: exit 0 healthy, 1 with a fault, --json one object, 2 for a wrong flag',
    { timeout: 120_000 },
    async () => {
      const healthy = await simulator();
      const ok = runCli([
        'doctor',
        '--upstream',
        healthy.url,
        '--fastcast-url',
        healthy.fastcastUrl as string,
        '--seconds',
        '1',
      ]);
      expect((await ok.exited).code).toBe(0);
      expect(ok.stdout()).toMatch(/^ok\s+fastcast-checkpoint\s+\d+ KB: a summary of game 9\d+/m);
      const faulty = await simulator({ fastcastFaults: 'no-h' });
      const json = runCli([
        'doctor',
        '--upstream',
        faulty.url,
        '--fastcast-url',
        faulty.fastcastUrl as string,
        '--json',
      ]);
      expect((await json.exited).code).toBe(1);
      const report = JSON.parse(json.stdout()) as { ok: boolean; checks: CheckResult[] };
      expect(report.ok).toBe(false);
      expect(report.checks.map((c) => c.check)).toEqual([
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
      ]);
      expect(report.checks.find((c) => c.check === 'fastcast-subscribe')).toMatchObject({
        verdict: 'fail',
        needed: true,
        detail: expect.stringMatching(/no H/),
      });
      const wrong = runCli(['doctor', '--seconds', '0']);
      expect((await wrong.exited).code).toBe(2);
      expect(wrong.stderr()).toMatch(
        /^courtside doctor: --seconds: "0" is invalid; expected an integer from 1 to 120/,
      );
    },
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameEvent, GameSnapshot } from '../../src/model/events.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import { silentLogger } from '../../src/core/log.js';
import { startUpstream, type RunningUpstream, type SimulatedGame } from '../../src/simulator/index.js';
import {
  evaluate,
  parseAlertsConfig,
  type Alert,
  type GameRuleState,
  type RuleSettings,
} from '../../workers/index.js';
import { startDaemon } from '../cli/harness.js';
import { waitFor } from '../support/wait-for.js';
import { easternNoonToday } from '../support/eastern-noon.js';

/**
 * The lower thirds' moments (`GET /overlay/<league>/<gameId>/moments`) against a real daemon that
 * has followed a whole synthetic game: they are exactly what the alert worker's rules fire on the
 * game's events in the log, cut at `through`, with the settings the query names. And the overlay
 * pages refuse a malformed query with a notice that names the parameter.
 */
interface MomentsBody {
  moments: Array<Alert & { offset: string }>;
}

describe('overlay moments and page parameters', () => {
  let upstream: RunningUpstream | undefined;
  let daemon: Daemon | undefined;
  let game: SimulatedGame;
  let base = '';
  let events: GameEvent[] = [];
  // The game is moved on by hours: its day starts at noon Eastern (easternNoonToday), so it stays
  // on one Eastern day's board.
  let now = easternNoonToday();
  const clock = { now: () => now };

  beforeAll(async () => {
    upstream = await startUpstream({
      simulate: { games: 1, seed: 11 },
      speed: 1,
      clock,
      logger: silentLogger,
    });
    game = upstream.games[0] as SimulatedGame;
    now = game.startAt + 60_000;
    daemon = await startDaemon(upstream.url);
    base = daemon.url;
    // Three jumps through the game, then its end: the log holds the whole game in a few polls.
    for (const part of [0.3, 0.6, 0.9]) {
      now = game.startAt + (game.endAt - game.startAt) * part;
      const want = game.state(now);
      await waitFor(async () => {
        const res = await fetch(`${base}/v1/games/${game.league}/${game.id}`);
        const snap = res.ok ? ((await res.json()) as GameSnapshot) : undefined;
        return snap?.score.home === want.homeScore && snap.score.away === want.awayScore;
      }, 30_000);
    }
    now = game.endAt + 5_000;
    await waitFor(async () => {
      const res = await fetch(`${base}/v1/games/${game.league}/${game.id}`);
      return res.ok && ((await res.json()) as GameSnapshot).state === 'post';
    }, 30_000);
    events = (await daemon.bus.read(null, 100_000)).filter((e) => e.gameId === game.id);
  }, 120_000);

  afterAll(async () => {
    await daemon?.close();
    await upstream?.close();
  });

  /** The worker's rules run by hand over the log's events up to `through`. */
  function expected(
    settings: RuleSettings,
    through: string,
  ): Array<{ id: string; offset: string; text: string }> {
    let state: GameRuleState | undefined;
    const out: Array<{ id: string; offset: string; text: string }> = [];
    for (const event of events) {
      const [ms, n] = (event.offset ?? '').split('-').map(Number);
      const [tms, tn] = through.split('-').map(Number);
      if ((ms ?? 0) > (tms ?? 0) || ((ms ?? 0) === (tms ?? 0) && (n ?? 0) > (tn ?? 0))) break;
      const step = evaluate(state, event, settings);
      state = step.state;
      for (const alert of step.alerts)
        out.push({ id: alert.id, offset: event.offset ?? '', text: alert.text });
    }
    return out;
  }

  async function moments(query: string): Promise<MomentsBody> {
    const res = await fetch(`${base}/overlay/${game.league}/${game.id}/moments?${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as MomentsBody;
  }

  const shape = (body: MomentsBody) =>
    body.moments.map((m) => ({ id: m.id, offset: m.offset, text: m.text }));

  it('are the alert rules fired on the game events of the log, up to `through`', async () => {
    const last = events.at(-1)?.offset ?? '';
    const defaults = parseAlertsConfig({}).rules;
    const all = await moments(`through=${last}`);
    expect(all.moments.length).toBeGreaterThan(0);
    expect(all.moments.some((m) => m.rule === 'final_score')).toBe(true);
    expect(shape(all)).toEqual(expected(defaults, last));
    // Cut in the middle of the game: only what had fired by then (the page's delayed position).
    const middle = events[Math.floor(events.length / 2)]?.offset ?? '';
    expect(shape(await moments(`through=${middle}`))).toEqual(expected(defaults, middle));
    expect((await moments(`through=${middle}`)).moments.every((m) => m.rule !== 'final_score')).toBe(true);
  });

  it('take the rules and settings the query names, checked by the rules file schema', async () => {
    const last = events.at(-1)?.offset ?? '';
    const settings = parseAlertsConfig({
      rules: { run: { points: 6 }, lead_change: { fromPeriod: 1 }, player_points: { thresholds: [10, 20] } },
    }).rules;
    const body = await moments(
      `through=${last}&rules=run,lead_change,player_points&run.points=6&lead_change.fromPeriod=1&player_points.thresholds=10,20`,
    );
    expect(new Set(body.moments.map((m) => m.rule))).toEqual(
      new Set(['run', 'lead_change', 'player_points']),
    );
    expect(shape(body)).toEqual(expected(settings, last));
  });

  it('refuse a malformed query, naming the parameter', async () => {
    const last = events.at(-1)?.offset ?? '';
    const cases: Array<[string, string]> = [
      ['through=yesterday', 'through'],
      ['', 'through'],
      [`through=${last}&rules=dunk_contest`, 'rules'],
      [`through=${last}&run.points=0`, 'run.points'],
      [`through=${last}&rules=run&close_game.margin=3`, 'close_game.margin'],
      [`through=${last}&color=red`, 'color'],
    ];
    for (const [query, param] of cases) {
      const res = await fetch(`${base}/overlay/${game.league}/${game.id}/moments?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('INVALID_PARAMS');
      expect(body.error.message).toContain(`"${param}"`);
    }
  });

  it('the pages refuse unknown, repeated and malformed parameters with a notice saying what is expected', async () => {
    const page = `/overlay/${game.league}/${game.id}`;
    const cases: Array<[string, string]> = [
      [`${page}?plays=11`, 'an integer from 0 to 10'],
      [`${page}?layout=wide`, 'one of full, compact, vertical'],
      [`${page}?theme=pink`, 'one of dark, light, team'],
      [`${page}?scale=8`, '720p, 1080p, 1440p, 4k or a number from 0.25 to 4'],
      [`${page}?chart=yes`, 'one of 0, 1'],
      [`${page}?delay=301`, 'an integer from 0 to 300'],
      [`${page}?stale=1`, 'an integer from 3 to 600'],
      [`${page}?plays=2&plays=3`, 'the parameter once'],
      [`${page}?speed=10`, 'unknown parameter'],
      [`${page}/lower-third?hold=1`, 'an integer from 3 to 60'],
      [`${page}/lower-third?run.points=-2`, 'run.points'],
      [`${page}/lower-third?layout=full`, 'unknown parameter'],
    ];
    for (const [path, says] of cases) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text(), path).toContain(says.replace(/"/g, '&#34;'));
    }
    for (const path of [
      `${page}?layout=vertical&theme=team&plays=0&chart=0&scale=4k&delay=30&stale=10&transparent=1`,
      `${page}?scale=1.5`,
      `${page}/lower-third?rules=run,final_score&run.points=8&hold=5&delay=10&theme=light`,
      '/overlay/ticker?speed=0&theme=team&scale=720p',
      '/overlay/mens/ticker',
    ]) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(200);
    }
  });
});

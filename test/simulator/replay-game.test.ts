import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import {
  FIXTURES_DIR,
  HAVE_FIXTURES,
  NO_FIXTURES_REASON,
  loadFixture,
  describeRecorded,
} from '../support/fixtures.js';
import { NBA, TestClock, WNBA, closeAll, getJson, start } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read ESPN's free-form JSON */
afterEach(closeAll);

const MENS_FINAL = 'mens/summary__401585607_final.json';
const WOMENS_FINAL = 'womens/summary__401736158_final.json';
const SPEED = 60;

const offsetsOf = (plays: any[]): number[] => {
  const t = plays.map((p) => Date.parse(p.wallclock));
  const t0 = Math.min(...t);
  return t.map((x) => x - t0);
};

describeRecorded(!HAVE_FIXTURES)(
  `replaying a finished summary (${HAVE_FIXTURES ? FIXTURES_DIR : NO_FIXTURES_REASON})`,
  () => {
    it('goes pre → in with growing plays and scores → post with the final payload, and the scoreboard follows', async () => {
      const clock = new TestClock();
      const final = loadFixture<any>(MENS_FINAL);
      const up = await start({ replay: [join(FIXTURES_DIR, MENS_FINAL)], speed: SPEED, clock });
      const game = up.games[0];
      expect(game).toMatchObject({ league: 'mens', id: '401585607' });
      const summaryUrl = `${up.url}${NBA}/summary?event=401585607`;
      const scoreboardUrl = `${up.url}${NBA}/scoreboard?dates=20240317`;
      const finalIds = final.plays.map((p: any) => p.id);

      clock.advance(-1000);
      const pre = await getJson(summaryUrl);
      expect(pre.body.header.competitions[0].status.type.state).toBe('pre');
      expect(pre.body.plays).toBeUndefined();
      expect((await getJson(scoreboardUrl)).body.events[0].status.type.state).toBe('pre');
      clock.advance(1000);

      let lastCount = 0;
      let lastTotal = 0;
      let sawIn = 0;
      const step = (2 * 60_000) / SPEED; // two minutes of game wallclock per step
      while (clock.ms < (game?.endAt ?? 0)) {
        const { body } = await getJson(summaryUrl);
        const status = body.header.competitions[0].status;
        expect(status.type.state).toBe('in');
        sawIn++;
        expect(body.article).toBeUndefined();
        const plays: any[] = body.plays;
        expect(plays.length).toBeGreaterThanOrEqual(lastCount);
        // Revealed plays keep the final payload's order.
        const positions = plays.map((p) => finalIds.indexOf(p.id));
        expect(positions.every((pos, i) => pos >= 0 && (i === 0 || pos > (positions[i - 1] ?? -1)))).toBe(
          true,
        );
        // Every revealed play's wallclock has passed; every unrevealed one has not.
        const offsets = offsetsOf(final.plays);
        const elapsed = (clock.ms - (game?.startAt ?? 0)) * SPEED;
        expect(plays.length).toBe(offsets.filter((o) => o <= elapsed).length);
        // Status and scores come from the last revealed play (in the payload's game order).
        const last = plays[plays.length - 1];
        expect(status.period).toBe(last.period.number);
        expect(status.displayClock).toBe(last.clock.displayValue);
        const [home, away] = body.header.competitions[0].competitors;
        expect(home.homeAway).toBe('home');
        expect(Number(home.score)).toBe(last.homeScore);
        expect(Number(away.score)).toBe(last.awayScore);
        expect(Number(home.score) + Number(away.score)).toBeGreaterThanOrEqual(lastTotal);
        lastTotal = Number(home.score) + Number(away.score);
        const revealed = new Set(plays.map((p) => p.id));
        expect(body.winprobability.every((w: any) => revealed.has(w.playId))).toBe(true);
        expect(body.winprobability.length).toBe(
          plays.filter((p) => final.winprobability.some((w: any) => w.playId === p.id)).length,
        );
        // The scoreboard shows the same moment.
        const event = (await getJson(scoreboardUrl)).body.events[0];
        expect(event.id).toBe('401585607');
        expect(event.status.type.state).toBe('in');
        expect(event.status.period).toBe(status.period);
        expect(event.status.displayClock).toBe(status.displayClock);
        const sbHome = event.competitions[0].competitors.find((c: any) => c.homeAway === 'home');
        expect(sbHome.score).toBe(home.score);
        expect(sbHome.team.abbreviation).toBe('ORL');
        lastCount = plays.length;
        clock.advance(step);
      }
      expect(sawIn).toBeGreaterThan(50);
      expect(lastCount).toBeLessThanOrEqual(final.plays.length);

      clock.ms = (game?.endAt ?? 0) + 1;
      const post = await getJson(summaryUrl);
      expect(post.body).toEqual(final);
      const event = (await getJson(scoreboardUrl)).body.events[0];
      expect(event.status.type).toMatchObject({ state: 'post', completed: true, name: 'STATUS_FINAL' });
      const winner = event.competitions[0].competitors.find((c: any) => c.winner);
      expect(winner).toMatchObject({ homeAway: 'home', score: '111' });
      expect(game?.state(clock.ms)).toMatchObject({ state: 'post', homeScore: 111, awayScore: 96 });
    });

    it('reveals a play stamped out of order before plays already shown, as live', async () => {
      const clock = new TestClock();
      const final = loadFixture<any>(MENS_FINAL);
      const up = await start({ replay: [join(FIXTURES_DIR, MENS_FINAL)], speed: 1, clock });
      const offsets = offsetsOf(final.plays);
      // A play i listed before a play j but stamped after it.
      let pair: [number, number] | undefined;
      for (let j = 1; j < offsets.length && !pair; j++) {
        for (let i = 0; i < j; i++) if ((offsets[i] ?? 0) > (offsets[j] ?? 0)) pair = [i, j];
      }
      expect(pair, 'the recording has out-of-order wallclocks').toBeDefined();
      const [i, j] = pair as [number, number];
      const start0 = up.games[0]?.startAt ?? 0;
      clock.ms = start0 + (offsets[j] ?? 0);
      let ids = (await getJson(`${up.url}${NBA}/summary?event=401585607`)).body.plays.map((p: any) => p.id);
      expect(ids).toContain(final.plays[j].id);
      expect(ids).not.toContain(final.plays[i].id);
      clock.ms = start0 + (offsets[i] ?? 0);
      ids = (await getJson(`${up.url}${NBA}/summary?event=401585607`)).body.plays.map((p: any) => p.id);
      expect(ids.indexOf(final.plays[i].id)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(final.plays[i].id)).toBeLessThan(ids.indexOf(final.plays[j].id));
    });

    it('replays several games of both leagues at once; other event ids fall back', async () => {
      const clock = new TestClock();
      const up = await start({
        replay: [join(FIXTURES_DIR, MENS_FINAL), join(FIXTURES_DIR, WOMENS_FINAL)],
        speed: SPEED,
        clock,
        fixturesDir: FIXTURES_DIR,
      });
      expect(up.games.map((g) => `${g.league}/${g.id}`)).toEqual(['mens/401585607', 'womens/401736158']);
      clock.advance((60 * 60_000) / SPEED);
      const w = await getJson(`${up.url}${WNBA}/scoreboard`);
      expect(w.body.events.map((e: any) => e.id)).toEqual(['401736158']);
      expect(w.body.events[0].status.type.state).toBe('in');
      const other = await getJson(`${up.url}${NBA}/summary?event=401705066`);
      expect(other.body.header.id).toBe('401705066');
      expect(other.body).toEqual(loadFixture('mens/summary__401705066_live.json'));
    });
  },
);

import { afterEach, describe, expect, it } from 'vitest';
import { upstreamOptionsFromFlags } from '../../src/cli/upstream.js';
import { closeAll, start } from './helpers.js';

/** The simulator's 2026 rules, and the switch that turns them off. */

const SCOREBOARD = '/apis/site/v2/sports/basketball/nba/scoreboard';
const ACCEPTED = 'acme/1.0 (+https://acme.example)';

afterEach(closeAll);

async function get(
  base: string,
  path: string,
  agent = ACCEPTED,
): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`${base}${path}`, { headers: { 'user-agent': agent } });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('the simulator under the 2026 rules (the default)', () => {
  it('answers blocked agent forms with a 403 HTML page before any route, and lets the accepted form through', async () => {
    const { url } = await start({});
    for (const agent of [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15',
      'MyApp/1.0',
      'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
      'Deno/2.1.4',
      'Wget/1.21.4',
      'PostmanRuntime/7.42.0',
      '',
    ]) {
      for (const path of [SCOREBOARD, '/nowhere']) {
        const answer = await get(url, path, agent);
        expect(answer.status, agent).toBe(403);
        expect(answer.type).toMatch(/^text\/html/);
        expect(answer.text).toMatch(/^<!DOCTYPE html>/);
      }
    }
    expect((await get(url, SCOREBOARD)).status).toBe(200);
  });

  it('refuses ranges, cuts a limit above 500 to 25, and answers /calendar and /athletes/{id} with 404', async () => {
    const { url } = await start({});
    const range = await get(url, `${SCOREBOARD}?dates=20241201-20241201`);
    expect(range.status).toBe(400);
    expect(JSON.parse(range.text)).toEqual({ message: 'Failed to get events endpoint.' });
    const events = async (query: string) =>
      (JSON.parse((await get(url, `${SCOREBOARD}?${query}`)).text) as { events: unknown[] }).events.length;
    expect(await events('dates=202412&limit=500')).toBeGreaterThan(100);
    expect(await events('dates=202412&limit=1000')).toBe(25);
    expect(await events('dates=202412&limit=10')).toBe(10);
    expect((await get(url, '/apis/site/v2/sports/basketball/nba/calendar')).status).toBe(404);
    expect((await get(url, '/apis/site/v2/sports/basketball/nba/athletes/1966')).status).toBe(404);
    const injuries = await get(url, '/apis/site/v2/sports/basketball/nba/teams/13/injuries');
    expect(injuries).toMatchObject({ status: 200, text: '' });
  });

  it('answers a past month with the games of each of its Eastern days, the same as the days one by one', async () => {
    const { url } = await start({});
    const month = JSON.parse((await get(url, `${SCOREBOARD}?dates=202412&limit=500`)).text) as {
      events: { id: string }[];
    };
    const ids: string[] = [];
    for (let d = 1; d <= 31; d++) {
      const day = `202412${String(d).padStart(2, '0')}`;
      const board = JSON.parse((await get(url, `${SCOREBOARD}?dates=${day}`)).text) as {
        events: { id: string }[];
      };
      ids.push(...board.events.map((e) => e.id));
    }
    expect(month.events.map((e) => e.id)).toEqual(ids);
  });
});

describe("the simulator under the 'legacy' rules", () => {
  it('sends ranges, big limits and any agent through as before', async () => {
    const { url } = await start({ espnRules: 'legacy' });
    expect((await get(url, `${SCOREBOARD}?dates=20241201-20241207`, 'MyApp/1.0')).status).toBe(200);
    expect((await get(url, `${SCOREBOARD}?limit=1000`, '')).status).toBe(200);
    expect((await get(url, '/apis/site/v2/sports/basketball/nba/calendar')).status).toBe(200);
    expect((await get(url, '/apis/site/v2/sports/basketball/nba/teams/13/injuries')).text).not.toBe('');
  });

  it('is what `courtside upstream --espn-rules legacy` asks for; 2026 is the default', () => {
    const flags = { port: '0', host: '127.0.0.1', replay: [], seed: '1', speed: '1' };
    expect(upstreamOptionsFromFlags({ ...flags, espnRules: 'legacy' }).espnRules).toBe('legacy');
    expect(upstreamOptionsFromFlags({ ...flags, espnRules: '2026' }).espnRules).toBe('2026');
    expect(upstreamOptionsFromFlags(flags).espnRules).toBeUndefined();
    expect(() => upstreamOptionsFromFlags({ ...flags, espnRules: '2025' })).toThrow(
      /--espn-rules: "2025" is invalid; expected 2026 or legacy/,
    );
  });

  it('refuses an unknown rules name', async () => {
    await expect(start({ espnRules: '2027' as 'legacy' })).rejects.toThrow(/espnRules: "2027" is invalid/);
  });
});

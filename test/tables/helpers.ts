import { listFixtures, loadFixture, type FixtureFile } from '../support/fixtures.js';

/** Recorded payloads of one operation suffix, with their parsed JSON. */
export function fixturesOf(suffix: string): { fixture: FixtureFile; name: string; raw: unknown }[] {
  return listFixtures()
    .filter((f) => f.suffix === suffix)
    .map((fixture) => ({
      fixture,
      name: `${fixture.league}/${fixture.suffix}${fixture.qualifier ? `__${fixture.qualifier}` : ''}`,
      raw: loadFixture(`${fixture.league}/${fixture.file.split('/').pop() as string}`),
    }));
}

/** A minimal play object as ESPN sends it, with overrides. */
export function makePlay(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '4017001',
    sequenceNumber: '7',
    type: { id: '110', text: 'Driving Layup Shot' },
    text: 'Someone makes driving layup',
    awayScore: 0,
    homeScore: 2,
    period: { number: 1, displayValue: '1st Quarter' },
    clock: { displayValue: '11:42' },
    scoringPlay: true,
    scoreValue: 2,
    team: { id: '19' },
    participants: [{ athlete: { id: '4566434' } }],
    wallclock: '2024-03-17T22:10:59Z',
    shootingPlay: true,
    coordinate: { x: 25, y: 3 },
    pointsAttempted: 2,
    shortDescription: '+2 Points',
    ...overrides,
  };
}

/** A minimal scoreboard event with two competitors, with overrides on the event. */
export function makeScoreboardEvent(
  overrides: Record<string, unknown> = {},
  competition: Record<string, unknown> = {},
) {
  const competitor = (homeAway: string, id: string, extra: Record<string, unknown> = {}) => ({
    id,
    homeAway,
    score: homeAway === 'home' ? '101' : '99',
    winner: homeAway === 'home',
    team: {
      id,
      name: `Team${id}`,
      abbreviation: `T${id}`,
      displayName: `City Team${id}`,
      location: 'City',
      color: '#00ff00',
      alternateColor: 'ffffff',
      logo: `https://example.test/${id}.png`,
    },
    ...extra,
  });
  return {
    id: '401000001',
    uid: 's:40~l:46~e:401000001',
    date: '2025-01-07T03:00Z',
    name: 'Away at Home',
    shortName: 'AW @ HM',
    season: { year: 2025, type: 2, slug: 'regular-season' },
    status: {
      clock: 0,
      displayClock: '0.0',
      period: 4,
      type: {
        id: '3',
        name: 'STATUS_FINAL',
        state: 'post',
        completed: true,
        description: 'Final',
        detail: 'Final',
        shortDetail: 'Final',
      },
    },
    competitions: [
      {
        attendance: 18000,
        neutralSite: false,
        conferenceCompetition: false,
        venue: { id: '1', fullName: 'Arena', address: { city: 'City', state: 'ST' }, indoor: true },
        competitors: [competitor('home', '1'), competitor('away', '2')],
        broadcasts: [{ market: 'national', names: ['TV1', 'TV2'] }],
        notes: [],
        ...competition,
      },
    ],
    ...overrides,
  };
}

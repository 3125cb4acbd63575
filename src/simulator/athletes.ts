import type { League } from '../core/leagues.js';
import type { AthleteObject } from './espn-shapes.js';
import { LEAGUE_UID, type CatalogTeam } from './team-catalog.js';
import { createRandom, hashString, pick } from './random.js';

/** A made-up athlete of a simulated team (names from small lists; ids stable per team). */
export interface SimAthlete {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly displayName: string;
  readonly shortName: string;
  readonly jersey: string;
  readonly position: { readonly name: string; readonly abbreviation: string };
}

// Each list is written as text and split on spaces: every name is a single word.
const words = (text: string): readonly string[] => text.trim().split(/\s+/);
const FIRST = words(`
  Jalen Marcus Tyler Andre Chris Devin Jordan Malik
  Cam Isaiah Evan Kobe Trey Miles Dante Aaron`);
const FIRST_W = words(`
  Aja Kelsey Brianna Jordin Alyssa Natasha Sabrina Jackie
  Dearica Tina Satou Rhyne Kahleah Ariel Nneka Layshia`);
const LAST = words(`
  Walker Johnson Brooks Carter Hayes Mitchell Green Turner Reed Bennett
  Coleman Price Foster Sanders Howard Bryant Ellis Jenkins Perry Wallace`);
const POSITIONS = [
  { name: 'Guard', abbreviation: 'G' },
  { name: 'Guard', abbreviation: 'G' },
  { name: 'Forward', abbreviation: 'F' },
  { name: 'Forward', abbreviation: 'F' },
  { name: 'Center', abbreviation: 'C' },
] as const;
// Thirteen covers an NBA active list (13) and a WNBA roster (12, plus one); the first five start.
const ROSTER_SIZE = 13;

const cache = new Map<string, readonly SimAthlete[]>();

export function rosterFor(league: League, team: CatalogTeam): readonly SimAthlete[] {
  const cacheKey = `${league}/${team.id}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const random = createRandom(hashString(cacheKey));
  const usedJerseys = new Set<string>();
  const base = 5_000_000 + (hashString(cacheKey) % 90_000) * 100;
  const roster = Array.from({ length: ROSTER_SIZE }, (_, i): SimAthlete => {
    const firstName = pick(random, league === 'womens' ? FIRST_W : FIRST);
    const lastName = pick(random, LAST);
    let jersey = String(Math.floor(random() * 55));
    while (usedJerseys.has(jersey)) jersey = String((Number(jersey) + 1) % 100);
    usedJerseys.add(jersey);
    return {
      id: String(base + i),
      firstName,
      lastName,
      displayName: `${firstName} ${lastName}`,
      shortName: `${firstName[0]}. ${lastName}`,
      jersey,
      position: POSITIONS[i % POSITIONS.length] ?? POSITIONS[0],
    };
  });
  cache.set(cacheKey, roster);
  return roster;
}

/** The athlete object as box scores and leaders carry it. */
export function athleteObject(league: League, athlete: SimAthlete): AthleteObject {
  return {
    id: athlete.id,
    uid: `${LEAGUE_UID[league]}~a:${athlete.id}`,
    guid: `sim-${athlete.id}`,
    displayName: athlete.displayName,
    shortName: athlete.shortName,
    links: [],
    headshot: {
      href: `https://a.espncdn.com/i/headshots/nba/players/full/${athlete.id}.png`,
      alt: athlete.displayName,
    },
    jersey: athlete.jersey,
    position: {
      name: athlete.position.name,
      displayName: athlete.position.name,
      abbreviation: athlete.position.abbreviation,
    },
  };
}

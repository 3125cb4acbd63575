import type { League } from '../core/leagues.js';
import { CONFERENCE_OF_TEAM, type CollegeConference } from './college-teams.js';
import { syntheticConferenceOf } from './synthetic-college-teams.js';
import { SEASON_YEAR } from './generated-common.js';
import { TEAMS, teamObject, type CatalogTeam } from './team-catalog.js';

/**
 * Generated payloads of what only the college leagues have: conferences inside Division I, and
 * the polls. Shaped as ESPN's site API answers them (`/groups`: Division I with its conferences
 * as children; `/rankings`: every poll of the week with its ranked teams).
 */

type Conference = CollegeConference;

/** The conference of a catalog college team. */
export function conferenceOf(team: CatalogTeam): Conference | undefined {
  return CONFERENCE_OF_TEAM[team.id] ?? syntheticConferenceOf(team.id);
}

/** `/groups` of a college league: Division I (group 50), its conferences and their teams. */
export function collegeGroups(league: League): unknown {
  const byConference = new Map<Conference, CatalogTeam[]>();
  for (const team of TEAMS[league]) {
    const conference = conferenceOf(team);
    if (conference) byConference.set(conference, [...(byConference.get(conference) ?? []), team]);
  }
  return {
    groups: [
      {
        uid: 's:40~g:50',
        groupId: '50',
        name: 'NCAA Division I',
        abbreviation: 'NCAA',
        children: [...byConference].map(([conference, teams]) => ({
          uid: `s:40~g:${conference.id}`,
          groupId: conference.id,
          name: conference.name,
          abbreviation: conference.abbreviation,
          teams: teams.map((t) => teamObject(league, t)),
        })),
      },
    ],
    status: 'success',
  };
}

const POLLS = [
  { id: '1', name: 'AP Top 25', shortName: 'AP Poll', type: 'ap' },
  { id: '2', name: 'Coaches Poll', shortName: 'Coaches Poll', type: 'usa' },
] as const;

// A poll ranks 25 teams.
const POLL_SIZE = 25;

/** A college team's place in the simulator's AP poll (catalog order), null when unranked. */
export function pollRank(league: League, team: CatalogTeam): number | null {
  const i = TEAMS[league].findIndex((t) => t.id === team.id);
  return i >= 0 && i < POLL_SIZE ? i + 1 : null;
}

/** `/rankings`: the AP and coaches' polls of one week, the catalog's first 25 teams in order. */
export function rankings(league: League): unknown {
  const year = SEASON_YEAR[league];
  const date = `${year}-01-13T08:00Z`;
  // The catalog's first 25, in order: the teams pollRank ranks.
  const teams = TEAMS[league].slice(0, POLL_SIZE);
  return {
    rankings: POLLS.map((poll, p) => ({
      ...poll,
      headline: `${year - 1}-${String(year).slice(2)} ${poll.name} Rankings: Week 10`,
      shortHeadline: `${year - 1}-${String(year).slice(2)} ${poll.shortName}: Week 10`,
      occurrence: { number: 10, type: 'week', last: false, value: '10', displayValue: 'Week 10' },
      date,
      lastUpdated: date,
      ranks: teams.map((team, i) => {
        // The polls agree but for the last two places, so the two do not read the same.
        const current = p === 1 && i >= teams.length - 2 ? teams.length * 2 - 1 - i : i + 1;
        return {
          current,
          previous: current + 1,
          points: (26 - current) * (p === 0 ? 62 : 31),
          firstPlaceVotes: current === 1 ? (p === 0 ? 50 : 25) : 0,
          trend: '+1',
          recordSummary: `${15 - current}-${current + 1}`,
          team: { ...teamObject(league, team), nickname: team.location },
          date,
          lastUpdated: date,
        };
      }),
      others: [],
      droppedOut: [],
    })),
    latestWeek: { number: 10 },
  };
}

import { LEAGUE_INFO, LEAGUE_SEGMENT, type League } from '../core/leagues.js';
import { COLLEGE_ROWS } from './college-teams.js';
import { syntheticCollegeTeams } from './synthetic-college-teams.js';
import type { TeamObject } from './espn-shapes.js';

/** The teams the simulator knows: ESPN's team ids, abbreviations and colours (no leading #). */
export interface CatalogTeam {
  readonly id: string;
  readonly abbreviation: string;
  readonly location: string;
  readonly name: string;
  readonly color: string;
  readonly alternateColor: string;
}

type Row = readonly [
  league: League,
  id: string,
  abbreviation: string,
  location: string,
  name: string,
  color: string,
  alt: string,
];

// Both leagues' teams with ESPN's ids, so generated payloads line up with real ones.
const ROWS: readonly Row[] = [
  ['mens', '1', 'ATL', 'Atlanta', 'Hawks', 'c8102e', 'fdb927'],
  ['mens', '2', 'BOS', 'Boston', 'Celtics', '008348', 'ffffff'],
  ['mens', '3', 'NO', 'New Orleans', 'Pelicans', '0a2240', 'b4975a'],
  ['mens', '4', 'CHI', 'Chicago', 'Bulls', 'ce1141', '000000'],
  ['mens', '5', 'CLE', 'Cleveland', 'Cavaliers', '860038', 'bc945c'],
  ['mens', '6', 'DAL', 'Dallas', 'Mavericks', '0064b1', 'bbc4ca'],
  ['mens', '7', 'DEN', 'Denver', 'Nuggets', '0e2240', 'fec524'],
  ['mens', '8', 'DET', 'Detroit', 'Pistons', '1d428a', 'c8102e'],
  ['mens', '9', 'GS', 'Golden State', 'Warriors', '1d428a', 'ffc72c'],
  ['mens', '10', 'HOU', 'Houston', 'Rockets', 'ce1141', '000000'],
  ['mens', '11', 'IND', 'Indiana', 'Pacers', '002d62', 'fdbb30'],
  ['mens', '12', 'LAC', 'LA', 'Clippers', 'c8102e', '1d428a'],
  ['mens', '13', 'LAL', 'Los Angeles', 'Lakers', '552583', 'fdb927'],
  ['mens', '14', 'MIA', 'Miami', 'Heat', '98002e', '000000'],
  ['mens', '15', 'MIL', 'Milwaukee', 'Bucks', '00471b', 'eee1c6'],
  ['mens', '16', 'MIN', 'Minnesota', 'Timberwolves', '266092', '79bc43'],
  ['mens', '17', 'BKN', 'Brooklyn', 'Nets', '000000', 'ffffff'],
  ['mens', '18', 'NY', 'New York', 'Knicks', '1d428a', 'f58426'],
  ['mens', '19', 'ORL', 'Orlando', 'Magic', '0077c0', '9ca0a3'],
  ['mens', '20', 'PHI', 'Philadelphia', '76ers', '1d428a', 'e01234'],
  ['mens', '21', 'PHX', 'Phoenix', 'Suns', '29127a', 'e56020'],
  ['mens', '22', 'POR', 'Portland', 'Trail Blazers', 'e03a3e', '000000'],
  ['mens', '23', 'SAC', 'Sacramento', 'Kings', '5a2d81', '6a7a82'],
  ['mens', '24', 'SA', 'San Antonio', 'Spurs', 'c4ced4', '000000'],
  ['mens', '25', 'OKC', 'Oklahoma City', 'Thunder', '007ac1', 'ef3b24'],
  ['mens', '26', 'UTAH', 'Utah', 'Jazz', '4e008e', '79a3dc'],
  ['mens', '27', 'WSH', 'Washington', 'Wizards', '002b5c', 'e31837'],
  ['mens', '28', 'TOR', 'Toronto', 'Raptors', 'd91244', '000000'],
  ['mens', '29', 'MEM', 'Memphis', 'Grizzlies', '5d76a9', '12173f'],
  ['mens', '30', 'CHA', 'Charlotte', 'Hornets', '008ca8', '1d1060'],
  ['womens', '20', 'ATL', 'Atlanta', 'Dream', 'e31837', '5091cc'],
  ['womens', '19', 'CHI', 'Chicago', 'Sky', '5091cd', 'ffd520'],
  ['womens', '18', 'CONN', 'Connecticut', 'Sun', 'f05023', '0a2240'],
  ['womens', '3', 'DAL', 'Dallas', 'Wings', '002b5c', 'c4d600'],
  ['womens', '129689', 'GS', 'Golden State', 'Valkyries', 'b38fcf', '000000'],
  ['womens', '5', 'IND', 'Indiana', 'Fever', '002d62', 'e03a3e'],
  ['womens', '17', 'LV', 'Las Vegas', 'Aces', 'a7a8aa', '000000'],
  ['womens', '6', 'LA', 'Los Angeles', 'Sparks', '552583', 'fdb927'],
  ['womens', '8', 'MIN', 'Minnesota', 'Lynx', '266092', '79bc43'],
  ['womens', '9', 'NY', 'New York', 'Liberty', '86cebc', '000000'],
  ['womens', '11', 'PHX', 'Phoenix', 'Mercury', '3c286e', 'fa4b0a'],
  ['womens', '14', 'SEA', 'Seattle', 'Storm', '2c5235', 'fee11a'],
  ['womens', '16', 'WSH', 'Washington', 'Mystics', 'e03a3e', '002b5c'],
  // College teams as ESPN's recorded college payloads name and colour them.
  ['mens-college', '150', 'DUKE', 'Duke', 'Blue Devils', '013088', 'ffffff'],
  ['mens-college', '2305', 'KU', 'Kansas', 'Jayhawks', '0051ba', 'e8000d'],
  ['mens-college', '154', 'WAKE', 'Wake Forest', 'Demon Deacons', 'ceb888', '2c2a29'],
  ['mens-college', '2752', 'XAV', 'Xavier', 'Musketeers', '21304e', 'a5a7a8'],
  ['mens-college', '139', 'SLU', 'Saint Louis', 'Billikens', '00539c', 'ebebeb'],
  ['mens-college', '179', 'SBU', 'St. Bonaventure', 'Bonnies', '70261d', 'ffffff'],
  ['mens-college', '2569', 'SCST', 'South Carolina State', 'Bulldogs', '7d1315', '104897'],
  ['womens-college', '99', 'LSU', 'LSU', 'Tigers', '461d7c', 'fdd023'],
  ['womens-college', '61', 'UGA', 'Georgia', 'Lady Bulldogs', 'ba0c2f', 'ffffff'],
  ['womens-college', '259', 'VT', 'Virginia Tech', 'Hokies', '630031', 'cf4520'],
  ['womens-college', '154', 'WAKE', 'Wake Forest', 'Demon Deacons', '000000', 'ceb888'],
];

const toTeam = ([, id, abbreviation, location, name, color, alternateColor]: Row): CatalogTeam => ({
  id,
  abbreviation,
  location,
  name,
  color,
  alternateColor,
});

// A college league has about 360 Division I teams: enough that a slate of 180 games a league
// (a busy Saturday) plays each team once.
const COLLEGE_TEAM_COUNT = 360;

// Men's nicknames that read wrong for the same school's women's team, by ESPN team id.
const WOMENS_NICKNAMES: Readonly<Record<string, string>> = { '197': 'Cowgirls' };

/**
 * The league's teams: the recorded ones first, then (college) the main conferences'
 * (college-teams.ts), then synthetic ones (synthetic-college-teams.ts) up to a full Division I.
 */
const teamsOf = (league: League): readonly CatalogTeam[] => {
  const recorded = ROWS.filter((row) => row[0] === league).map(toTeam);
  if (!LEAGUE_INFO[league].college) return recorded;
  const more = COLLEGE_ROWS.filter(([id]) => !recorded.some((t) => t.id === id)).map(
    ([id, abbreviation, location, name, color, alternateColor]) =>
      toTeam([
        league,
        id,
        abbreviation,
        location,
        (league === 'womens-college' ? WOMENS_NICKNAMES[id] : undefined) ?? name,
        color,
        alternateColor,
      ]),
  );
  const real = [...recorded, ...more];
  const synthetic = syntheticCollegeTeams(COLLEGE_TEAM_COUNT - real.length).map(
    ({ conference: _conference, ...team }) => team,
  );
  return [...real, ...synthetic];
};

export const TEAMS: Readonly<Record<League, readonly CatalogTeam[]>> = {
  mens: teamsOf('mens'),
  womens: teamsOf('womens'),
  'mens-college': teamsOf('mens-college'),
  'womens-college': teamsOf('womens-college'),
};

/** ESPN's sport/league uid prefix (`s:40~l:46`: sport 40 is basketball, league 46 the NBA). */
export const LEAGUE_UID: Readonly<Record<League, string>> = {
  mens: LEAGUE_INFO.mens.uid,
  womens: LEAGUE_INFO.womens.uid,
  'mens-college': LEAGUE_INFO['mens-college'].uid,
  'womens-college': LEAGUE_INFO['womens-college'].uid,
};
/** The league's numeric id: the `l:` part of its uid. */
export const LEAGUE_ID: Readonly<Record<League, string>> = {
  mens: '46',
  womens: '59',
  'mens-college': '41',
  'womens-college': '54',
};
export const LEAGUE_NAME: Readonly<Record<League, string>> = {
  mens: 'National Basketball Association',
  womens: "Women's National Basketball Association",
  'mens-college': "NCAA Men's Basketball",
  'womens-college': "NCAA Women's Basketball",
};

/** The league's team with this ESPN id or abbreviation (ESPN accepts both in team paths). */
export function findTeam(league: League, id: string): CatalogTeam | undefined {
  return TEAMS[league].find((t) => t.id === id || t.abbreviation.toLowerCase() === id.toLowerCase());
}

export function displayName(team: CatalogTeam): string {
  return `${team.location} ${team.name}`;
}

export function slug(team: CatalogTeam): string {
  return displayName(team)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
}

export function logoUrl(league: League, team: CatalogTeam): string {
  // College logos are filed by team id under `ncaa`, as the recorded college payloads show.
  if (LEAGUE_INFO[league].college) return `https://a.espncdn.com/i/teamlogos/ncaa/500/${team.id}.png`;
  return `https://a.espncdn.com/i/teamlogos/${LEAGUE_SEGMENT[league]}/500/${team.abbreviation.toLowerCase()}.png`;
}

/** The `team` object as ESPN's scoreboard and summary header carry it. */
export function teamObject(league: League, team: CatalogTeam): TeamObject {
  const segment = LEAGUE_SEGMENT[league];
  const abbr = team.abbreviation.toLowerCase();
  return {
    id: team.id,
    uid: `${LEAGUE_UID[league]}~t:${team.id}`,
    slug: slug(team),
    location: team.location,
    name: team.name,
    abbreviation: team.abbreviation,
    displayName: displayName(team),
    shortDisplayName: team.name,
    color: team.color,
    alternateColor: team.alternateColor,
    isActive: true,
    logo: logoUrl(league, team),
    logos: [
      {
        href: logoUrl(league, team),
        width: 500,
        height: 500,
        alt: '',
        rel: ['full', 'default'],
      },
    ],
    links: [
      {
        rel: ['clubhouse', 'desktop', 'team'],
        href: `https://www.espn.com/${segment}/team/_/name/${abbr}/${slug(team)}`,
        text: 'Clubhouse',
      },
    ],
  };
}

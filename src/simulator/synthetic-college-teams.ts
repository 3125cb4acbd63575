import type { CollegeConference } from './college-teams.js';
import { createRandom, randomInt } from './random.js';
import { SYNTHETIC_ID_PREFIX } from './synthetic-ids.js';

/**
 * Made-up Division I teams beyond the real ones of the catalog, so that a Saturday slate of up to
 * 180 games a league plays each team at most once. Names, abbreviations, colours and conferences
 * are composed here from word parts, deterministically; team ids are 6 digits starting with the
 * synthetic prefix (ESPN's college team ids have at most 6 digits and none starts so), and the
 * conferences' group ids too. The nicknames are neutral, so the women's teams carry them as well.
 */

export interface SyntheticCollegeTeam {
  readonly id: string;
  readonly abbreviation: string;
  readonly location: string;
  readonly name: string;
  readonly color: string;
  readonly alternateColor: string;
  readonly conference: CollegeConference;
}

const PLACES = [
  'Cedar',
  'Granite',
  'Harbor',
  'Maple',
  'Prairie',
  'Summit',
  'Willow',
  'Falcon Ridge',
  'Iron',
  'Lakeshore',
  'Pine',
  'Copper',
  'Silver Lake',
  'Bluewater',
  'Redstone',
  'Oakmont',
  'Stonebridge',
  'Westfield',
  'Eastbrook',
  'Highland',
  'Riverbend',
  'Clearwater',
  'Ashford',
  'Brookhaven',
];
const FORMS: ReadonlyArray<(place: string) => string> = [
  (p) => `${p} State`,
  (p) => `${p} University`,
  (p) => `Northern ${p}`,
  (p) => `${p} Tech`,
  (p) => `${p} College`,
  (p) => `Southern ${p}`,
];
const NICKNAMES = [
  'Storm',
  'Hawks',
  'Foxes',
  'Comets',
  'Owls',
  'Herons',
  'Flames',
  'Ravens',
  'Lynx',
  'Thunder',
  'Otters',
  'Pioneers',
  'Falcons',
  'Blaze',
  'Tide',
  'Wolves',
];
const REGIONS = [
  'Northern',
  'Southern',
  'Eastern',
  'Western',
  'Central',
  'Coastal',
  'Great Plains',
  'Mountain',
];
const KINDS = ['Conference', 'Athletic Conference', 'League'];

// Eight conferences of up to 40 teams hold the teams a league needs beyond the catalog's.
const CONFERENCE_SIZE = 40;

const initials = (words: string): string =>
  words
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .toUpperCase();

/** The synthetic conference number `n` (0-based): a region and a kind, a synthetic group id. */
function conference(n: number): CollegeConference {
  const name = `${REGIONS[n % REGIONS.length] as string} ${KINDS[n % KINDS.length] as string}`;
  return {
    id: `${SYNTHETIC_ID_PREFIX}${String(n + 1).padStart(3, '0')}`,
    name,
    abbreviation: initials(name),
  };
}

const hex = (random: () => number, min: number, max: number): string =>
  Array.from({ length: 3 }, () => randomInt(random, min, max).toString(16).padStart(2, '0')).join('');

/** The synthetic team number `n` (0-based); the same team for the same `n` in both leagues. */
function team(n: number): SyntheticCollegeTeam {
  const place = PLACES[n % PLACES.length] as string;
  const form = FORMS[Math.floor(n / PLACES.length) % FORMS.length] as (p: string) => string;
  const location = form(place);
  const random = createRandom(n * 7919 + 3);
  // A dark main colour with white, as most college teams wear; the number keeps abbreviations unique.
  return {
    id: `${SYNTHETIC_ID_PREFIX}${String(n + 1).padStart(5, '0')}`,
    abbreviation: `${initials(location).slice(0, 3)}${n + 1}`,
    location,
    name: NICKNAMES[(n * 5 + Math.floor(n / NICKNAMES.length)) % NICKNAMES.length] as string,
    color: hex(random, 0x10, 0x90),
    alternateColor: 'ffffff',
    conference: conference(Math.floor(n / CONFERENCE_SIZE)),
  };
}

/** The first `count` synthetic college teams. */
export function syntheticCollegeTeams(count: number): SyntheticCollegeTeam[] {
  return Array.from({ length: Math.max(0, count) }, (_, n) => team(n));
}

/** The conference of a synthetic college team by its id, undefined for any other id. */
export function syntheticConferenceOf(id: string): CollegeConference | undefined {
  const m = new RegExp(`^${SYNTHETIC_ID_PREFIX}(\\d{5})$`).exec(id);
  return m ? conference(Math.floor((Number(m[1]) - 1) / CONFERENCE_SIZE)) : undefined;
}

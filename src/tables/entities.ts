import type { League } from '../core/leagues.js';
import { isObject, obj, toColour } from './cells.js';
import { byPath, extract, logosAt } from './extract.js';
import { withExtra } from './extra.js';
import { fixedFrame } from './fixed.js';
import type { Frame, Layout } from './frame.js';

/**
 * The single-entity operations: the team, the athlete and the athlete's bio, one row each (none
 * when the payload has no such entity). Keys beyond the declared columns go to `extra`.
 */

/** A one-row list of `value` when it is a non-empty object. */
function single(value: unknown): unknown[] {
  return isObject(value) && Object.keys(value).length > 0 ? [value] : [];
}

const TEAM = withExtra(
  {
    ...byPath([
      'id',
      'uid',
      'slug',
      'location',
      'name',
      'nickname',
      'abbreviation',
      'displayName',
      'shortDisplayName',
      'links',
      'record.items',
      'groups.id',
      'groups.parent.id',
      'franchise.id',
      'standingSummary',
      'nextEvent',
      'isActive',
      'isAllStar',
      'groups.isConference',
    ]),
    color: (t) => toColour(t.color),
    alternate_color: (t) => toColour(t.alternateColor),
    logos: logosAt('logos'),
  },
  ['color', 'alternateColor', 'logos'],
);

export function teamFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('team', league, extract('team', league, TEAM, single(obj(raw).team), layout));
}

const PLAYER_INFO = withExtra(
  byPath([
    'id',
    'uid',
    'guid',
    'firstName',
    'lastName',
    'fullName',
    'displayName',
    'shortName',
    'displayWeight',
    'displayHeight',
    'dateOfBirth',
    'slug',
    'jersey',
    'links',
    'injuries',
    'alternateIds.sdr',
    'birthPlace.city',
    'birthPlace.state',
    'birthPlace.country',
    'headshot.href',
    'headshot.alt',
    'position.id',
    'position.name',
    'position.displayName',
    'position.abbreviation',
    'status.id',
    'status.name',
    'status.type',
    'status.abbreviation',
    'hand.type',
    'hand.abbreviation',
    'hand.displayValue',
    'team.id',
    'weight',
    'height',
    'debutYear',
    'age',
    'experience.years',
    'position.leaf',
    'active',
  ]),
);

/** The athlete: the payload's `athlete` object, or the payload itself when it is one (has `id`). */
function athleteOf(raw: unknown): unknown[] {
  const athlete = obj(raw).athlete;
  if (isObject(athlete) && Object.keys(athlete).length) return [athlete];
  return isObject(raw) && raw.id !== undefined ? [raw] : [];
}

export function playerInfoFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame(
    'player_info',
    league,
    extract('player_info', league, PLAYER_INFO, athleteOf(raw), layout),
  );
}

const PLAYER_BIO = withExtra(byPath(['athlete.id', 'athlete.displayName', 'teamHistory', 'awards']));

/** The bio: one row when the payload holds any of its parts (the athlete, team history, awards). */
function bioOf(raw: unknown): unknown[] {
  const bio = obj(raw);
  return isObject(bio.athlete) || Array.isArray(bio.teamHistory) || Array.isArray(bio.awards) ? [bio] : [];
}

export function playerBioFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('player_bio', league, extract('player_bio', league, PLAYER_BIO, bioOf(raw), layout));
}

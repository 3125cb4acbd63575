import type { League } from '../core/leagues.js';
import { arr, isObject, obj, toColour } from './cells.js';
import { at, extract, type Extractors, type Getter } from './extract.js';
import { extraOutside } from './extra.js';
import { fixedFrame } from './fixed.js';
import type { Frame, Layout } from './frame.js';

/**
 * The college polls (`<league>_rankings`): ESPN's document lists every poll of the week (AP Top
 * 25, coaches'), each with its ranked teams. One row per ranked team of each poll: the poll's
 * fields beside the team's rank, points and votes. `others` (receiving votes) and `droppedOut`
 * are not ranks and stay out of the rows; a rank entry's keys beyond the columns go to `extra`.
 */

interface RankItem {
  readonly poll: Record<string, unknown>;
  readonly rank: Record<string, unknown>;
}

const ofPoll =
  (path: string): Getter =>
  (item) =>
    at(path)((item as unknown as RankItem).poll);
const ofRank =
  (path: string): Getter =>
  (item) =>
    at(path)((item as unknown as RankItem).rank);
/** A field of the rank entry, or the poll's when the entry has none (`date`, `lastUpdated`). */
const ofRankOrPoll =
  (path: string): Getter =>
  (item) =>
    ofRank(path)(item) ?? ofPoll(path)(item);

// What the rank entry's columns read; everything else in the entry goes to `extra`.
const RANK_PATHS: Readonly<Record<string, string>> = {
  current: 'current',
  previous: 'previous',
  points: 'points',
  first_place_votes: 'firstPlaceVotes',
  trend: 'trend',
  record_summary: 'recordSummary',
  team_id: 'team.id',
  team_uid: 'team.uid',
  team_location: 'team.location',
  team_name: 'team.name',
  team_nickname: 'team.nickname',
  team_abbreviation: 'team.abbreviation',
  team_logo: 'team.logo',
};
const rankExtra = extraOutside([...Object.values(RANK_PATHS), 'team.color', 'date', 'lastUpdated']);

const RANKINGS: Extractors = {
  id: ofPoll('id'),
  name: ofPoll('name'),
  short_name: ofPoll('shortName'),
  type: ofPoll('type'),
  headline: ofPoll('headline'),
  short_headline: ofPoll('shortHeadline'),
  date: ofRankOrPoll('date'),
  last_updated: ofRankOrPoll('lastUpdated'),
  occurrence_number: ofPoll('occurrence.number'),
  occurrence_type: ofPoll('occurrence.type'),
  occurrence_last: ofPoll('occurrence.last'),
  occurrence_value: ofPoll('occurrence.value'),
  occurrence_display_value: ofPoll('occurrence.displayValue'),
  ...Object.fromEntries(Object.entries(RANK_PATHS).map(([name, path]) => [name, ofRank(path)])),
  team_color: (item) => toColour(ofRank('team.color')(item)),
  extra: (item) => rankExtra((item as unknown as RankItem).rank),
};

/** Every ranked team of every poll, poll by poll in the payload's order. */
function rankItems(raw: unknown): RankItem[] {
  const out: RankItem[] = [];
  for (const poll of arr(obj(raw).rankings)) {
    if (!isObject(poll)) continue;
    for (const rank of arr(poll.ranks)) if (isObject(rank)) out.push({ poll, rank });
  }
  return out;
}

export function rankingsFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('rankings', league, extract('rankings', league, RANKINGS, rankItems(raw), layout));
}

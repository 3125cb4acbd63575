import { DEFAULT_LEAGUES } from '../core/leagues.js';
import { OPERATIONS, SUFFIXES } from './operations.js';

/**
 * The "College leagues" section of `docs/operations.md`: which of the professional suffixes
 * ESPN serves for men's and women's college basketball, and the evidence for each decision.
 * Kept beside the registry so that the two are edited together.
 */

/** Why each suffix is offered for the college leagues, or why not. */
const EVIDENCE: Readonly<Record<string, string>> = {
  scoreboard:
    "offered. A recorded payload (a college scoreboard of 2024-12-01) and sportsdataverse's `mbb`/`wbb` `getScoreboard`. Without `groups` ESPN lists only featured games; `groups=50` is Division I, and the live engine always asks for it with `limit=500`.",
  summary:
    "offered. Recorded payloads of both college leagues (men: 3 games, women: 2); sportsdataverse's `mbb` and `wbb` services call `/summary`.",
  calendar:
    'offered. The college scoreboard carries `leagues[0].calendar` (131 days in the recording), which answers the call when `/calendar` answers nothing, as for the professional leagues.',
  news: 'offered. Public college clients read `/news`; the same news payload as the professional leagues.',
  injuries:
    'offered. Public clients call the college `/injuries`; ESPN publishes few college injuries, so it usually answers an empty list (read as zero rows).',
  conferences:
    'offered. `/groups` lists Division I and its conferences (public college clients map conference ids to names with it); sportsdataverse also reads `/scoreboard/conferences`.',
  teams_site:
    "offered. sportsdataverse's `getTeamList` and public clients call `/teams?limit=…`; ESPN answers 50 teams by default, so the college operations send `limit=500` unless the call gives one (Division I has ~360 teams).",
  team: "offered. sportsdataverse's `getTeamInfo` (`/teams/{id}`).",
  team_roster:
    "offered. sportsdataverse's `getTeamPlayers` reads the roster of `/teams/{id}`; public clients call `/teams/{id}/roster`.",
  team_schedule: 'offered. Public college clients call `/teams/{id}/schedule` (with `season`).',
  team_news: 'offered. Public college clients call `/teams/{id}/news?limit=…`.',
  standings:
    "offered. sportsdataverse's `getStandings` calls `/apis/v2/…/standings` for both college leagues (with `group`, e.g. 50 or a conference id).",
  rankings:
    "college only. `/rankings` answers the week's AP Top 25 and coaches' poll; sportsdataverse's code generator scopes it to the NCAA leagues, and public clients read it for both college leagues.",
  transactions:
    'not offered: college teams make no transactions; no public client or payload shows the path.',
  statistics_league: 'not offered: no public college client or payload shows the site `/statistics` path.',
  draft: 'not offered: there is no college draft.',
  team_record: 'not offered: the record is in the team and schedule payloads; no client shows the path.',
  team_depthcharts: 'not offered: college teams publish no depth charts on ESPN.',
  team_injuries: 'not offered: no public college client shows the path (the league-wide list is offered).',
  team_transactions: 'not offered: as `transactions`.',
  team_history: 'not offered: no public college client or payload shows the path.',
  team_leaders: 'not offered: no public college client or payload shows the path.',
  player_info:
    'not offered: public college clients read athletes from the core or `common/v3` APIs, not the site path, which answers 404 for the NBA since 2026-09.',
  player_bio: 'not offered: as `player_info`.',
  player_news: 'not offered: as `player_info`.',
};

export function collegeSection(): string[] {
  const out = [
    '## College leagues',
    '',
    "The college leagues (`mens-college`: ESPN's `mens-college-basketball`, uid `s:40~l:41`; " +
      '`womens-college`: `womens-college-basketball`, `s:40~l:54`) are named `mens_college_<suffix>` and ' +
      '`womens_college_<suffix>`. ESPN serves the same site API for them, but not every endpoint of the ' +
      "professional leagues: the decision for each suffix, from ESPN's own recorded college payloads " +
      "(the project's test fixtures), sportsdataverse's `mbb` and `wbb` services (a dev dependency) and " +
      'public clients that call these paths. A suffix the league lacks is refused with ' +
      '`UNKNOWN_OPERATION`, naming the operations that exist: `unknown operation "mens_college_draft"; ' +
      'ESPN does not serve it for this league, only as mens_draft, womens_draft`.',
    '',
    '| Suffix | College |',
    '|---|---|',
  ];
  for (const s of SUFFIXES) {
    out.push(`| \`${s.suffix}\` | ${EVIDENCE[s.suffix] ?? 'not offered.'} |`);
  }
  const college = [...OPERATIONS.values()].filter((op) => !DEFAULT_LEAGUES.includes(op.league)).length;
  out.push('', `${college} college operations in all, the same suffixes in both leagues.`);
  return out;
}

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { League } from '../core/leagues.js';
import type { OperationTableName } from './schema-operations.js';
import {
  EXTRA_COLUMN,
  SCHEMA,
  SUMMARY_TABLES,
  tableColumns,
  type ColumnGroup,
  type TableName,
} from './schema.js';

/** The recorded payloads the doc names: `<league>/<file>` per operation suffix, in name order. */
export type Recordings = Readonly<Record<string, readonly string[]>>;

/** The named tables: their columns are those of the R and Python ESPN packages. */
const FIXED: readonly { title: string; table: TableName; used: string }[] = [
  { title: 'Scoreboard', table: 'scoreboard', used: '`*_scoreboard`, one row per event' },
  ...Object.entries(SUMMARY_TABLES).map(([name, table]) => ({
    title: `Summary: ${name}`,
    table,
    used: `\`*_summary\` (\`table: '${name}'\`)`,
  })),
  { title: 'News', table: 'news', used: '`*_news`, `*_team_news`, `mens_player_news`; one row per article' },
  { title: 'Injuries', table: 'injuries', used: '`*_injuries`, `*_team_injuries`; one row per athlete' },
  { title: 'Team list', table: 'teams', used: '`*_teams_site`; one row per team' },
  { title: "Roster (men's league)", table: 'roster_mens', used: '`mens_team_roster`; one row per athlete' },
  {
    title: "Roster (women's league)",
    table: 'roster_womens',
    used: '`womens_team_roster`; one row per athlete',
  },
  { title: 'Team schedule', table: 'schedule', used: '`*_team_schedule`; one row per event' },
  { title: 'Standings', table: 'standings', used: '`mens_standings`; one row per team entry' },
];

interface OperationDoc {
  readonly title: string;
  readonly table: OperationTableName;
  readonly used: string;
  /** Which list of the payload the rows are. */
  readonly rows: string;
  /** Suffixes whose recordings check this table, with how (the operation's own recordings first). */
  readonly checkedBy: readonly { suffix: string; how?: string }[];
  /** The leagues that have the operation, when not both professional ones (or the men's alone). */
  readonly leagues?: readonly League[];
}

const OPERATIONS_DOC: readonly OperationDoc[] = [
  {
    title: 'Calendar',
    table: 'calendar',
    used: '`*_calendar`',
    rows: "one row per date of a date list (the payload itself, `calendar`, `leagues[0].calendar`, `eventDate.dates` or `dates`, the first that holds date strings), with `season_label` and `season_type` from the section (`sections` or `items`) whose `startDate`…`endDate` holds the date; without a date list, one row per entry of each section, or one per section that has no `entries` (`label`, `detail`, `value`, `start_date`, `end_date` are the entry's)",
    checkedBy: [
      { suffix: 'calendar' },
      { suffix: 'scoreboard', how: 'the date list `leagues[0].calendar` of every recorded scoreboard' },
    ],
  },
  {
    title: 'Transactions',
    table: 'transactions',
    used: '`*_transactions`',
    rows: 'one row per item of `transactions`; its `team` object as the `team_*` columns',
    checkedBy: [{ suffix: 'transactions' }],
  },
  {
    title: 'Team transactions',
    table: 'team_transactions',
    used: '`*_team_transactions`',
    rows: 'as the league transactions',
    checkedBy: [
      { suffix: 'team_transactions' },
      { suffix: 'transactions', how: 'the league transactions, whose items have the same shape' },
    ],
  },
  {
    title: 'Groups (conferences)',
    table: 'conferences',
    used: '`*_conferences`',
    rows: 'one row per item of `groups` (a conference); its `children` (divisions, with their teams) stay one JSON list',
    checkedBy: [{ suffix: 'conferences' }],
  },
  {
    title: 'League statistics',
    table: 'statistics_league',
    used: '`*_statistics_league`',
    rows: 'one row per stat category: `stats.categories`, `categories` or `leaders.categories`, the first present; its `leaders` stay one JSON list',
    checkedBy: [{ suffix: 'statistics_league' }],
  },
  {
    title: 'Draft',
    table: 'draft',
    used: '`*_draft`',
    rows: 'one row per item of `picks`',
    checkedBy: [{ suffix: 'draft' }],
  },
  {
    title: 'Team',
    table: 'team',
    used: '`*_team`',
    rows: 'one row: the `team` object (none when the payload has none)',
    checkedBy: [{ suffix: 'team' }],
  },
  {
    title: 'Team record',
    table: 'team_record',
    used: '`*_team_record`',
    rows: "one row per split in `items` (or `team.record.items`, `record.items`); `wins` and `losses` read the split's stats of those names",
    checkedBy: [
      { suffix: 'team_record' },
      { suffix: 'team', how: 'the `team.record.items` of the recorded team entity, the same splits' },
    ],
  },
  {
    title: 'Depth charts',
    table: 'team_depthcharts',
    used: '`*_team_depthcharts`',
    rows: 'one row per athlete per position per chart (`depthchart[].positions.<key>.athletes[]`), with the chart, the position key and `depth` (1 = first)',
    checkedBy: [{ suffix: 'team_depthcharts' }],
  },
  {
    title: 'Team history',
    table: 'team_history',
    used: '`*_team_history`',
    rows: 'one row per season: `items`, `seasons` or `history`, the first present',
    checkedBy: [{ suffix: 'team_history' }],
  },
  {
    title: 'Team leaders',
    table: 'team_leaders',
    used: '`*_team_leaders`',
    rows: 'one row per stat category, as the league statistics',
    checkedBy: [{ suffix: 'team_leaders' }],
  },
  {
    title: 'Athlete',
    table: 'player_info',
    used: '`mens_player_info`',
    rows: 'one row: the `athlete` object, or the payload itself when it is an athlete (has `id`)',
    checkedBy: [
      {
        suffix: 'player_info',
        how: "ESPN's core API athlete, as no site payload is recorded: the fields the two share",
      },
    ],
  },
  {
    title: 'Athlete bio',
    table: 'player_bio',
    used: '`mens_player_bio`',
    rows: 'one row: the payload (`athlete`, `teamHistory`, `awards`)',
    checkedBy: [{ suffix: 'player_bio' }],
  },
  {
    title: 'College polls',
    table: 'rankings',
    used: '`mens_college_rankings`, `womens_college_rankings`',
    rows: "one row per ranked team of each poll in `rankings` (AP Top 25, coaches'), the poll's fields on each; `others` and `droppedOut` are not ranks and give no rows",
    checkedBy: [{ suffix: 'rankings' }],
    leagues: ['mens-college', 'womens-college'],
  },
];

const LEAGUE_NAME: Readonly<Record<League, string>> = {
  mens: "Men's",
  womens: "Women's",
  'mens-college': "Men's college",
  'womens-college': "Women's college",
};

/** Where the table was checked against recordings, league by league. */
function checkedLine(doc: OperationDoc, recordings: Recordings): string {
  const leagues: readonly League[] =
    doc.leagues ?? (doc.used.startsWith('`mens_') ? ['mens'] : ['mens', 'womens']);
  const parts = leagues.map((league) => {
    const found: string[] = [];
    for (const { suffix, how } of doc.checkedBy) {
      const files = (recordings[suffix] ?? []).filter((f) => f.startsWith(`${league}/`));
      if (!files.length) continue;
      const names = files.map((f) => `\`${f}\``).join(', ');
      found.push(how ? `${names} (${how})` : names);
    }
    const name = LEAGUE_NAME[league];
    return found.length
      ? `${name} league: checked against ${found.join('; ')}`
      : `${name} league: **not yet checked against a recording**; declared from the fields the simulator's payload and ESPN's documented shape share`;
  });
  return `${parts.join('. ')}.`;
}

function leagueNote(group: ColumnGroup): string {
  if (group.only === 'mens') return "men's league only";
  if (group.only === 'womens') return "women's league only";
  if (group.only === 'optional')
    return 'college boards: the optional columns are present, together, when some game has a rank, conference or tournament';
  return '';
}

function fixedSection(title: string, table: TableName, used: string): string {
  const lines = [
    `### ${title}`,
    '',
    `Used by ${used}.`,
    '',
    '| # | Column | Type | Note |',
    '|---|---|---|---|',
  ];
  let i = 0;
  for (const group of SCHEMA[table] as readonly ColumnGroup[]) {
    const note = leagueNote(group);
    for (const name of group.names) lines.push(`| ${++i} | \`${name}\` | ${group.type} | ${note} |`);
  }
  const mens = tableColumns(table, 'mens').length;
  const womens = tableColumns(table, 'womens').length;
  const optional = tableColumns(table, 'mens').filter((c) => c.optional).length;
  const extra = optional ? ` (${optional} of them optional)` : '';
  lines.push(
    '',
    mens === womens
      ? `${mens} columns${extra}.`
      : `${mens} columns in the men's league, ${womens} in the women's.`,
  );
  return lines.join('\n');
}

function operationSection(doc: OperationDoc, recordings: Recordings): string {
  return [
    fixedSection(doc.title, doc.table, `${doc.used}; ${doc.rows}`),
    '',
    checkedLine(doc, recordings),
  ].join('\n');
}

/** docs/tables.md, generated from the schema (and the list of recorded payloads that checked it). */
export function renderTablesDoc(recordings: Recordings): string {
  const parts = [
    '# Tables',
    '',
    '<!-- Generated by `npm run docs:tables` from src/tables/schema.ts; do not edit by hand. -->',
    '',
    "Every operation's default result is its tabular form: the columns below, in this order, with these types. `parseOperation(operation, raw, options)` gives it for a payload already held; the client, HTTP API and CLI use it.",
    '',
    '## Flavours',
    '',
    '- Default: an Apache Arrow `Table`. character → `Utf8`, integer → `Int32`, double → `Float64`, logical → `Bool`; every field nullable.',
    "- `flavour: 'rows'` (or the alias `return_as_pandas: true`): an array of plain objects with the same columns, in the same order.",
    '- The summary operations give a record of their 14 tables (`boxscore_player`, `boxscore_team`, `plays`, `winprobability`, `leaders`, `game_info`, `officials`, `header`, `season_series`, `standings`, `format`, `article`, `injuries`, `news`), or one table with `table: <name>`.',
    '- `tableToIpc(table)` writes the Arrow IPC stream format; `toCsv(rows, columns)` writes RFC 4180 CSV (CRLF line ends, null → empty field).',
    '',
    '## Rules',
    '',
    '- **Column order.** Columns are declared in groups by type and come group by group, each group in its declared order, whatever the key order of the payload. League-only columns sit inside their group.',
    "- **League differences.** `game_info.venue_short_name` (men's only); `header.game_note` and `season_series.round` (women's only); summary `news` has `byline` in both leagues and four extra link columns in the women's; the news operations give men's rows `byline` and women's rows the four extra link columns instead; the roster has one column list per league. A column of the league's list that the payload lacks is null (e.g. `round` appears in no recorded season series).",
    "- **Optional columns.** The scoreboard's `home_rank` and `away_rank` (character, after `<side>_score`) exist only when some team on that scoreboard is ranked (`curatedRank.current` between 1 and 98; ESPN uses 99 for unranked); then both exist, null for unranked sides. `columnsFor` lists the columns without them.",
    '- **Types.** Integer columns hold integers (`"12"` → 12; a value that is not an integer in the Int32 range → null), double columns parse text (`"44.4"`, `".683"`), logical columns hold booleans (`"true"`/`"false"` read too). A missing value is null; an empty string is read as missing, so no cell holds `""` or `"undefined"`.',
    "- **Special columns.** `status_clock` is the game clock in seconds (a number, or `m:ss` text converted). `season_year` is an integer; a `YYYY-YY` label is read as the year the season ends, as ESPN numbers seasons (`2024-25` → 2025). Colours are hex without `#`. Scoreboard `broadcast` is upstream's joined `broadcast` text, else the broadcasts' names joined with `/`; `note` is the first note's headline.",
    '- **Lists.** Two encodings, each for one kind of list, the same in every table. A list of logo images is its URLs joined with `|`, in every logo column (`team_logos`, `league_logos`, `college_logos`, `logos`): `team_logos` has always been sent so and analysts\' code splits it, ESPN\'s logo URLs never hold `|`, and a plotting or join step needs only the URLs (`split("|")`). Every other list, and every object, is JSON text (`images`, `categories`, `links`, `injuries`, `participants`, `extra`, ...): its items are objects, and JSON keeps them whole and is read back by `JSON.parse`, polars `str.json_decode` or duckdb `json`.',
    '- **Usable values.** A numeric stat column reads the stat\'s `value`; when upstream sends none (it now sends only `displayValue` for summary leaders and team box score stats), it reads the number `displayValue` shows, strictly: a plain decimal number (`"32"` → 32, `"50.6"` → 50.6, `".683"` → 0.683), anything else null (`"45-89"`, `"W2"`, `"-"`), the text staying in the display column. This holds for `leaders.value`, `boxscore_team.stat_value` (text, the type it has always had: `"37.5"`), the standings\' double columns and the team record\'s `wins` and `losses`. `leaders.main_stat` is upstream\'s `mainStat` as JSON, or, when upstream sends none, the same object rebuilt from the leader: `{"value":<displayValue>,"label":<abbreviation of its first statistic>}` (on the recorded summary that has both, the rebuilt object equals upstream\'s for every leader). `leaders.summary` (`"11/16 FG, 3/6 FT"`) stays null when upstream sends none: its labels are not the statistics\' abbreviations (`DREB` against `DR`), so it cannot be rebuilt faithfully. Shot coordinates (`coordinate_x`, `coordinate_y`) are null for ESPN\'s no-location sentinels (-214748340, -214748365 and the like: any value at or beyond ±10,000, far outside a 50 by 94 foot court).',
    "- **Stable schemas.** A table's columns and types depend only on the operation and the league, never on the payload: keys missing or null give null cells, keys beyond the declared columns go to `extra` (operation tables) or are left out (the named tables). The one exception: the scoreboard's optional college columns (`<side>_rank`, `<side>_conference_id`, `tournament_id`), present together only when some game on the board has one of them (a professional board never does). Two days of one operation concatenate in polars or duckdb as they are.",
    '- **Summary parts.** Plays keep the payload order (upstream does not sort them by `sequenceNumber`). `boxscore_player` has one row per athlete per team; its stat columns are the block\'s `keys` snake_cased, as text (`"5-8"`), null for did-not-play athletes. Summary `standings` stats are display values (`"W2"`, `".683"`). The single-row tables (`game_info`, `header`, `format`, `article`) have no row when the part is missing.',
    "- **Injuries.** One row per athlete: entries are grouped by athlete; `id` is `athlete.id`, or the id in the athlete's player-card link when the entry has none (the recorded league injuries have none); `injuries` is the JSON list of that athlete's entries.",
    '- **Standings.** One row per team entry at any depth of `children`; the double columns read each stat\'s `value` (or the number its `displayValue` shows) by snake_cased name; `overall`, `home`, `road`, `vs. div.`, `vs. conf.`, `last ten games` read the record summary (`"47-35"`).',
    '- **Wrong shapes.** No parser throws on a payload: a missing or wrongly shaped part gives its table with the right columns and no rows.',
    '',
    '## Named tables',
    '',
    ...FIXED.flatMap((f) => [fixedSection(f.title, f.table, f.used), '']),
    '## Operation tables',
    '',
    `The operations with no fixed table of their own have declared tables too (\`src/tables/schema-operations.ts\`): fixed names, order and types per operation, whatever the payload holds. Each ends with \`${EXTRA_COLUMN}\`: the JSON object of the item's keys beyond the declared columns (keys with a null value left out), null when there are none, so a payload with new keys keeps them without changing the table. A declared key the payload lacks is null. The payload's envelope (\`timestamp\`, \`status\`, \`season\`, paging) is not repeated in the rows. Columns were chosen from the recorded payloads; where an operation has no recording, from the fields the simulator's payload and ESPN's documented shape share, as each table says. Each has one column list for both leagues: the two leagues' recorded payloads differ only by keys one of them lacks (the women's draft picks have no \`displayWeight\`, the women's team no \`franchise\`), which are null there.`,
    '',
    ...OPERATIONS_DOC.flatMap((d) => [operationSection(d, recordings), '']),
  ];
  return parts.join('\n');
}

/** The recorded payloads under `dir` (`<league>/<suffix>[__q].json`), by suffix, in name order. */
export function collectRecordings(dir: string): Recordings {
  const out: Record<string, string[]> = {};
  for (const league of ['mens', 'womens']) {
    const folder = join(dir, league);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).sort()) {
      if (!name.endsWith('.json')) continue;
      const suffix = name.slice(0, -'.json'.length).split('__')[0] as string;
      (out[suffix] ??= []).push(`${league}/${name}`);
    }
  }
  return out;
}

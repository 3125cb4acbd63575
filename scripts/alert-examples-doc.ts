import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { createEspnClient } from '../src/espn-client/client.js';
import { silentLogger } from '../src/core/log.js';
import { LEAGUE_INFO, type League } from '../src/core/leagues.js';
import type { GameEvent } from '../src/model/events.js';
import { startUpstream } from '../src/simulator/index.js';
import { createEngine } from '../streams/engine.js';
import { evaluate } from '../workers/alerts/rules.js';
import type { Alert } from '../workers/alerts/types.js';
import { renderAlertExample } from '../workers/destinations/examples-doc.js';
import { RULE_NAMES, parseAlertsConfig } from '../workers/rules-file.js';
import { finishedSummaries } from '../test/support/fixtures.js';

/**
 * Regenerates the examples in docs/alerts.md ("Messages in each destination"): every finished
 * recorded game is replayed through the simulator and the engine, its events through the rules,
 * and the first alert of each rule in each league is rendered for every destination. Needs the
 * recorded payloads (the folder the tests read, COURTSIDE_FIXTURES). The settings reach earlier in the game than the
 * defaults, so that each recorded game has an example of each rule; docs/alerts.md says so.
 */
const EXAMPLE_RULES = {
  final_score: {},
  lead_change: { fromPeriod: 1 },
  close_game: { fromPeriod: 1 },
  run: { points: 8 },
  player_points: { thresholds: [20] },
  upset_watch: { probability: 0.6, fromPeriod: 1 },
  upset: {},
};
const RULES = parseAlertsConfig({ rules: EXAMPLE_RULES }).rules;
const SPEED = 2_000;
const START = '<!-- alert-examples:start -->';
const END = '<!-- alert-examples:end -->';

async function replay(
  file: string,
  league: League,
): Promise<{ events: GameEvent[]; colors: Alert['colors'] }> {
  const upstream = await startUpstream({ replay: [file], speed: SPEED, logger: silentLogger });
  const client = createEspnClient({ upstream: upstream.url, logger: silentLogger });
  const engine = createEngine({
    client,
    leagues: [league],
    intervals: { summaryMs: 250, scoreboardLiveMs: 500 },
    allowFastIntervals: true,
    logger: silentLogger,
  });
  const events: GameEvent[] = [];
  const ended = new Promise<void>((resolve) =>
    engine.events$.subscribe((event) => {
      events.push(event);
      if (event.type === 'game.ended') resolve();
    }),
  );
  engine.start();
  await ended;
  const last = events.at(-1)!;
  const snapshot = await engine.snapshots.snapshot(league, last.gameId);
  await engine.close();
  await client.close();
  await upstream.close();
  return {
    events,
    colors: { home: snapshot?.teams.home.color ?? null, away: snapshot?.teams.away.color ?? null },
  };
}

/** The examples section of docs/alerts.md (between the markers), as markdown. */
export async function alertExamplesSection(): Promise<string> {
  const sections: string[] = [];
  const games = finishedSummaries().filter((f) => !f.qualifier.includes('roundtrip'));
  const firsts = new Map<string, Array<{ alert: Alert; label: string }>>();
  for (const game of games) {
    const { events, colors } = await replay(game.file, game.league);
    let state;
    const teams = events[0]!.teams;
    const label = `${LEAGUE_INFO[game.league].label}, ${teams.away.abbreviation} at ${teams.home.abbreviation} (${events[0]!.gameId})`;
    const seen = new Set<string>();
    for (const event of events) {
      const result = evaluate(state, event, RULES);
      state = result.state;
      for (const alert of result.alerts) {
        if (seen.has(alert.rule)) continue;
        seen.add(alert.rule);
        const list = firsts.get(alert.rule) ?? [];
        list.push({ alert: { ...alert, colors }, label });
        firsts.set(alert.rule, list);
      }
    }
  }
  for (const rule of RULE_NAMES) {
    const examples = firsts.get(rule) ?? [];
    sections.push(`#### \`${rule}\``);
    if (examples.length === 0) sections.push('No recorded game triggers this rule.');
    for (const { alert, label } of examples) sections.push(`${label}:`, renderAlertExample(alert));
  }
  return sections.join('\n\n');
}

/** The section as it stands in a docs/alerts.md text. */
export function currentSection(doc: string): string {
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/alerts.md has no ${START} ... ${END} section`);
  return doc.slice(from + START.length, to).trim();
}

async function main(): Promise<void> {
  const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'alerts.md');
  const doc = readFileSync(target, 'utf8');
  currentSection(doc);
  const from = doc.indexOf(START) + START.length;
  const next = `${doc.slice(0, from)}\n\n${await alertExamplesSection()}\n\n${doc.slice(doc.indexOf(END))}`;
  const config = (await resolveConfig(target)) ?? {};
  writeFileSync(target, await format(next, { ...config, filepath: target }));
  console.log(`wrote ${target}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

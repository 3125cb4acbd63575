import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { createEspnClient } from '../espn-client/client.js';
import { InvalidOptionsError } from '../core/errors.js';
import { DEFAULT_LEAGUES, LEAGUES, isLeague, type League } from '../core/leagues.js';
import { OPERATIONS, type OperationSpec } from '../espn/operations.js';
import type { Params } from '../espn/params.js';
import { EXIT_FAILURE, say } from './fail.js';
import { createProgress } from './progress.js';
import { recordPushCommand } from './record-push.js';

/**
 * `courtside record`: records real payloads of every operation from the upstream into a folder
 * laid out as the simulator serves it (`<league>/<suffix>[__<qualifier>].json`). Ids that path
 * parameters need (event, team, athlete) are taken from the payloads recorded before them.
 */
interface Caller {
  call(operation: string, params?: Params, options?: { returnParsed?: boolean }): Promise<unknown>;
}

export interface RecordResult {
  files: string[];
  failures: Array<{ operation: string; message: string }>;
}

interface Planned {
  op: OperationSpec;
  params: Params;
  qualifier: string;
}

export async function recordAll(options: {
  client: Caller;
  out: string;
  leagues: readonly League[];
  /** How many games of today's scoreboard to record summaries of. */
  games?: number;
  onStep?: (label: string) => void;
  total?: (count: number) => void;
}): Promise<RecordResult> {
  const files: string[] = [];
  const failures: RecordResult['failures'] = [];
  const save = async (plan: Planned, body: unknown): Promise<void> => {
    const dir = join(options.out, plan.op.league);
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${plan.op.suffix}${plan.qualifier ? `__${plan.qualifier}` : ''}.json`);
    await writeFile(file, JSON.stringify(body));
    files.push(file);
  };
  const fetchOne = async (plan: Planned): Promise<unknown> => {
    options.onStep?.(`${plan.op.name}${plan.qualifier ? ` ${plan.qualifier}` : ''}`);
    try {
      const body = await options.client.call(plan.op.name, plan.params, { returnParsed: false });
      await save(plan, body);
      return body;
    } catch (err) {
      failures.push({ operation: plan.op.name, message: (err as Error).message });
      return undefined;
    }
  };

  const games = options.games ?? 3;
  const plan = (league: League) => {
    const ops = [...OPERATIONS.values()].filter((op) => op.league === league);
    return {
      ops,
      noParams: ops.filter((o) => o.pathParams.length === 0 && o.suffix !== 'summary'),
      perTeam: ops.filter((o) => o.pathParams.includes('team_id')),
      perAthlete: ops.filter((o) => o.pathParams.includes('athlete_id')),
    };
  };
  // One bar for the whole run: parameterless ops, summaries, per-team ops, per-athlete ops of every league.
  options.total?.(
    options.leagues
      .map(plan)
      .reduce((n, p) => n + p.noParams.length + games + p.perTeam.length + p.perAthlete.length, 0),
  );

  for (const league of options.leagues) {
    const { ops, noParams, perTeam, perAthlete } = plan(league);
    const op = (suffix: string): OperationSpec | undefined => ops.find((o) => o.suffix === suffix);

    const bodies = new Map<string, unknown>();
    for (const o of noParams) bodies.set(o.suffix, await fetchOne({ op: o, params: {}, qualifier: '' }));

    const summary = op('summary');
    const eventIds = idsAt(
      bodies.get('scoreboard'),
      (b) => (b as { events?: Array<{ id?: unknown }> }).events,
    );
    for (const id of eventIds.slice(0, games)) {
      if (summary) await fetchOne({ op: summary, params: { event_id: id }, qualifier: id });
    }

    const teamIds = idsAt(bodies.get('teams_site'), (b) =>
      (
        b as { sports?: Array<{ leagues?: Array<{ teams?: Array<{ team?: { id?: unknown } }> }> }> }
      ).sports?.[0]?.leagues?.[0]?.teams?.map((t) => t.team),
    );
    const teamId = teamIds[0];
    let roster: unknown;
    if (teamId) {
      for (const o of perTeam) {
        const body = await fetchOne({ op: o, params: { team_id: teamId }, qualifier: teamId });
        if (o.suffix === 'team_roster') roster = body;
      }
    }
    const athleteIds = idsAt(roster, (b) => (b as { athletes?: Array<{ id?: unknown }> }).athletes);
    const athleteId = athleteIds[0];
    if (athleteId) {
      for (const o of perAthlete)
        await fetchOne({ op: o, params: { athlete_id: athleteId }, qualifier: athleteId });
    }
  }
  return { files, failures };
}

function idsAt(
  body: unknown,
  pick: (body: object) => Array<{ id?: unknown } | undefined> | undefined,
): string[] {
  if (!body || typeof body !== 'object') return [];
  try {
    return (pick(body) ?? [])
      .map((item) => item?.id)
      .filter((id): id is string | number => typeof id === 'string' || typeof id === 'number')
      .map(String)
      .filter((id) => /^[A-Za-z0-9-]{1,64}$/.test(id));
  } catch {
    return [];
  }
}

interface RecordFlags {
  out: string;
  upstream?: string;
  leagues: string;
  games: string;
  push?: boolean;
  game?: string;
  seconds?: string;
  fastcastUrl?: string;
}

export function registerRecord(program: Command): void {
  program
    .command('record')
    .description(
      "record real payloads of every operation into a folder the simulator can serve, or (--push) one game's FastCast frames into a capture file",
    )
    .requiredOption(
      '--out <path>',
      'where to write: a folder of <league>/<operation>[__<qualifier>].json, or with --push a capture file',
    )
    .option('--upstream <url>', 'the upstream to record from', process.env.COURTSIDE_UPSTREAM)
    .option(
      '--leagues <list>',
      'comma-separated leagues (with --push: where to look the game up)',
      DEFAULT_LEAGUES.join(','),
    )
    .option('--games <n>', "summaries to record from today's scoreboard", '3')
    .option('--push', "record one game's FastCast topic as received, for a bug report (needs --game)")
    .option('--game <id>', 'with --push: the ESPN event id of the game')
    .option(
      '--seconds <n>',
      'with --push: stop after this many seconds (default: when the game ends, or Ctrl-C)',
    )
    .option(
      '--fastcast-url <url>',
      "with --push: FastCast's discovery URL (default COURTSIDE_FASTCAST_URL or ESPN's)",
    )
    .addHelpText(
      'after',
      `
Examples:
  courtside record --out fixtures-recorded
  courtside record --out /tmp/wnba --leagues womens --games 5
  courtside upstream --fixtures fixtures-recorded     # serve what was recorded
  courtside record --push --game 401585607 --out game.fastcast.jsonl   # until the game ends
  courtside upstream --push-replay game.fastcast.jsonl                  # replay it (docs/upstream.md)`,
    )
    .action(async (opts: RecordFlags) => {
      const leagues = opts.leagues.split(',').map((l) => l.trim());
      const bad = leagues.find((l) => !isLeague(l));
      if (bad !== undefined) {
        throw new InvalidOptionsError(
          `--leagues: unknown league "${bad}"; expected a comma-separated list of ${LEAGUES.join(', ')}`,
        );
      }
      if (opts.push) {
        await recordPushCommand(opts, leagues as League[]);
        return;
      }
      for (const flag of ['game', 'seconds', 'fastcastUrl'] as const) {
        if (opts[flag] !== undefined)
          throw new InvalidOptionsError(
            `--${flag === 'fastcastUrl' ? 'fastcast-url' : flag}: only with --push`,
          );
      }
      const games = Number(opts.games);
      if (!Number.isInteger(games) || games < 0 || games > 100) {
        throw new InvalidOptionsError('--games: expected an integer from 0 to 100');
      }
      const client = createEspnClient(opts.upstream ? { upstream: opts.upstream } : {});
      let progress = createProgress(0);
      try {
        const result = await recordAll({
          client,
          out: opts.out,
          leagues: leagues as League[],
          games,
          total: (n) => (progress = createProgress(n)),
          onStep: (label) => progress.tick(label),
        });
        progress.done();
        process.stdout.write(`recorded ${result.files.length} payloads into ${opts.out}\n`);
        const [first] = result.failures;
        if (result.files.length === 0 && first) {
          // Every request failing has one cause (a dead or wrong upstream): one line, not one per operation.
          say(
            'record',
            `nothing recorded: all ${result.failures.length} requests failed, the first with ${first.operation}: ${first.message}`,
          );
        } else {
          for (const f of result.failures) say('record', `${f.operation}: ${f.message}`);
        }
        if (result.files.length === 0) process.exitCode = EXIT_FAILURE;
      } finally {
        await client.close();
      }
    });
}

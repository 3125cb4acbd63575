import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAlertsConfig, loadRuleSettings, parseAlertsConfig } from '../../workers/rules-file.js';

const dir = await mkdtemp(join(tmpdir(), 'courtside-rules-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

function fieldOf(input: unknown): string {
  try {
    parseAlertsConfig(input);
  } catch (err) {
    expect((err as { code?: string }).code).toBe('INVALID_CONFIG');
    return (err as Error).message;
  }
  throw new Error('expected the config to be refused');
}

describe('the documented rules file', () => {
  it('docs/alerts.md: the YAML and JSON examples are valid and say the same', async () => {
    const doc = await readFile(
      resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/alerts.md'),
      'utf8',
    );
    const section = doc.slice(doc.indexOf('## The rules file'), doc.indexOf('## Alerts'));
    const yamlText = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    const jsonText = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    expect(yamlText && jsonText).toBeTruthy();
    const fromYaml = parseAlertsConfig(parseYaml(yamlText!));
    expect(fromYaml).toEqual(parseAlertsConfig(JSON.parse(jsonText!)));
    expect(Object.values(fromYaml.rules).every((r) => r.enabled)).toBe(true);
    expect(fromYaml.subscribers[0]?.id).toBe('scores-bot');
  });
});

describe('rules file validation', () => {
  it('names the bad field path', () => {
    expect(fieldOf({ rules: { close_game: { margin: -2 } } })).toBe(
      'rules.close_game.margin: expected a positive integer',
    );
    expect(fieldOf({ rules: { close_game: { margin: 2.5 } } })).toBe(
      'rules.close_game.margin: expected a positive integer',
    );
    expect(fieldOf({ rules: { upset_watch: { probability: 1.5 } } })).toBe(
      'rules.upset_watch.probability: expected a number between 0.5 and 1',
    );
    expect(fieldOf({ subscribers: [{ url: 'ftp://example.com/x', secret: 'x'.repeat(20) }] })).toBe(
      'subscribers.0.url: expected an http or https URL',
    );
    expect(fieldOf({ subscribers: [{ url: 'https://example.com/x', secret: 'short' }] })).toBe(
      'subscribers.0.secret: expected at least 16 characters',
    );
    expect(fieldOf({ leagues: ['nfl'] })).toMatch(/^leagues\.0: expected one of mens, womens/);
    expect(fieldOf({ rules: { lead_chnage: {} } })).toBe(
      'rules.lead_chnage: unknown field; did you mean lead_change?',
    );
    expect(
      fieldOf({ subscribers: [{ url: 'https://e.com', secret: 'x'.repeat(16), alerts: ['nope'] }] }),
    ).toMatch(/^subscribers\.0\.alerts\.0: expected one of final_score/);
  });

  it('answers a misspelt field with the closest field known at its place, as a mistyped flag is', () => {
    const secret = 'x'.repeat(16);
    expect(fieldOf({ subscriber: [] })).toBe('subscriber: unknown field; did you mean subscribers?');
    expect(fieldOf({ rules: { close_game: { margni: 3 } } })).toBe(
      'rules.close_game.margni: unknown field; did you mean margin?',
    );
    expect(fieldOf({ subscribers: [{ url: 'https://e.com', secrt: secret }] })).toBe(
      'subscribers.0.secrt: unknown field; did you mean secret?',
    );
    expect(
      fieldOf({
        subscribers: [{ kind: 'discord', url: 'https://discord.com/api/webhooks/1/x', alrets: [] }],
      }),
    ).toBe('subscribers.0.alrets: unknown field; did you mean alerts?');
    // Nothing close: no guess.
    expect(fieldOf({ rules: { overtime: {} } })).toBe('rules.overtime: unknown field');
  });

  it('defaults every rule on when `rules` is absent, and only the listed ones when present', () => {
    const all = parseAlertsConfig({});
    expect(Object.values(all.rules).every((r) => r.enabled)).toBe(true);
    expect(all.staleAfterSeconds).toBe(600);
    expect(all.attempts).toBe(8);
    expect(all.allowPrivateAddresses).toBe(false);
    const some = parseAlertsConfig({ rules: { run: { points: 12 }, final_score: {} } });
    expect(some.rules.run).toEqual({ enabled: true, points: 12 });
    expect(some.rules.final_score.enabled).toBe(true);
    expect(some.rules.lead_change.enabled).toBe(false);
    expect(some.rules.player_points.thresholds).toEqual([30]);
  });

  it('reads YAML and JSON files the same way', async () => {
    const yamlFile = join(dir, 'rules.yaml');
    await writeFile(
      yamlFile,
      [
        'leagues: [mens]',
        'rules:',
        '  close_game: { margin: 3 }',
        'subscribers:',
        '  - id: bot',
        '    url: https://hooks.example.com/courtside',
        '    secret: 0123456789abcdef0123',
        '    alerts: [close_game]',
        '    events: [game.ended]',
      ].join('\n'),
    );
    const jsonFile = join(dir, 'rules.json');
    await writeFile(
      jsonFile,
      JSON.stringify({
        leagues: ['mens'],
        rules: { close_game: { margin: 3 } },
        subscribers: [
          {
            id: 'bot',
            url: 'https://hooks.example.com/courtside',
            secret: '0123456789abcdef0123',
            alerts: ['close_game'],
            events: ['game.ended'],
          },
        ],
      }),
    );
    const fromYaml = await loadAlertsConfig(yamlFile);
    expect(fromYaml).toEqual(await loadAlertsConfig(jsonFile));
    expect(fromYaml.rules.close_game.margin).toBe(3);
    expect(fromYaml.subscribers[0]?.events).toEqual(['game.ended']);

    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'rules:\n  run:\n    points: zero\n');
    await expect(loadAlertsConfig(bad)).rejects.toThrow('rules.run.points: expected a positive integer');
  });

  it("the daemon's lower thirds read only `rules`: no subscriber secret is needed", async () => {
    const file = join(dir, 'bot.yaml');
    await writeFile(
      file,
      [
        'rules:',
        '  lead_change: { fromPeriod: 1 }',
        '  run: { points: 8 }',
        'subscribers:',
        '  - kind: discord',
        "    url: '${COURTSIDE_TEST_UNSET_WEBHOOK}'",
      ].join('\n'),
    );
    // The worker needs the variable; the daemon reads the same file without it.
    await expect(loadAlertsConfig(file, {})).rejects.toThrow('COURTSIDE_TEST_UNSET_WEBHOOK is not set');
    const rules = await loadRuleSettings(file);
    expect(rules.lead_change).toEqual({ enabled: true, fromPeriod: 1 });
    expect(rules.run).toEqual({ enabled: true, points: 8 });
    expect(rules.close_game.enabled).toBe(false);
    // The rules are checked as the worker checks them; a file without `rules` turns every rule on.
    const bad = join(dir, 'bad-rules.yaml');
    await writeFile(bad, 'rules:\n  run:\n    points: zero\n');
    await expect(loadRuleSettings(bad)).rejects.toThrow('rules.run.points: expected a positive integer');
    const none = join(dir, 'no-rules.json');
    await writeFile(none, JSON.stringify({ subscribers: [] }));
    expect(await loadRuleSettings(none)).toEqual(parseAlertsConfig({}).rules);
  });
});

describe('college filters and the upset rule', () => {
  it('reads conferences, ranked and upset, and names a bad value', () => {
    const config = parseAlertsConfig({
      conferences: ['2'],
      ranked: 10,
      rules: { upset: {} },
      subscribers: [{ url: 'https://example.com/x', secret: 'x'.repeat(20), ranked: true }],
    });
    expect(config).toMatchObject({ conferences: ['2'], ranked: 10 });
    expect(config.rules.upset).toEqual({ enabled: true, underSeconds: 300 });
    expect(config.subscribers[0]).toMatchObject({ ranked: true });
    expect(fieldOf({ conferences: ['ACC'] })).toMatch(/^conferences\.0: expected a conference id/);
    expect(fieldOf({ ranked: 30 })).toMatch(
      /^ranked: expected true \(a ranked team\) or a rank from 1 to 25/,
    );
    expect(fieldOf({ rules: { upset: { underSeconds: 0 } } })).toBe(
      'rules.upset.underSeconds: expected a positive integer',
    );
  });
});

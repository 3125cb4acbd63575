import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { registry, startProcessMetrics } from '../../src/core/metrics.js';
import { ROOT } from '../cli/harness.js';

/**
 * What ships in deploy/: every PromQL expression of the alert rules and of the dashboard names only
 * metrics the daemon exports, the Compose profile mounts what the provisioning files point at, and,
 * where promtool is installed, the rules are valid and fire on the series that mean their trouble.
 */

interface Rule {
  alert: string;
  expr: string;
}
interface Panel {
  title: string;
  datasource: { uid: string };
  targets: Array<{ expr: string }>;
}

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const rules = (
  parseYaml(read('deploy/prometheus/alerts.yml')) as { groups: Array<{ rules: Rule[] }> }
).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(read('deploy/grafana/provisioning/dashboards/courtside.json')) as {
  uid: string;
  panels: Panel[];
};

/** Every series name the daemon's registry exposes, histograms with their three series. */
async function exportedNames(): Promise<Set<string>> {
  startProcessMetrics();
  const names = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
    if (String(metric.type) === 'summary')
      for (const suffix of ['_sum', '_count']) names.add(metric.name + suffix);
  }
  return names;
}

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: what is left of its identifiers once strings, label
 * matchers, ranges, grouping lists, functions (a name before `(`), keywords and numbers are out.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names: string[] = [];
  for (const match of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const after = bare.slice(match.index + match[0].length).trimStart();
    const before = bare[match.index - 1] ?? '';
    if (after.startsWith('(') || KEYWORDS.has(match[0].toLowerCase()) || /[0-9.]/.test(before)) continue;
    names.push(match[0]);
  }
  return names;
}

describe('deploy/: expressions', () => {
  const expressions = [
    ...rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })),
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => ({ where: `panel ${p.title}`, expr: t.expr }))),
  ];

  it('reads metric names out of PromQL, and nothing else', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le, lane) (rate(a_bucket{lane="live",x=~"b|c"}[5m]))) > 1 and on(x) b_total offset 5m',
      ),
    ).toEqual(['a_bucket', 'b_total']);
    expect(metricNames('min(x) < 6 * 3600 and max(y) == 1')).toEqual(['x', 'y']);
  });

  it('name only metrics the daemon exports, each at least one', async () => {
    const exported = await exportedNames();
    expect(exported.has('courtside_redis_up')).toBe(true);
    expect(expressions.length).toBeGreaterThan(20);
    for (const { where, expr } of expressions) {
      const names = metricNames(expr);
      expect(names.length, `${where}: ${expr}`).toBeGreaterThan(0);
      for (const name of names)
        expect(exported.has(name), `${where} reads ${name}, which the daemon does not export`).toBe(true);
    }
  });

  it('cover the troubles an operator is paged for', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual([
      'CourtsideAlertJobsDropped',
      'CourtsideAlertsFailing',
      'CourtsideEventLogNearRetention',
      'CourtsideLiveLaneLate',
      'CourtsidePushFellBackToPolling',
      'CourtsideRedisUnavailable',
      'CourtsideUpstreamBlocked',
    ]);
  });
});

describe('deploy/: provisioning and the Compose profile', () => {
  type Service = {
    image?: string;
    profiles?: string[];
    volumes?: string[];
    command?: string[];
    ports?: string[];
  };
  const compose = parseYaml(read('docker-compose.yml')) as { services: Record<string, Service> };
  const mounted = (service: Service | undefined, inside: string): string | undefined =>
    service?.volumes?.map((v) => v.split(':')).find(([, at]) => at === inside)?.[0];

  it('adds Prometheus and Grafana under the observability profile, both provisioned from deploy/', () => {
    const { prometheus, grafana, alerts, courtside } = compose.services;
    for (const service of [prometheus, grafana]) expect(service?.profiles).toEqual(['observability']);
    expect(prometheus?.image).toMatch(/^prom\/prometheus:/);
    expect(grafana?.image).toMatch(/^grafana\/grafana:/);
    expect(mounted(prometheus, '/etc/prometheus')).toBe('./deploy/prometheus');
    expect(prometheus?.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
    expect(mounted(grafana, '/etc/grafana/provisioning')).toBe('./deploy/grafana/provisioning');

    // Prometheus scrapes the two services at the ports they serve /metrics on.
    const config = parseYaml(read('deploy/prometheus/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }>;
    };
    const targets = config.scrape_configs.flatMap((s) => s.static_configs.flatMap((c) => c.targets));
    const workerPort = alerts?.command?.[alerts.command.indexOf('--metrics-port') + 1];
    expect(workerPort).toMatch(/^\d+$/);
    expect(targets.sort()).toEqual([
      `alerts:${workerPort}`,
      `courtside:${courtside?.ports?.[0]?.split(':')[1]}`,
    ]);
    for (const file of config.rule_files)
      expect(existsSync(join(ROOT, 'deploy/prometheus', file)), file).toBe(true);

    // Grafana: the data source the panels name, and a provider whose folder holds the dashboard.
    const sources = parseYaml(read('deploy/grafana/provisioning/datasources/prometheus.yml')) as {
      datasources: Array<{ uid: string; url: string }>;
    };
    expect(sources.datasources[0]?.url).toBe('http://prometheus:9090');
    for (const panel of dashboard.panels)
      expect(panel.datasource.uid, panel.title).toBe(sources.datasources[0]?.uid);
    const providers = parseYaml(read('deploy/grafana/provisioning/dashboards/courtside.yml')) as {
      providers: Array<{ options: { path: string } }>;
    };
    const inside = providers.providers[0]!.options.path.replace('/etc/grafana/provisioning', '');
    expect(existsSync(join(ROOT, 'deploy/grafana/provisioning', inside, 'courtside.json'))).toBe(true);
  });
});

const promtool = spawnSync('promtool', ['--version']).status === 0;

describe.skipIf(!promtool)('deploy/: promtool', () => {
  it('finds the configuration and its rule file valid', () => {
    const out = execFileSync('promtool', ['check', 'config', 'deploy/prometheus/prometheus.yml'], {
      cwd: ROOT,
    }).toString();
    expect(out).toContain('SUCCESS: 7 rules found');
  });

  it('fires each alert on the series that mean its trouble, and not before (test/deploy/alerts.promtool.yml)', () => {
    const run = spawnSync('promtool', ['test', 'rules', 'test/deploy/alerts.promtool.yml'], { cwd: ROOT });
    expect(`${run.stdout.toString()}${run.stderr.toString()}`).toContain('SUCCESS');
    expect(run.status).toBe(0);
  });
});

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

/**
 * A preview of the shipped Grafana dashboard, for docs/observability.md, where Grafana cannot run:
 * each panel's queries are evaluated by a real Prometheus (the same PromQL Grafana would send) and
 * drawn as plain SVG in Debian's Chromium. It shows the dashboard's panels, layout and data, not
 * Grafana's look; the page says so.
 *
 *   prometheus --config.file=<one that scrapes the demo>  &   courtside demo &
 *   npm run docs:dashboard -- --prometheus http://127.0.0.1:9090 --minutes 15
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.COURTSIDE_CHROMIUM || '/usr/bin/chromium';
// Grafana's grid: 24 columns, 30 px per row unit.
const ROW_PX = 30;
const WIDTH_PX = 1440;

interface Panel {
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  fieldConfig: { defaults: { unit?: string } };
  targets: Array<{ expr: string; legendFormat?: string }>;
}
interface Series {
  name: string;
  points: Array<[number, number]>;
}

const { values } = parseArgs({
  options: {
    prometheus: { type: 'string', default: 'http://127.0.0.1:9090' },
    minutes: { type: 'string', default: '15' },
    dashboard: {
      type: 'string',
      default: join(ROOT, 'deploy/grafana/provisioning/dashboards/courtside.json'),
    },
    out: { type: 'string', default: join(ROOT, 'docs/images/dashboard-preview.png') },
  },
});

const stepOf = (start: number, end: number): number => Math.max(5, Math.round((end - start) / 120));

async function query(
  expr: string,
  legend: string | undefined,
  start: number,
  end: number,
): Promise<Series[]> {
  const step = stepOf(start, end);
  const url = new URL('/api/v1/query_range', values.prometheus);
  url.search = new URLSearchParams({
    query: expr,
    start: String(start),
    end: String(end),
    step: String(step),
  }).toString();
  const res = await fetch(url);
  const body = (await res.json()) as {
    status: string;
    error?: string;
    data?: { result: Array<{ metric: Record<string, string>; values: Array<[number, string]> }> };
  };
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error ?? res.status}`);
  return (body.data?.result ?? []).map((r) => ({
    name: (legend ?? '').replace(/\{\{\s*(\w+)\s*\}\}/g, (_, label: string) => r.metric[label] ?? '') || expr,
    points: r.values
      .map(([t, v]) => [t, Number(v)] as [number, number])
      .filter(([, v]) => Number.isFinite(v)),
  }));
}

function format(value: number, unit: string | undefined): string {
  const n = (v: number) => (Math.abs(v) >= 100 || Number.isInteger(v) ? v.toFixed(0) : v.toPrecision(3));
  if (unit === 'bytes') return `${n(value / 1_048_576)} MiB`;
  if (unit === 's')
    return value >= 3600 ? `${n(value / 3600)} h` : value >= 60 ? `${n(value / 60)} min` : `${n(value)} s`;
  if (unit === 'ops' || unit === 'reqps') return `${n(value)}/s`;
  return n(value);
}

const COLORS = ['#73bf69', '#f2cc0c', '#8ab8ff', '#ff780a', '#f2495c', '#5794f2', '#b877d9', '#fade2a'];
const escape = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function chart(
  series: Series[],
  unit: string | undefined,
  w: number,
  h: number,
  start: number,
  end: number,
): string {
  const all = series.flatMap((s) => s.points.map(([, v]) => v));
  if (all.length === 0) return '<div class="empty">No data</div>';
  const max = Math.max(...all, 0);
  const min = Math.min(...all, 0);
  const span = max - min || 1;
  const x = (t: number) => 40 + ((t - start) / (end - start)) * (w - 50);
  const y = (v: number) => 8 + (1 - (v - min) / span) * (h - 24);
  const lines = series.map((s, i) => {
    const d = s.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    return `<polyline fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="1.5" points="${d}"/>`;
  });
  const axis = `<text x="2" y="14">${escape(format(max, unit))}</text><text x="2" y="${h - 12}">${escape(format(min, unit))}</text>`;
  const legend = series
    .map((s, i) => `<span><i style="background:${COLORS[i % COLORS.length]}"></i>${escape(s.name)}</span>`)
    .join('');
  return `<svg width="${w}" height="${h}">${axis}${lines.join('')}</svg><div class="legend">${legend}</div>`;
}

async function main(): Promise<void> {
  const dashboard = JSON.parse(readFileSync(values.dashboard, 'utf8')) as { title: string; panels: Panel[] };
  const end = Math.floor(Date.now() / 1000);
  const start = end - Number(values.minutes) * 60;
  const col = WIDTH_PX / 24;
  const cells: string[] = [];
  for (const panel of dashboard.panels) {
    const { x, y, w, h } = panel.gridPos;
    const series = (
      await Promise.all(panel.targets.map((t) => query(t.expr, t.legendFormat, start, end)))
    ).flat();
    const unit = panel.fieldConfig.defaults.unit;
    // A stat shows the value now: a series that ended earlier (a process gone) shows nothing.
    const latest = series[0]?.points.at(-1);
    const last = latest && latest[0] >= end - 2 * stepOf(start, end) ? latest[1] : undefined;
    const body =
      panel.type === 'stat'
        ? last === undefined
          ? '<div class="empty">No data</div>'
          : `<div class="stat">${escape(format(last, unit))}</div>`
        : chart(series, unit, w * col - 24, h * ROW_PX - 70, start, end);
    cells.push(
      `<section style="left:${x * col}px;top:${y * ROW_PX}px;width:${w * col - 8}px;height:${h * ROW_PX - 8}px"><h3>${escape(panel.title)}</h3>${body}</section>`,
    );
  }
  const height = Math.max(...dashboard.panels.map((p) => p.gridPos.y + p.gridPos.h)) * ROW_PX;
  const html = `<!doctype html><meta charset="utf-8"><style>
body{margin:0;background:#111217;color:#ccccdc;font:12px sans-serif}
header{padding:10px 12px;font-size:14px}header b{color:#fff}
main{position:relative;margin:0 8px;height:${height}px}
section{position:absolute;background:#181b1f;border:1px solid #2c3235;border-radius:3px;padding:6px 8px;box-sizing:border-box;overflow:hidden}
h3{margin:0 0 4px;font-size:13px;color:#fff;font-weight:500}
svg text{fill:#8e8e8e;font-size:10px}.legend span{margin-right:10px;white-space:nowrap}
.legend i{display:inline-block;width:10px;height:3px;margin:0 4px 3px 0}
.stat{font-size:32px;color:#73bf69;padding-top:4px}.empty{color:#8e8e8e;padding:30px 0;text-align:center}
</style><header><b>${escape(dashboard.title)}</b>: a preview rendering of deploy/grafana/provisioning/dashboards/courtside.json, each panel's PromQL evaluated by Prometheus over the last ${values.minutes} minutes of the demo, not a Grafana screenshot</header><main>${cells.join('')}</main>`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH_PX + 16, height: 800 } });
    await page.setContent(html);
    await page.screenshot({ path: values.out, fullPage: true });
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify({ out: values.out, panels: dashboard.panels.length }));
}

await main();

import type { GameSnapshot, SnapshotSource } from '../../model/events.js';
import type { InstanceRole } from '../../core/role.js';
import { LEAGUE_INFO, LEAGUES } from '../../core/leagues.js';
import { PROJECT_URL, VERSION } from '../../core/version.js';
import { sendError, type RouteHandler } from '../http-types.js';
import { liveGames, type GameFeeds, type LiveGame } from './games.js';
import { filterGames, parseGamesQuery, type GamesQuery } from './games-query.js';
import { isRead, sendBody } from './respond.js';
import { OFFLINE_HINT, upstreamName } from './upstream-notice.js';
import type { UpstreamHealth } from './upstream-tracker.js';

/**
 * `GET /`: a small HTML page for a person who just started the daemon: the upstream's state, the
 * games in progress with links to their overlays, the endpoints and the docs. Rendered on the
 * server with inline styles and no script, and a Content-Security-Policy that lets the page load
 * nothing at all, so it never reaches outside the daemon.
 */
export interface HomeRouteOptions {
  snapshots: SnapshotSource;
  upstream?: { readonly url: string; health(): UpstreamHealth };
  /** Shown under the title, so a person reaching one instance behind a balancer knows which kind. */
  role?: InstanceRole;
  /** How this instance follows each game (push, polling, standby), shown beside its status. */
  feeds?: GameFeeds;
  /** What push does, as the daemon said at start-up (`push on: FastCast at …`, `push off: …`). */
  pushNotice?: string;
}

/** The documents under `docs/` a newcomer reads, most useful first (a test keeps it in step with the folder). */
export const HOME_DOCS: ReadonlyArray<{ name: string; title: string }> = [
  { name: 'http-api', title: 'HTTP API' },
  { name: 'protocol', title: 'Streaming protocol (WebSocket, SSE)' },
  { name: 'events', title: 'Events' },
  { name: 'configuration', title: 'Configuration' },
  { name: 'errors', title: 'Errors' },
  { name: 'operations', title: 'Operations' },
  { name: 'upstream', title: 'ESPN as it behaves now' },
  { name: 'limits', title: 'Live first: lanes, the upstream budget and client limits' },
  { name: 'tables', title: 'Tables' },
  { name: 'client', title: 'Client library (courtside/client)' },
  { name: 'overlay', title: 'Broadcast overlays (OBS)' },
  { name: 'alerts', title: 'Alerts and webhooks' },
  { name: 'home-assistant', title: 'Home Assistant and MQTT' },
  { name: 'architecture', title: 'Architecture' },
  { name: 'reliability', title: 'Reliability' },
  { name: 'deployment', title: 'Deployment: roles, Sentinel, Cluster' },
  { name: 'observability', title: 'Observability: dashboard and alert rules' },
  { name: 'benchmarks', title: 'Benchmarks' },
  { name: 'decisions', title: 'Decisions' },
];

const ENDPOINTS: ReadonlyArray<{ path: string; what: string; link: boolean }> = [
  { path: '/v1/games/live', what: 'the games in progress, as JSON', link: true },
  { path: '/v1/stream/sse', what: 'every event as Server-Sent Events (curl -N)', link: true },
  { path: '/v1/stream', what: 'the WebSocket stream (docs: protocol)', link: false },
  { path: '/overlay/ticker', what: 'a ticker of every game of the day, for a broadcast', link: true },
  { path: '/client/courtside.js', what: 'the client library as one ES module (docs: client)', link: true },
  { path: '/healthz', what: 'upstream, Redis and pollers', link: true },
  { path: '/metrics', what: 'Prometheus metrics', link: true },
  { path: '/openapi.json', what: 'the HTTP API, machine-readable', link: true },
  {
    path: '/v1/asyncapi.json',
    what: 'the WebSocket and SSE streams, machine-readable (AsyncAPI 3)',
    link: true,
  },
];

// The list changes as games start and end; a reload every 15 s follows it without any script.
const REFRESH_SECONDS = 15;
const HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  // The links may carry ?token=: never hand it to another site in a Referer.
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

export function createHomeRoute(options: HomeRouteOptions): RouteHandler {
  return async (req, res, url) => {
    if (url.pathname !== '/') return false;
    if (!isRead(req)) {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', `${req.method ?? '?'} is not allowed on /; use GET`, {
        headers: { allow: 'GET, HEAD' },
      });
      return true;
    }
    // The same filters as /v1/games/live, refused the same way before anything is read.
    const parsed = parseGamesQuery(url.searchParams);
    if (!parsed.ok) {
      sendError(res, 400, 'INVALID_PARAMS', parsed.error.message);
      return true;
    }
    const [games, finished] = await Promise.all([
      liveGames(options.snapshots, options.feeds),
      finishedGames(options.snapshots),
    ]);
    // A browser cannot send a header: a token that came in the query goes on with every link.
    const token = url.searchParams.get('token');
    const page = renderHome({
      games,
      finished,
      upstream: options.upstream
        ? { url: options.upstream.url, health: options.upstream.health() }
        : undefined,
      query: parsed.query,
      link: (path) =>
        token ? `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : path,
      role: options.role,
      pushNotice: options.pushNotice,
    });
    // The page may hold a token in its links: no cache keeps it.
    sendBody(req, res, page, {
      contentType: 'text/html; charset=utf-8',
      cacheControl: 'no-store',
      headers: HEADERS,
    });
    return true;
  };
}

/**
 * The finished games the daemon still holds, newest first. A finished game's state is kept for
 * the finished-game TTL (`COURTSIDE_FINISHED_GAME_TTL`, a day by default) and then expires, so
 * the page links a game's overlay and state for as long as they answer.
 */
async function finishedGames(snapshots: SnapshotSource): Promise<GameSnapshot[]> {
  return (await snapshots.list())
    .filter((g) => g.state === 'post')
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.gameId.localeCompare(b.gameId));
}

/** The games as rows; under a league's heading the league column is left out. */
function gameTable(
  games: readonly GameSnapshot[],
  link: (path: string) => string,
  showLeague = true,
): string {
  const head = `${showLeague ? '<th>League</th>' : ''}<th>Away</th><th></th><th>Home</th><th>Status</th><th></th>`;
  return `<table><thead><tr>${head}</tr></thead><tbody>${games
    .map((g) => gameRow(g, link, showLeague))
    .join('')}</tbody></table>`;
}

function renderHome(view: {
  games: readonly LiveGame[];
  query: GamesQuery;
  finished: readonly GameSnapshot[];
  upstream: { url: string; health: UpstreamHealth } | undefined;
  link: (path: string) => string;
  role: InstanceRole | undefined;
  pushNotice: string | undefined;
}): string {
  const { link } = view;
  const games =
    view.games.length === 0
      ? `<p class="muted">No game in progress${view.upstream?.health.ok === false ? ' that this daemon can see' : ''}.</p>`
      : `${filterBar(view.games, view.query, link)}\n${liveByLeague(filterGames(view.games, view.query), link)}`;
  const finished =
    view.finished.length === 0 ? '' : `<h2>Finished games</h2>\n${gameTable(view.finished, link)}\n`;
  const endpoints = ENDPOINTS.map(
    (e) =>
      `<li>${e.link ? `<a href="${esc(link(e.path))}"><code>${esc(e.path)}</code></a>` : `<code>${esc(e.path)}</code>`} — ${esc(e.what)}</li>`,
  ).join('');
  const docs = HOME_DOCS.map(
    (d) => `<li><a href="${esc(`${PROJECT_URL}/blob/main/docs/${d.name}.md`)}">${esc(d.title)}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${REFRESH_SECONDS}">
<title>courtside</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>courtside <small>${esc(VERSION)}</small></h1>
${view.role ? `<p class="muted">Role: <strong>${esc(view.role)}</strong>${view.role === 'gateway' ? ' (serves the shared log; the pollers run elsewhere)' : ''}</p>` : ''}
${view.role === 'gateway' ? '' : upstreamBanner(view.upstream, view.games)}
${view.pushNotice === undefined ? '' : `<p class="muted">${esc(view.pushNotice.charAt(0).toUpperCase() + view.pushNotice.slice(1))}.</p>`}
<h2>Live games</h2>
${games}
${finished}<h2>Endpoints</h2>
<ul>${endpoints}</ul>
<h2>Docs</h2>
<ul class="docs">${docs}</ul>
<p class="muted">In the <a href="${esc(`${PROJECT_URL}/tree/main/docs`)}">docs folder</a> of the repository, and in <code>docs/</code> of a checkout.</p>
</main>
</body>
</html>
`;
}

/** The live games under one heading per league, in the leagues' order. */
function liveByLeague(games: readonly LiveGame[], link: (path: string) => string): string {
  if (games.length === 0) return '<p class="muted">No live game matches these filters.</p>';
  return LEAGUES.map((league) => {
    const of = games.filter((g) => g.league === league);
    if (of.length === 0) return '';
    return `<h3 id="league-${league}">${esc(LEAGUE_INFO[league].title)} <small>${of.length}</small></h3>\n${gameTable(of, link, false)}`;
  })
    .filter((section) => section !== '')
    .join('\n');
}

/**
 * Links that narrow the list by league, conference and ranked, each keeping the other filters:
 * plain links with query parameters, so the page needs no script and a filtered view can be
 * bookmarked (or left open, as the page reloads itself with its address).
 */
function filterBar(all: readonly LiveGame[], query: GamesQuery, link: (path: string) => string): string {
  const href = (next: Partial<GamesQuery>): string => {
    const q = { ...query, ...next };
    const params = new URLSearchParams();
    if (q.leagues) params.set('league', [...q.leagues].join(','));
    if (q.conferences) params.set('conference', [...q.conferences].join(','));
    if (q.ranked) params.set('ranked', 'true');
    const search = params.toString();
    return link(search ? `/?${search}` : '/');
  };
  const option = (
    label: string,
    count: number | null,
    next: Partial<GamesQuery>,
    current: boolean,
  ): string => {
    const text = `${esc(label)}${count === null ? '' : ` <small>${count}</small>`}`;
    return current ? `<strong>${text}</strong>` : `<a href="${esc(href(next))}">${text}</a>`;
  };
  const sameSet = (a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean =>
    a?.size === b?.size && [...(a ?? [])].every((v) => b?.has(v));
  const leagues = [
    option('all', all.length, { leagues: undefined }, query.leagues === undefined),
    ...LEAGUES.map((league) => ({ league, n: all.filter((g) => g.league === league).length }))
      .filter(({ n }) => n > 0)
      .map(({ league, n }) =>
        option(
          LEAGUE_INFO[league].label,
          n,
          { leagues: new Set([league]) },
          sameSet(query.leagues, new Set([league])),
        ),
      ),
  ];
  // The conferences of the games the league filter keeps, by how many of them each has.
  const inLeagues = filterGames(all, { view: 'full', ...(query.leagues ? { leagues: query.leagues } : {}) });
  const conferences = new Map<string, { name: string; games: number }>();
  for (const g of inLeagues) {
    const seen = new Set<string>();
    for (const t of [g.teams.away, g.teams.home]) {
      const c = t.conference;
      if (!c || seen.has(c.id)) continue;
      seen.add(c.id);
      const entry = conferences.get(c.id) ?? { name: c.name ?? `conference ${c.id}`, games: 0 };
      if (entry.name.startsWith('conference ') && c.name) entry.name = c.name;
      entry.games++;
      conferences.set(c.id, entry);
    }
  }
  const conferenceOptions = [...conferences]
    .sort(([, a], [, b]) => b.games - a.games || a.name.localeCompare(b.name))
    .map(([id, c]) =>
      option(c.name, c.games, { conferences: new Set([id]) }, sameSet(query.conferences, new Set([id]))),
    );
  const lines = [
    `League: ${leagues.join(' · ')}`,
    `Ranked: ${option('all games', null, { ranked: undefined }, !query.ranked)} · ${option('a ranked team', null, { ranked: true }, query.ranked === true)}`,
    conferences.size === 0 && !query.conferences
      ? ''
      : `Conference: ${[option('all', null, { conferences: undefined }, !query.conferences), ...conferenceOptions].join(' · ')}`,
  ].filter((line) => line !== '');
  return `<nav class="filters">${lines.map((line) => `<div>${line}</div>`).join('')}</nav>`;
}

function gameRow(g: LiveGame, link: (path: string) => string, showLeague: boolean): string {
  const detail = g.status.detail ?? g.status.description ?? '';
  const status = g.feed ? `${detail} · ${feedLabel(g.feed)}` : detail;
  const team = (t: GameSnapshot['teams']['home']) =>
    `${t.rank != null ? `<small>${t.rank}</small> ` : ''}<span title="${esc(t.displayName ?? '')}">${esc(t.abbreviation ?? t.id)}</span>`;
  const path = `${g.league}/${encodeURIComponent(g.gameId)}`;
  return `<tr>${showLeague ? `<td>${LEAGUE_INFO[g.league].label}</td>` : ''}<td>${team(g.teams.away)}</td><td class="score">${g.score.away} – ${g.score.home}</td><td>${team(g.teams.home)}</td><td>${esc(status)}</td><td><a href="${esc(link(`/overlay/${path}`))}">overlay</a> · <a href="${esc(link(`/overlay/${path}/lower-third`))}">lower third</a> · <a href="${esc(link(`/v1/games/${path}`))}">state</a></td></tr>`;
}

/** The game's word (push, polling, standby) and since when, as its feed says. */
function feedLabel(feed: NonNullable<LiveGame['feed']>): string {
  const since = `since ${feed.since.slice(11, 19)} UTC`;
  return feed.source === 'standby'
    ? `standby ${since}: another instance feeds it`
    : `${feed.source} ${since}`;
}

/** How many of the live games each word covers: "2 by push, 1 on standby (…)". */
function feedCounts(games: readonly LiveGame[]): string {
  const count = (source: string): number => games.filter((g) => g.feed?.source === source).length;
  const parts = [
    count('push') > 0 ? `${count('push')} by push (FastCast)` : '',
    count('polling') > 0 ? `${count('polling')} by polling` : '',
    count('standby') > 0 ? `${count('standby')} on standby (another instance feeds them)` : '',
  ].filter((p) => p !== '');
  return parts.length === 0 ? '' : ` Live games here: ${parts.join(', ')}.`;
}

function upstreamBanner(
  upstream: { url: string; health: UpstreamHealth } | undefined,
  games: readonly LiveGame[],
): string {
  if (!upstream) return '';
  const { url, health } = upstream;
  const name = upstreamName(url);
  const who = `${name} (<code>${esc(url)}</code>)`;
  if (health.ok === null) return `<p class="banner wait">Waiting for the first poll of ${who}…</p>`;
  if (health.ok)
    return `<p class="banner ok">${name.charAt(0).toUpperCase()}${name.slice(1)} (<code>${esc(url)}</code>) answering since ${esc(health.since ?? '')}.${esc(feedCounts(games))}</p>`;
  const error = health.lastError;
  return `<p class="banner down"><strong>Cannot get live data from ${who}</strong> since ${esc(health.since ?? '')}${
    error ? `: <code>${esc(error.code)}</code> ${esc(error.message)}` : ''
  }.<br>The pollers keep trying; ${esc(OFFLINE_HINT).replace(/`([^`]+)`/g, '<code>$1</code>')}.</p>`;
}

function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1e24;--bg:#f6f7f9;--muted:#667085;--line:#d9dde3;--ok:#1a7f37;--down:#b42318;--wait:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaf0;--bg:#15171c;--muted:#98a2b3;--line:#2c313a}}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,'Segoe UI',Roboto,Helvetica,Arial,sans-serif}
main{max-width:52rem;margin:0 auto;padding:1.5rem}
h1{margin:0 0 1rem;font-size:1.6rem}h1 small{color:var(--muted);font-size:.9rem;font-weight:400}
h2{margin:1.6rem 0 .5rem;font-size:1.1rem}
a{color:inherit}code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.muted{color:var(--muted)}
.banner{padding:.6rem .8rem;border-left:4px solid;border-radius:4px;background:color-mix(in srgb,currentColor 6%,transparent)}
.banner.ok{border-color:var(--ok)}.banner.down{border-color:var(--down)}.banner.wait{border-color:var(--wait)}.banner code{white-space:nowrap}
table{border-collapse:collapse;width:100%}th,td{padding:.35rem .5rem;border-bottom:1px solid var(--line);text-align:left}
th{color:var(--muted);font-weight:500;font-size:.85rem}td.score{font-variant-numeric:tabular-nums;font-weight:600;white-space:nowrap}
ul{padding-left:1.2rem}ul.docs{columns:2}
h3{margin:1.2rem 0 .3rem;font-size:1rem}h3 small,nav.filters small{color:var(--muted);font-weight:400}
nav.filters{font-size:.9rem;line-height:1.8}td{padding:.2rem .5rem}
`;

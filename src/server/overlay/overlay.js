// The broadcast scorebug. Plain browser JavaScript served as is: no build step, no CDN.
// It subscribes to one game through courtside's client library (which reconnects and resumes by
// itself) and renders the library's game state: score, clock, the game situation (team fouls,
// bonus, timeouts), the last plays and the win-probability chart. The server writes the game's
// snapshot into the page (as it stands, or as it stood `delay` ago), so the first paint shows the
// game; until the daemon has a snapshot or an event of the game, it only says it is waiting for
// it. Options come from the URL (docs/overlay.md): layout, theme, plays, chart, scale, delay,
// stale, transparent.
import { gameState } from '/client/courtside.js';
import { scorebugColors } from './colors.js';
import {
  applyPageOptions,
  byTestId as $,
  finalLabel,
  intParam,
  operationName,
  periodLabel,
  query,
  segments,
  withToken,
} from './params.js';
import { foulTroubleLine, renderTeamSituation } from './situation.js';
import { createStaleWatch } from './stale.js';
import { openStream } from './stream.js';

const [league = '', gameId = ''] = segments;
const layout = query.get('layout') ?? 'full';
// A compact bar has no room for plays or the chart unless asked for.
const MAX_PLAYS = intParam('plays', layout === 'compact' ? 0 : layout === 'vertical' ? 3 : 5);
const showChart = (query.get('chart') ?? (layout === 'compact' ? '0' : '1')) === '1';
const delay = intParam('delay', 0);
// Seconds without a connection before the data is marked stale: longer than a daemon restart.
const staleAfterMs = intParam('stale', 15) * 1000;
applyPageOptions();

const games = gameState();

const view = {
  connected: false,
  /** The game as the client library's reducer holds it; undefined until a snapshot or an event. */
  game: undefined,
  /** Teams with colours from a snapshot fetched over HTTP, for a game first seen through an event. */
  fetchedTeams: null,
  /** Win probability by play id, in play order: the chart's series. */
  winprob: new Map(),
  stale: '',
  /** Events received (each once). */
  events: 0,
};
window.__overlay = view;

function sideOf(teams, teamId) {
  if (!teams || teamId == null) return null;
  if (String(teams.home.id) === String(teamId)) return 'home';
  if (String(teams.away.id) === String(teamId)) return 'away';
  return null;
}

/**
 * `Halftime`, or `End 1st` for "End of the 1st Quarter": short enough for the clock cell. The end
 * of men's college's 2nd half, before an overtime, is not halftime: `End 2nd`.
 */
function shortBreak(detail, period) {
  return /halftime|end of (the )?1st half/i.test(detail) ? 'Halftime' : `End ${periodLabel(league, period)}`;
}

/** The teams to show: the game's, with the fetched snapshot's colours when the game has none. */
function teamsOf(game) {
  const teams = game.teams;
  const fetched = view.fetchedTeams;
  if (!fetched || teams.home.color != null) return teams;
  return {
    home: {
      ...fetched.home,
      ...teams.home,
      color: fetched.home.color,
      alternateColor: fetched.home.alternateColor,
    },
    away: {
      ...fetched.away,
      ...teams.away,
      color: fetched.away.color,
      alternateColor: fetched.away.alternateColor,
    },
  };
}

/** The snapshot the server wrote into the page, or undefined (none, or not readable). */
function firstPaintSnapshot() {
  const slot = document.getElementById('first-paint');
  if (!slot) return undefined;
  try {
    const snap = JSON.parse(slot.textContent ?? '');
    return String(snap?.gameId) === gameId ? snap : undefined;
  } catch {
    return undefined;
  }
}

function render() {
  const overlay = document.getElementById('overlay');
  const game = view.game;
  const final = game?.state === 'post';
  overlay.dataset.state = view.connected ? 'live' : 'reconnecting';
  overlay.dataset.game = game ? 'ready' : 'waiting';
  overlay.dataset.stale = view.stale;
  overlay.dataset.final = final ? '1' : '0';
  $('stale').textContent =
    view.stale === 'connection' ? 'Connection lost' : view.stale === 'poller' ? 'Data delayed' : '';
  if (!game) return;
  const teams = teamsOf(game);
  for (const side of ['home', 'away']) {
    $(`${side}-abbr`).textContent = teams[side]?.abbreviation ?? '';
    // A college team's poll rank (null when unranked; the pro leagues have none).
    const rank = teams[side]?.rank;
    $(`${side}-rank`).hidden = rank == null;
    $(`${side}-rank`).textContent = rank == null ? '' : `#${rank}`;
  }
  // Envelope teams carry no colours: the stylesheet's defaults stand in until a snapshot comes.
  const colors = scorebugColors(teams.home, teams.away);
  const root = document.documentElement.style;
  for (const side of ['home', 'away']) {
    root.setProperty(`--${side}`, `#${colors[side].background}`);
    root.setProperty(`--${side}-text`, colors[side].text);
  }
  overlay.dataset.colors = colors.changed ?? 'own';
  // The team theme paints the panel in the home side's colour.
  root.setProperty('--team-panel', `#${colors.home.background}`);

  const { home, away } = game.score;
  for (const side of ['home', 'away']) {
    const own = side === 'home' ? home : away;
    const other = side === 'home' ? away : home;
    $(side).classList.toggle('winner', final && own > other);
    $(side).classList.toggle('loser', final && own < other);
    renderTeamSituation(
      $(`${side}-situation`),
      final ? null : (game.situation?.[side] ?? null),
      game.situation?.rules,
    );
  }
  $('foul-trouble').textContent = final ? '' : foulTroubleLine(game.situation, teams);
  const detail = game.status?.detail ?? '';
  // Between periods the clock reads 0.0: "Halftime" or "End of the 1st Quarter" says more, in its
  // place. Only those: a live college detail names its half ("4:12 - 2nd Half").
  const between = !final && /^(halftime|end of)/i.test(detail);
  // A live game's detail repeats the clock ("6:27 - 1st Quarter"), a final one the clock's "Final".
  const repeats = between || /^\d+(:\d\d|\.\d)\s*-/.test(detail) || (final && /^final/i.test(detail));
  $('status').textContent = repeats ? '' : detail;
  $('home-score').textContent = String(home);
  $('away-score').textContent = String(away);
  $('period').textContent = final || between ? '' : periodLabel(league, game.period);
  $('clock').textContent = final
    ? finalLabel(league, game.period)
    : between
      ? shortBreak(detail, game.period)
      : (game.clock ?? '');
  const shown = MAX_PLAYS === 0 ? [] : game.plays.slice(-MAX_PLAYS).reverse();
  $('plays').replaceChildren(
    ...shown.map((play) => {
      const li = document.createElement('li');
      li.dataset.playId = play.id;
      if (play.scoring_play) li.classList.add('scoring');
      const side = sideOf(teams, play.team_id);
      if (side) li.classList.add(side);
      const when = document.createElement('span');
      when.className = 'when';
      when.textContent = `${periodLabel(league, play.period_number)} ${play.clock_display_value ?? ''}`;
      const text = document.createElement('span');
      text.textContent = play.text ?? '';
      li.append(when, text);
      return li;
    }),
  );
  renderWinprob(teams);
}

function renderWinprob(teams) {
  const points = showChart ? [...view.winprob.values()] : [];
  document.getElementById('overlay').dataset.winprob = points.length === 0 ? 'none' : 'shown';
  if (points.length === 0) return;
  // Home on top: y = 0 is a certain home win, 60 a certain away win, 30 a toss-up.
  const step = points.length > 1 ? 300 / (points.length - 1) : 0;
  const coords = points.map((p, i) => `${(i * step).toFixed(1)},${(60 - p * 60).toFixed(1)}`);
  const line = coords.join(' ');
  const area = `0,30 ${line} ${((points.length - 1) * step).toFixed(1)},30`;
  const chart = $('winprob-chart');
  chart.querySelector('polyline').setAttribute('points', line);
  for (const polygon of chart.querySelectorAll('polygon')) polygon.setAttribute('points', area);
  const last = points[points.length - 1];
  // Quote the favourite, as broadcasts do: "ORL 91%" rather than "TOR 9%".
  const [abbr, pct] =
    last >= 0.5 ? [teams.home.abbreviation ?? 'home', last] : [teams.away.abbreviation ?? 'away', 1 - last];
  $('winprob-label').textContent = `${abbr} ${Math.round(pct * 100)}%`;
}

function noteWinprob(game) {
  const wp = game?.winProbability;
  if (wp) view.winprob.set(wp.playId, wp.homeWinPercentage);
}

/**
 * The game's current snapshot over HTTP, for a game that became known through an event: its
 * colours, status and plays. Applied whole only when it is not behind what is shown and no
 * spoiler delay holds the stream back (it would run ahead of it); otherwise only its colours count.
 */
async function loadSnapshot() {
  try {
    const res = await fetch(withToken(`/v1/games/${league}/${gameId}`));
    if (!res.ok) return;
    const snap = await res.json();
    if (delay === 0 && (snap.seq ?? 0) >= (view.game?.seq ?? 0)) {
      view.game = games.apply({ type: 'snapshot', game: snap });
      noteWinprob(view.game);
    } else view.fetchedTeams = snap.teams;
    render();
  } catch {
    // The events keep the score right; the team colours stay the defaults.
  } finally {
    void loadWinprobHistory();
  }
}

let historyRequested = false;

/**
 * Seeds the chart with the game's win-probability series (best effort). Only for a game the daemon
 * knows: upstream may answer for any id, and that series would belong to no game shown.
 */
async function loadWinprobHistory() {
  if (historyRequested) return;
  historyRequested = true;
  const params = new URLSearchParams({ event_id: gameId, table: 'winprobability', format: 'json' });
  try {
    const res = await fetch(withToken(`/v1/ops/${operationName(league, 'summary')}`, params));
    if (!res.ok) return;
    let rows = await res.json();
    if (delay > 0) {
      // The series runs to the live moment: behind a spoiler delay, keep it only up to the newest
      // play this page shows, or not at all when that play is not in it.
      const last = view.game?.plays.at(-1)?.id;
      const end = last == null ? -1 : rows.findIndex((row) => row.play_id === last);
      rows = end < 0 ? [] : rows.slice(0, end + 1);
    }
    const merged = new Map();
    for (const row of rows) {
      if (row.play_id != null && row.home_win_percentage != null)
        merged.set(row.play_id, row.home_win_percentage);
    }
    for (const [k, v] of view.winprob) merged.set(k, v);
    view.winprob = merged;
    render();
  } catch {
    // The live stream still fills the chart from here on.
  }
}

const stale = createStaleWatch({
  game: { league, gameId },
  thresholdMs: staleAfterMs,
  onChange(reason) {
    view.stale = reason;
    render();
  },
});

/** Shows a whole snapshot of the game: the page's first paint's, or one its stream sends. */
function showSnapshot(snap) {
  view.game = games.apply({ type: 'snapshot', game: snap });
  noteWinprob(view.game);
  if (view.game.state === 'post') stale.finish();
  void loadWinprobHistory();
  render();
}

const subscribe = { leagues: [league], games: [gameId], snapshot: true };
if (delay > 0) subscribe.delay = delay;

document.getElementById('overlay').dataset.layout = layout;
$('waiting-id').textContent = gameId;
const first = firstPaintSnapshot();
if (first) showSnapshot(first);
else render();
openStream({
  subscribe,
  onState(connection) {
    view.connected = connection === 'open';
    stale.connected(view.connected);
    render();
  },
  onSnapshot(snap) {
    if (String(snap.gameId) !== gameId) return;
    showSnapshot(snap);
  },
  onEvent(event) {
    if (String(event.gameId) !== gameId) return;
    view.events += 1;
    const first = view.game === undefined;
    view.game = games.apply(event);
    if (event.type === 'winprob.changed') view.winprob.set(event.data.playId, event.data.homeWinPercentage);
    if (view.game.state === 'post') stale.finish();
    // The game's first sign of life on this page: fetch the snapshot for colours, status and plays.
    if (first) void loadSnapshot();
    render();
  },
});

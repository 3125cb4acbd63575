// The broadcast scorebug. Plain browser JavaScript served as is: no build step, no CDN.
// It subscribes to one game over the daemon's WebSocket with a snapshot, applies events as they
// come, and on any disconnect reconnects with backoff, resuming from the last offset it saw.
// Until the daemon has a snapshot or an event of the game, it only says it is waiting for it.
import { scorebugColors } from './colors.js';

const MAX_PLAYS = 5;
// Reconnect backoff: quick first retry (a restart takes a second or two), capped so a long outage
// does not hammer the server when it returns.
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 10_000;

const [, , league = '', gameId = ''] = location.pathname.split('/');
const query = new URLSearchParams(location.search);
const delay = Number(query.get('delay') ?? 0) || 0;
const token = query.get('token');
// On <html>: both it and <body> must drop their background for OBS to key the page out.
if (query.get('transparent') === '1') document.documentElement.classList.add('transparent');

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

const state = {
  connected: false,
  /** The daemon has shown the game exists (a snapshot or an event of it); until then: waiting. */
  ready: false,
  snapshot: null,
  /** Teams from event envelopes: abbreviations before a snapshot with colours has arrived. */
  teams: null,
  detail: '',
  /** Newest `seq` shown since the current subscription began (a snapshot's, or an event's). */
  seq: 0,
  score: { home: 0, away: 0 },
  period: null,
  clock: null,
  plays: [],
  playIds: new Set(),
  winprob: new Map(),
  lastOffset: null,
  events: 0,
};
window.__overlay = state;

function periodLabel(period) {
  if (!period) return '';
  if (period <= 4) return ['1st', '2nd', '3rd', '4th'][period - 1];
  return period === 5 ? 'OT' : `${period - 4}OT`;
}

function sideOf(teamId) {
  const teams = state.snapshot?.teams ?? state.teams;
  if (!teams || teamId == null) return null;
  if (String(teams.home.id) === String(teamId)) return 'home';
  if (String(teams.away.id) === String(teamId)) return 'away';
  return null;
}

function render() {
  const overlay = document.getElementById('overlay');
  overlay.dataset.state = state.connected ? 'live' : 'reconnecting';
  overlay.dataset.game = state.ready ? 'ready' : 'waiting';
  if (!state.ready) return;
  const teams = state.snapshot?.teams ?? state.teams;
  if (teams) {
    for (const side of ['home', 'away']) $(`${side}-abbr`).textContent = teams[side]?.abbreviation ?? '';
    // Envelope teams carry no colours: the stylesheet's defaults stand in until a snapshot comes.
    const colors = scorebugColors(teams.home, teams.away);
    const root = document.documentElement.style;
    for (const side of ['home', 'away']) {
      root.setProperty(`--${side}`, `#${colors[side].background}`);
      root.setProperty(`--${side}-text`, colors[side].text);
    }
    overlay.dataset.colors = colors.changed ?? 'own';
  }
  // A live game's detail repeats the clock ("6:27 - 1st Quarter"); others ("Halftime", "Final") say more.
  $('status').textContent = /^\d+(:\d\d|\.\d)\s*-/.test(state.detail) ? '' : state.detail;
  $('home-score').textContent = String(state.score.home);
  $('away-score').textContent = String(state.score.away);
  $('period').textContent = periodLabel(state.period);
  $('clock').textContent = state.clock ?? '';
  const list = $('plays');
  list.replaceChildren(
    ...state.plays
      .slice(-MAX_PLAYS)
      .reverse()
      .map((play) => {
        const li = document.createElement('li');
        li.dataset.playId = play.id;
        if (play.scoring_play) li.classList.add('scoring');
        const side = sideOf(play.team_id);
        if (side) li.classList.add(side);
        const when = document.createElement('span');
        when.className = 'when';
        when.textContent = `${periodLabel(play.period_number)} ${play.clock_display_value ?? ''}`;
        const text = document.createElement('span');
        text.textContent = play.text ?? '';
        li.append(when, text);
        return li;
      }),
  );
  renderWinprob();
}

function renderWinprob() {
  const points = [...state.winprob.values()];
  document.getElementById('overlay').dataset.winprob = points.length === 0 ? 'none' : 'shown';
  if (points.length === 0) return;
  // Home on top: y = 0 is a certain home win, 60 a certain away win, 30 a toss-up.
  const step = points.length > 1 ? 300 / (points.length - 1) : 0;
  const coords = points.map((p, i) => `${(i * step).toFixed(1)},${(60 - p * 60).toFixed(1)}`);
  const line = coords.join(' ');
  const area = `0,30 ${line} ${((points.length - 1) * step).toFixed(1)},30`;
  const chart = document.querySelector('[data-testid="winprob-chart"]');
  chart.querySelector('polyline').setAttribute('points', line);
  for (const polygon of chart.querySelectorAll('polygon')) polygon.setAttribute('points', area);
  const home = points[points.length - 1];
  const teams = state.snapshot?.teams ?? state.teams;
  // Quote the favourite, as broadcasts do: "ORL 91%" rather than "TOR 9%".
  const [abbr, pct] =
    home >= 0.5 ? [teams?.home.abbreviation ?? 'home', home] : [teams?.away.abbreviation ?? 'away', 1 - home];
  $('winprob-label').textContent = `${abbr} ${Math.round(pct * 100)}%`;
}

const sequenceOf = (play) => {
  const n = Number(play.sequence_number);
  return Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
};

function addPlay(play) {
  if (!play?.id) return;
  if (state.playIds.has(play.id)) {
    state.plays = state.plays.map((p) => (p.id === play.id ? play : p));
    return;
  }
  state.playIds.add(play.id);
  state.plays.push(play);
  // Game order, not arrival order: after a reconnect the daemon may resend older plays.
  state.plays.sort((a, b) => sequenceOf(a) - sequenceOf(b));
  // Keep memory flat on long games: only what the page shows plus a margin.
  if (state.plays.length > 50) {
    const dropped = state.plays.splice(0, state.plays.length - 50);
    for (const p of dropped) state.playIds.delete(p.id);
  }
}

/**
 * A snapshot from the stream describes the game as of `seq` and precedes the subscription's events,
 * so it replaces what is shown. One fetched over HTTP gives only its teams when events newer than it
 * are shown already, or when a spoiler delay holds the events back (it would run ahead of them).
 */
function applySnapshot(snap, fromStream) {
  if (!fromStream && (delay > 0 || (snap.seq ?? 0) < state.seq)) {
    state.snapshot = snap;
    return;
  }
  state.ready = true;
  state.snapshot = snap;
  state.seq = snap.seq ?? 0;
  state.detail = snap.status?.detail ?? '';
  state.score = { ...snap.score };
  state.period = snap.period;
  state.clock = snap.state === 'post' ? 'Final' : snap.clock;
  for (const play of snap.recentPlays ?? []) addPlay(play);
  if (snap.winProbability)
    state.winprob.set(snap.winProbability.playId, snap.winProbability.homeWinPercentage);
}

function applyEvent(event) {
  if (event.gameId != null && String(event.gameId) !== gameId) return;
  state.events += 1;
  if (event.offset) state.lastOffset = event.offset;
  // The snapshot already shows every event of the game up to its `seq`.
  if (typeof event.seq === 'number') {
    if (event.seq <= state.seq) return;
    state.seq = event.seq;
  }
  if (!state.ready) {
    state.ready = true;
    // The game's first event on this page: fetch the snapshot for colours, status and plays.
    void loadSnapshot();
  }
  if (event.teams?.home && event.teams?.away) state.teams = event.teams;
  const data = event.data ?? {};
  switch (event.type) {
    case 'score.changed':
      state.score = { ...data.score };
      if (data.period != null) state.period = data.period;
      if (data.clock != null) state.clock = data.clock;
      break;
    case 'play.added':
    case 'play.updated':
      addPlay(data.play);
      if (data.play?.period_number != null) state.period = data.play.period_number;
      if (data.play?.clock_display_value != null) state.clock = data.play.clock_display_value;
      break;
    case 'play.removed':
      state.plays = state.plays.filter((p) => p.id !== data.playId);
      state.playIds.delete(data.playId);
      break;
    case 'period.started':
      state.period = data.period;
      break;
    case 'winprob.changed':
      state.winprob.set(data.playId, data.homeWinPercentage);
      break;
    case 'game.ended':
      state.score = { ...data.score };
      state.clock = 'Final';
      break;
    case 'game.status':
      state.detail = data.detail ?? '';
      break;
  }
}

const withToken = (path, params = new URLSearchParams()) => {
  if (token) params.set('token', token);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
};

/** The game's current snapshot over HTTP, for a game that became known through an event. */
async function loadSnapshot() {
  try {
    const res = await fetch(withToken(`/v1/games/${league}/${gameId}`));
    if (!res.ok) return;
    applySnapshot(await res.json(), false);
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
    const res = await fetch(withToken(`/v1/ops/${league}_summary`, params));
    if (!res.ok) return;
    let rows = await res.json();
    if (delay > 0) {
      // The series runs to the live moment: behind a spoiler delay, keep it only up to the newest
      // play this page shows, or not at all when that play is not in it.
      const last = state.plays.at(-1)?.id;
      const end = last == null ? -1 : rows.findIndex((row) => row.play_id === last);
      rows = end < 0 ? [] : rows.slice(0, end + 1);
    }
    const merged = new Map();
    for (const row of rows) {
      if (row.play_id != null && row.home_win_percentage != null)
        merged.set(row.play_id, row.home_win_percentage);
    }
    for (const [k, v] of state.winprob) merged.set(k, v);
    state.winprob = merged;
    render();
  } catch {
    // The live stream still fills the chart from here on.
  }
}

let retryMs = RETRY_MIN_MS;

function connect() {
  const url = new URL('/v1/stream', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token) url.searchParams.set('token', token);
  const ws = new WebSocket(url);
  ws.addEventListener('open', () => {
    state.connected = true;
    retryMs = RETRY_MIN_MS;
    // `seq` compares events with the snapshot of this subscription only: a daemon restarted on an
    // empty memory bus numbers the game's events from 1 again.
    state.seq = 0;
    const sub = { op: 'subscribe', id: 'overlay', leagues: [league], games: [gameId], snapshot: true };
    if (delay > 0) sub.delay = delay;
    if (state.lastOffset) sub.since = state.lastOffset;
    ws.send(JSON.stringify(sub));
    render();
  });
  ws.addEventListener('message', (message) => {
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      return;
    }
    if (frame.type === 'snapshot' && frame.game) {
      applySnapshot(frame.game, true);
      void loadWinprobHistory();
    } else if (frame.type === 'event') applyEvent(frame.event ?? frame);
    else return;
    render();
  });
  ws.addEventListener('close', () => {
    state.connected = false;
    render();
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  });
}

$('waiting-id').textContent = gameId;
render();
connect();

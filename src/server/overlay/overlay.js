// The broadcast scorebug. Plain browser JavaScript served as is: no build step, no CDN.
// It subscribes to one game over the daemon's WebSocket with a snapshot, applies events as they
// come, and on any disconnect reconnects with backoff, resuming from the last offset it saw.

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
  snapshot: null,
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

const HEX = /^[0-9a-fA-F]{6}$/;

/** Black or white, whichever reads better on the team colour (WCAG relative luminance). */
function textOn(hex) {
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // 0.179 is where black and white text have equal contrast against the background.
  return luminance > 0.179 ? '#111111' : '#ffffff';
}

function sideOf(teamId) {
  const teams = state.snapshot?.teams;
  if (!teams || teamId == null) return null;
  if (String(teams.home.id) === String(teamId)) return 'home';
  if (String(teams.away.id) === String(teamId)) return 'away';
  return null;
}

function render() {
  const snap = state.snapshot;
  if (snap) {
    for (const side of ['home', 'away']) {
      const team = snap.teams[side];
      $(`${side}-abbr`).textContent = team.abbreviation;
      if (HEX.test(team.color ?? '')) {
        const root = document.documentElement.style;
        root.setProperty(`--${side}`, `#${team.color}`);
        root.setProperty(`--${side}-text`, textOn(team.color));
      }
    }
    // A live game's detail repeats the clock ("6:27 - 1st Quarter"); others ("Halftime", "Final") say more.
    const detail = snap.status?.detail ?? '';
    $('status').textContent = /^\d+(:\d\d|\.\d)\s*-/.test(detail) ? '' : detail;
  }
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
  document.getElementById('overlay').dataset.state = state.connected ? 'live' : 'reconnecting';
}

function renderWinprob() {
  const points = [...state.winprob.values()];
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
  const teams = state.snapshot?.teams;
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

function applySnapshot(snap) {
  state.snapshot = snap;
  state.score = { ...snap.score };
  state.period = snap.period;
  state.clock = snap.state === 'post' ? 'Final' : snap.clock;
  for (const play of snap.recentPlays ?? []) addPlay(play);
  if (snap.winProbability)
    state.winprob.set(snap.winProbability.playId, snap.winProbability.homeWinPercentage);
}

function applyEvent(event) {
  state.events += 1;
  if (event.offset) state.lastOffset = event.offset;
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
      if (state.snapshot) state.snapshot.status = { ...state.snapshot.status, detail: data.detail };
      break;
  }
}

/** Seeds the chart with the game's whole win-probability series (best effort). */
async function loadWinprobHistory() {
  const params = new URLSearchParams({ event_id: gameId, table: 'winprobability', format: 'json' });
  if (token) params.set('token', token);
  try {
    const res = await fetch(`/v1/ops/${league}_summary?${params}`);
    if (!res.ok) return;
    const rows = await res.json();
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
    if (frame.type === 'snapshot' && frame.game) applySnapshot(frame.game);
    else if (frame.type === 'event') applyEvent(frame.event ?? frame);
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

render();
connect();
void loadWinprobHistory();

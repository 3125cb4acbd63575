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
if (query.get('transparent') === '1') document.body.classList.add('transparent');

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

function render() {
  const snap = state.snapshot;
  if (snap) {
    for (const side of ['home', 'away']) {
      const team = snap.teams[side];
      $(`${side}-abbr`).textContent = team.abbreviation;
      if (team.color) document.documentElement.style.setProperty(`--${side}`, `#${team.color}`);
    }
    $('status').textContent = snap.status?.detail ?? '';
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
  const line = document.querySelector('[data-testid="winprob-chart"] polyline');
  if (points.length === 0) return;
  const step = points.length > 1 ? 300 / (points.length - 1) : 0;
  line.setAttribute(
    'points',
    points.map((p, i) => `${(i * step).toFixed(1)},${(60 - p * 60).toFixed(1)}`).join(' '),
  );
  const last = points[points.length - 1];
  const home = state.snapshot?.teams.home.abbreviation ?? 'home';
  $('winprob-label').textContent = `${home} ${(last * 100).toFixed(1)}%`;
}

function addPlay(play) {
  if (!play?.id) return;
  if (state.playIds.has(play.id)) {
    state.plays = state.plays.map((p) => (p.id === play.id ? play : p));
    return;
  }
  state.playIds.add(play.id);
  state.plays.push(play);
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
  state.clock = snap.clock;
  for (const play of snap.recentPlays ?? []) addPlay(play);
  if (snap.winProbability) state.winprob.set(snap.winProbability.playId, snap.winProbability.homeWinPercentage);
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
      if (row.play_id != null && row.home_win_percentage != null) merged.set(row.play_id, row.home_win_percentage);
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

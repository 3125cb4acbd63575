// The slate ticker: every game of the day of one league (`/overlay/<league>/ticker`) or both
// (`/overlay/ticker`), live games first, then the games to come, then the finished ones.
// The day's list comes from the daemon's scoreboard operation (refreshed every half minute);
// scores, periods and statuses of the games in progress move live from the stream.
import { gameState } from '/client/courtside.js';
import { parseHex } from './colors.js';
import {
  applyPageOptions,
  byTestId as $,
  finalLabel,
  intParam,
  operationName,
  periodLabel,
  segments,
  withToken,
} from './params.js';
import { createStaleWatch } from './stale.js';
import { openStream } from './stream.js';

const LEAGUE_NAMES = { mens: 'NBA', womens: 'WNBA', 'mens-college': 'NCAAM', 'womens-college': 'NCAAW' };
const leagues = segments[0] === 'ticker' ? ['mens', 'womens'] : [segments[0]];
// Pixels a second: a cell (~260 px) passes in about four seconds, readable at a glance.
const speed = intParam('speed', 60);
// The day's games change slowly (a game starts, one is added); live scores come from the stream.
const SLATE_EVERY_MS = 30_000;
// Connection loss shown after the same delay as on the scorebug.
const STALE_AFTER_MS = 15_000;
applyPageOptions();

/** The day's games from the scoreboard: `${league}:${gameId}` → the game as the ticker shows it. */
const slate = new Map();
/** The games the stream has spoken of, as the client library's reducer holds them. */
const live = gameState();
const state = { connected: false, stale: '', slates: 0, events: 0 };
window.__ticker = { state, slate, live };

const keyOf = (league, id) => `${league}:${id}`;
const ORDER = { in: 0, pre: 1, post: 2 };

function fromRow(league, row) {
  const side = (s) => ({
    id: row[`${s}_id`],
    abbreviation: row[`${s}_abbreviation`] ?? '',
    color: parseHex(row[`${s}_color`]),
    score: row[`${s}_score`] == null ? 0 : Number(row[`${s}_score`]),
  });
  return {
    league,
    id: String(row.game_id),
    date: row.date ?? null,
    state: row.status_type_state ?? 'pre',
    period: row.status_period ?? null,
    clock: row.status_display_clock ?? null,
    detail: row.status_type_short_detail ?? row.status_type_detail ?? '',
    home: side('home'),
    away: side('away'),
  };
}

/** A game from the stream, with the scoreboard's colours and date where the stream has none. */
function fromLive(game, listed) {
  const side = (s) => ({
    id: game.teams[s].id,
    abbreviation: game.teams[s].abbreviation,
    color: parseHex(game.teams[s].color) ?? listed?.[s].color ?? null,
    score: game.score[s],
  });
  return {
    league: game.league,
    id: String(game.gameId),
    date: game.date ?? listed?.date ?? null,
    // A game the stream last saw before it began may have begun since: the scoreboard knows.
    state: game.state === 'pre' && listed ? listed.state : game.state,
    period: game.period,
    clock: game.clock,
    detail: game.status?.detail ?? listed?.detail ?? '',
    home: side('home'),
    away: side('away'),
  };
}

/** Every game of the day: the stream's view of a game wins over the scoreboard's, unless the scoreboard has it final. */
function shownGames() {
  const out = new Map();
  for (const [key, listed] of slate) out.set(key, listed);
  for (const game of live.list()) {
    const key = keyOf(game.league, game.gameId);
    const listed = slate.get(key);
    // A finished game the day's board no longer lists belongs to another day.
    if (!listed && game.state === 'post' && state.slates > 0) continue;
    out.set(key, listed?.state === 'post' && game.state !== 'post' ? listed : fromLive(game, listed));
  }
  return [...out.values()];
}

function detailOf(game) {
  if (game.state === 'post') return finalLabel(game.league, game.period);
  if (game.state === 'pre') {
    const at = game.date ? new Date(game.date) : null;
    return at && !Number.isNaN(at.getTime())
      ? at.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' })
      : game.detail;
  }
  // Halftime and end-of-period details say more than a clock at 0.0 (a live "4:12 - 2nd Half" does not).
  if (/^(halftime|end of)/i.test(game.detail ?? '')) return game.detail;
  return `${periodLabel(game.league, game.period)} ${game.clock ?? ''}`.trim();
}

function sorted() {
  return shownGames().sort(
    (a, b) =>
      ORDER[a.state] - ORDER[b.state] ||
      String(a.date ?? '').localeCompare(String(b.date ?? '')) ||
      a.league.localeCompare(b.league) ||
      a.id.localeCompare(b.id),
  );
}

function cell(game) {
  const li = document.createElement('li');
  li.className = 'game';
  li.dataset.state = game.state;
  li.dataset.gameId = game.id;
  li.dataset.league = game.league;
  if (leagues.length > 1) {
    const tag = document.createElement('span');
    tag.className = 'league';
    tag.textContent = LEAGUE_NAMES[game.league] ?? game.league;
    li.append(tag);
  }
  const diff = game.home.score - game.away.score;
  for (const side of ['away', 'home']) {
    const team = game[side];
    const span = document.createElement('span');
    span.className = `side ${side}`;
    if (game.state !== 'pre' && (side === 'home' ? diff < 0 : diff > 0)) span.classList.add('trailing');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    if (team.color) swatch.style.background = `#${team.color}`;
    const abbr = document.createElement('span');
    abbr.className = 'abbr';
    abbr.textContent = team.abbreviation;
    const score = document.createElement('span');
    score.className = 'score';
    score.textContent = String(team.score);
    span.append(swatch, abbr, score);
    li.append(span);
  }
  const detail = document.createElement('span');
  detail.className = 'detail';
  detail.textContent = detailOf(game);
  li.append(detail);
  return li;
}

let shownCount = -1;

function render() {
  const root = document.getElementById('ticker');
  root.dataset.state = state.connected ? 'live' : 'reconnecting';
  root.dataset.stale = state.stale;
  const list = sorted();
  root.dataset.games = String(list.length);
  const track = $('ticker-track');
  const first = $('ticker-games');
  first.replaceChildren(...list.map(cell));
  // Scrolling: the list twice in a row, the track moved by one list's width, for a seamless loop.
  const scrolling = speed > 0 && list.length > 0 && first.scrollWidth > track.parentElement.clientWidth;
  root.dataset.scrolling = scrolling ? '1' : '0';
  const copies = track.querySelectorAll('.ticker-games');
  if (scrolling) {
    const copy = copies[1] ?? first.cloneNode(false);
    copy.removeAttribute('data-testid');
    copy.setAttribute('aria-hidden', 'true');
    copy.replaceChildren(...list.map(cell));
    if (!copies[1]) track.append(copy);
    // A new duration restarts nothing but the pace; set it only when the strip's length changes.
    if (list.length !== shownCount)
      track.style.setProperty('--ticker-duration', `${first.scrollWidth / speed}s`);
  } else if (copies[1]) copies[1].remove();
  shownCount = list.length;
}

async function loadSlate() {
  await Promise.all(
    leagues.map(async (league) => {
      try {
        const res = await fetch(withToken(`/v1/ops/${operationName(league, 'scoreboard')}`));
        if (!res.ok) return;
        const rows = await res.json();
        // The board is the day's list: games it no longer lists (yesterday's) leave the ticker.
        for (const [key, game] of slate) if (game.league === league) slate.delete(key);
        for (const row of rows) {
          const game = fromRow(league, row);
          slate.set(keyOf(league, game.id), game);
        }
      } catch {
        // The stream keeps the games in progress moving; the next round tries again.
      }
    }),
  );
  state.slates += 1;
  render();
}

const stale = createStaleWatch({
  game: { leagues },
  thresholdMs: STALE_AFTER_MS,
  onChange(reason) {
    state.stale = reason;
    render();
  },
});

$('ticker-label').textContent = leagues.map((l) => LEAGUE_NAMES[l] ?? l).join(' · ');
render();
void loadSlate();
setInterval(loadSlate, SLATE_EVERY_MS);
openStream({
  subscribe: {
    leagues,
    snapshot: true,
    types: ['game.started', 'game.status', 'game.ended', 'period.started', 'score.changed'],
  },
  onState(connection) {
    state.connected = connection === 'open';
    stale.connected(state.connected);
    render();
  },
  onSnapshot(snap) {
    live.apply({ type: 'snapshot', game: snap });
    render();
  },
  onEvent(event) {
    state.events += 1;
    live.apply(event);
    render();
  },
});

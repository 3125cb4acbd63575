// Lower thirds that fire on moments of a game: a lead change, a run, a close finish, a player's
// 30 points, the final score, an upset in the making. The moments are the alert rules' (the same
// rules as the alert worker), computed by the daemon; the page asks for them `through` the newest
// event its own stream has brought, so a spoiler `delay` holds them back like everything else.
// One card at a time: moments queue, and each waits for the one before it to leave.
import { scorebugColors } from './colors.js';
import {
  applyPageOptions,
  byTestId as $,
  finalLabel,
  intParam,
  periodLabel,
  query,
  segments,
  withToken,
} from './params.js';
import { createStaleWatch } from './stale.js';
import { openStream } from './stream.js';

const [league = '', gameId = ''] = segments;
const delay = intParam('delay', 0);
const holdMs = intParam('hold', 8) * 1000;
// The card's slide out (lower-third.css) and a breath before the next one.
const LEAVE_MS = 450;
const GAP_MS = 400;
// Events arrive in bursts (a poll's plays): ask once the burst is over.
const ASK_AFTER_MS = 250;
const STALE_AFTER_MS = 15_000;
// The rules' parameters go on to the daemon's moments: `rules` and `<rule>.<setting>` (the only
// dotted names: the server refused any parameter the page does not take before serving it).
const isRuleParam = (name) => name === 'rules' || name.includes('.');
applyPageOptions();

const RULE_LABELS = {
  lead_change: 'Lead change',
  run: 'Scoring run',
  close_game: 'Close game',
  player_points: 'Milestone',
  final_score: 'Final',
  upset_watch: 'Upset watch',
  upset: 'Upset',
};

const state = {
  connected: false,
  teams: null,
  /** Ids of the events this page received live: only their moments are shown. */
  received: new Set(),
  through: null,
  /** Moments already known (shown, queued, or from before the page's live events). */
  known: new Set(),
  queue: [],
  current: null,
  shown: [],
  asks: 0,
};
window.__lowerThird = state;

function headline(moment) {
  const d = moment.details ?? {};
  const team = (side) => moment.teams?.[side]?.abbreviation ?? side;
  switch (moment.rule) {
    case 'lead_change':
      return `${d.leader ?? ''} take the lead`;
    case 'run':
      return `${d.team ?? ''} on a ${d.points ?? ''}-0 run`;
    case 'close_game': {
      const margin = Math.abs(moment.score.home - moment.score.away);
      return margin === 0 ? 'All square late' : `A ${margin}-point game late`;
    }
    case 'player_points':
      return `${d.name ?? 'A player'}: ${d.points ?? d.threshold} points`;
    case 'final_score': {
      const winner = d.winner === 'home' || d.winner === 'away' ? team(d.winner) : null;
      return winner ? `${winner} win` : 'Final';
    }
    case 'upset_watch':
      return `${d.team ?? ''} ${Math.round(Number(d.probability ?? 0) * 100)}% to win`;
    case 'upset':
      return moment.moment === 'final'
        ? `${d.underdog ?? ''} beat #${d.favouriteRank ?? ''} ${d.favourite ?? ''}`
        : `${d.underdog ?? ''} lead #${d.favouriteRank ?? ''} ${d.favourite ?? ''} late`;
    default:
      return moment.rule;
  }
}

function show(moment) {
  state.current = moment;
  state.shown.push(moment.id);
  const teams = state.teams ?? moment.teams;
  const colors = scorebugColors(teams.home, teams.away);
  const root = document.documentElement.style;
  for (const side of ['home', 'away']) root.setProperty(`--${side}`, `#${colors[side].background}`);
  $('card-rule').textContent = RULE_LABELS[moment.rule] ?? moment.rule;
  $('card-headline').textContent = headline(moment);
  $('card-away').textContent = `${moment.teams.away.abbreviation} ${moment.score.away}`;
  $('card-home').textContent = `${moment.teams.home.abbreviation} ${moment.score.home}`;
  $('card-when').textContent =
    moment.rule === 'final_score'
      ? finalLabel(league, moment.period)
      : [periodLabel(league, moment.period), moment.clock].filter(Boolean).join(' ');
  // The rule's line ("BOS 97 - LAL 98, 2:10 4th: lead change. <the play>") less what the card
  // already shows: the score line, and the rule's own sentence when the play follows it. A
  // final's line is the score line alone.
  const cut = moment.rule === 'final_score' ? -1 : moment.text.indexOf(': ');
  const rest = cut < 0 ? '' : moment.text.slice(cut + 2);
  const sentence = rest.indexOf('. ');
  $('card-text').textContent = sentence < 0 ? rest : rest.slice(sentence + 2);
  const card = document.getElementById('lower-third');
  card.dataset.showing = moment.id;
  card.dataset.rule = moment.rule;
  setTimeout(() => {
    card.dataset.showing = '';
    setTimeout(() => {
      state.current = null;
      next();
    }, LEAVE_MS + GAP_MS);
  }, holdMs);
}

function next() {
  if (state.current || state.queue.length === 0) return;
  show(state.queue.shift());
}

let asking = false;
let askAgain = false;
let askTimer = null;

async function ask() {
  if (asking) {
    askAgain = true;
    return;
  }
  asking = true;
  try {
    const params = new URLSearchParams();
    for (const [name, value] of query) if (isRuleParam(name)) params.set(name, value);
    params.set('through', state.through);
    const res = await fetch(withToken(`/overlay/${league}/${gameId}/moments`, params));
    if (!res.ok) return;
    const body = await res.json();
    state.asks += 1;
    for (const moment of body.moments ?? []) {
      if (state.known.has(moment.id)) continue;
      state.known.add(moment.id);
      // A moment of an event the page did not receive live (from before it opened) is old news.
      if (state.received.has(moment.eventId)) state.queue.push(moment);
    }
    next();
  } catch {
    // The next event asks again.
  } finally {
    asking = false;
    if (askAgain) {
      askAgain = false;
      void ask();
    }
  }
}

const stale = createStaleWatch({
  game: { league, gameId },
  thresholdMs: STALE_AFTER_MS,
  onChange(reason) {
    document.getElementById('lower-third').dataset.stale = reason;
  },
});

const subscribe = { leagues: [league], games: [gameId], snapshot: true };
if (delay > 0) subscribe.delay = delay;
openStream({
  subscribe,
  onState(connection) {
    state.connected = connection === 'open';
    document.getElementById('lower-third').dataset.state = state.connected ? 'live' : 'reconnecting';
    stale.connected(state.connected);
  },
  onSnapshot(snap) {
    state.teams = snap.teams;
  },
  onEvent(event) {
    if (String(event.gameId) !== gameId) return;
    if (event.teams && !state.teams) state.teams = event.teams;
    state.received.add(event.id);
    if (event.offset) state.through = event.offset;
    clearTimeout(askTimer);
    askTimer = setTimeout(() => void ask(), ASK_AFTER_MS);
  },
});

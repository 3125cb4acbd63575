// @ts-check
// The state of each game as a client sees it, rebuilt from a subscription's snapshots and
// events: the same fields as the daemon's `GET /v1/games/<league>/<id>`, plus every play seen.
// Pure functions over plain objects, so a page, a terminal feed and a test reduce alike.

/** Plays the daemon keeps in a snapshot's `recentPlays` (streams/game-diff.ts SNAPSHOT_PLAYS). */
export const RECENT_PLAYS = 20;

/**
 * @typedef {Record<string, any>} Obj
 * @typedef {{ maxPlays?: number }} ReduceOptions
 */

/** @param {unknown} v @returns {v is Obj} */
const isObj = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** @param {Obj} ref */
const teamOf = (ref) => ({
  id: String(ref.id),
  abbreviation: ref.abbreviation ?? '',
  ...(ref.rank !== undefined ? { rank: ref.rank } : {}),
  displayName: null,
  color: null,
  alternateColor: null,
  logo: null,
});

/**
 * Envelope teams (id and abbreviation) merged into what is known: a snapshot's colours and
 * names stay while the team is the same one.
 * @param {Obj | undefined} known
 * @param {Obj} refs
 */
function mergeTeams(known, refs) {
  if (!isObj(refs) || !isObj(refs.home) || !isObj(refs.away)) return known;
  /** @param {'home' | 'away'} side */
  const one = (side) => {
    const have = known?.[side];
    const ref = refs[side];
    return have && String(have.id) === String(ref.id)
      ? {
          ...have,
          abbreviation: ref.abbreviation ?? have.abbreviation,
          // The engine puts a college team's poll rank on every event; older daemons' events have none.
          ...(ref.rank !== undefined ? { rank: ref.rank } : {}),
        }
      : teamOf(ref);
  };
  return { home: one('home'), away: one('away') };
}

/**
 * A game known only from an event so far: what a snapshot of a game before its first event says.
 * @param {Obj} event
 */
function blankGame(event) {
  return {
    league: event.league,
    gameId: String(event.gameId),
    seq: 0,
    state: 'pre',
    status: { name: null, detail: null, description: null },
    teams: mergeTeams(undefined, event.teams) ?? {
      home: teamOf({ id: '', abbreviation: '' }),
      away: teamOf({ id: '', abbreviation: '' }),
    },
    score: { home: 0, away: 0 },
    period: null,
    periodLabel: null,
    overtime: false,
    clock: null,
    date: null,
    scoreboard: null,
    recentPlays: [],
    winProbability: null,
    situation: null,
    updatedAt: event.at ?? null,
    plays: [],
  };
}

/**
 * @param {Obj[]} plays
 * @param {number} maxPlays
 */
function withPlays(plays, maxPlays) {
  const kept = plays.length > maxPlays ? plays.slice(plays.length - maxPlays) : plays;
  return { plays: kept, recentPlays: kept.slice(-RECENT_PLAYS) };
}

/**
 * Where a play goes: after the play named by `after` (null: first); without `after` (events of
 * older daemons), at `index`; else at the end, where new plays land. A play named by `after`
 * that this client never held (older than its first snapshot) also sends it to the end.
 * @param {Obj[]} plays the list without the play
 * @param {string | null | undefined} after
 * @param {number | undefined} index
 */
function positionOf(plays, after, index) {
  if (after === null) return 0;
  if (after !== undefined) {
    const i = plays.findIndex((p) => p.id === after);
    return i >= 0 ? i + 1 : plays.length;
  }
  if (typeof index === 'number' && index >= 0 && index <= plays.length) return index;
  return plays.length;
}

/**
 * A snapshot replaces every field it carries. Its plays are the newest ones: the plays held
 * from before its first one stay in front of them, so a game followed from its start keeps
 * its whole list across a resume gap.
 * @param {Obj | undefined} prev
 * @param {Obj} snap
 * @param {number} maxPlays
 */
function applySnapshot(prev, snap, maxPlays) {
  const recent = Array.isArray(snap.recentPlays) ? snap.recentPlays : [];
  /** @type {Obj[]} */
  let older = [];
  // A snapshot behind what is shown (a spoiler delay's rewind, a reset log) starts the list over.
  if (prev && prev.plays.length > 0 && (snap.seq ?? 0) >= prev.seq) {
    const ids = new Set(recent.map((/** @type {Obj} */ p) => p.id));
    const first = recent[0]?.id;
    const cut = first == null ? -1 : prev.plays.findIndex((/** @type {Obj} */ p) => p.id === first);
    older = (cut >= 0 ? prev.plays.slice(0, cut) : prev.plays).filter(
      (/** @type {Obj} */ p) => !ids.has(p.id),
    );
  }
  const plays = withPlays([...older, ...recent], maxPlays);
  const game = { ...snap, situation: snap.situation ?? null, ...plays, recentPlays: recent.slice() };
  covered.set(game, { seq: typeof snap.seq === 'number' ? snap.seq : 0, at: Date.parse(snap.updatedAt) });
  return game;
}

/**
 * What a game's last snapshot covers: its `seq` and its moment (`updatedAt`). A replayed event
 * the snapshot includes has both at or below them, and is skipped. Both, not the seq alone: a
 * daemon restarted on an empty memory bus numbers a game's events from 1 again, and those came
 * after the snapshot. Kept beside the state, which stays exactly the daemon's shape.
 * @type {WeakMap<Obj, { seq: number, at: number }>}
 */
const covered = new WeakMap();

/**
 * @param {Obj} game
 * @param {Obj} event
 */
function isCovered(game, event) {
  const by = covered.get(game);
  if (!by || typeof event.seq !== 'number' || event.seq > by.seq) return false;
  const at = Date.parse(event.at);
  return !(at > by.at);
}

/**
 * Whether play `id` comes before play `than`. The upstream numbers plays `<gameId><sequence>`,
 * and its win-probability list keeps entries of plays its play list has dropped, so the ids say
 * it best; plays with other ids go by their places in the list.
 * @param {Obj[]} plays
 * @param {unknown} id
 * @param {unknown} than
 */
function isBehind(plays, id, than) {
  if (than == null || id === than) return false;
  if (typeof id === 'string' && typeof than === 'string' && /^\d+$/.test(id) && /^\d+$/.test(than))
    return id.length < than.length || (id.length === than.length && id < than);
  const a = plays.findIndex((p) => p.id === id);
  const b = a < 0 ? -1 : plays.findIndex((p) => p.id === than);
  return a >= 0 && b >= 0 && a < b;
}

/**
 * One event applied to its game. An event the game's last snapshot already includes changes
 * nothing.
 * @param {Obj | undefined} prev
 * @param {Obj} event
 * @param {number} maxPlays
 * @returns {Obj}
 */
function applyEvent(prev, event, maxPlays) {
  const game = prev ?? blankGame(event);
  if (isCovered(game, event)) return game;
  const data = isObj(event.data) ? event.data : {};
  /** @type {Obj} */
  const next = {
    ...game,
    seq: typeof event.seq === 'number' ? event.seq : game.seq,
    updatedAt: event.at ?? game.updatedAt,
    teams: mergeTeams(game.teams, event.teams) ?? game.teams,
  };
  switch (event.type) {
    case 'game.started':
      next.date = data.date ?? next.date;
      next.teams = mergeTeams(next.teams, { home: data.home, away: data.away }) ?? next.teams;
      break;
    case 'game.status':
      next.state = data.state;
      next.status = {
        name: data.name ?? null,
        detail: data.detail ?? null,
        description: data.description ?? null,
      };
      break;
    case 'game.ended':
      next.state = 'post';
      next.score = { ...data.score };
      // A final's header shows no clock (every recorded final): the daemon's state has none either.
      next.clock = null;
      if (typeof data.periods === 'number' && data.periods > 0) next.period = data.periods;
      break;
    case 'period.started':
      next.period = data.period;
      // The engine names the period for the game's league; an older daemon's events have no name.
      if (typeof data.label === 'string') next.periodLabel = data.label;
      if (typeof data.overtime === 'boolean') next.overtime = data.overtime;
      break;
    case 'score.changed':
      next.score = { ...data.score };
      if (data.period != null) next.period = data.period;
      if (data.clock != null) next.clock = data.clock;
      break;
    case 'play.added':
    case 'play.updated': {
      const play = data.play;
      if (!isObj(play) || play.id == null) break;
      const at = game.plays.findIndex((/** @type {Obj} */ p) => p.id === play.id);
      /** @type {Obj[]} */
      let plays;
      if (event.type === 'play.updated' && at >= 0 && data.after === undefined && !data.moved) {
        plays = game.plays.slice();
        plays[at] = play;
      } else if (event.type === 'play.updated' && at < 0 && data.after === undefined) {
        // A play older than what this client holds: nothing to show it beside.
        break;
      } else {
        const without =
          at >= 0 ? game.plays.filter((/** @type {Obj} */ p) => p.id !== play.id) : game.plays.slice();
        const pos = positionOf(without, data.after, data.index);
        without.splice(pos, 0, play);
        plays = without;
        // The clock the scorebug shows moves with the newest play.
        if (pos === without.length - 1 && play.clock_display_value != null)
          next.clock = play.clock_display_value;
      }
      Object.assign(next, withPlays(plays, maxPlays));
      break;
    }
    case 'play.removed': {
      const plays = game.plays.filter((/** @type {Obj} */ p) => p.id !== data.playId);
      if (plays.length !== game.plays.length) Object.assign(next, withPlays(plays, maxPlays));
      break;
    }
    case 'winprob.changed':
      // The daemon shows the value of the upstream list's newest play; a corrected older play's
      // value may come after it, and must not take its place.
      if (isBehind(game.plays, data.playId, game.winProbability?.playId)) break;
      next.winProbability = {
        playId: data.playId,
        homeWinPercentage: data.homeWinPercentage,
        tiePercentage: data.tiePercentage ?? null,
      };
      break;
    case 'situation.changed':
      next.situation = data.situation ?? null;
      break;
    default:
      // A type this version does not know: its seq still counts as applied.
      break;
  }
  const by = covered.get(game);
  if (by) covered.set(next, by);
  return next;
}

/**
 * What a reducer accepts: an event, a snapshot message (`{ type: 'snapshot', game }`), or a bare
 * snapshot. Anything else (a gap notice) returns `prev` unchanged.
 * @param {Obj | undefined} prev
 * @param {Obj} input
 * @param {ReduceOptions} [options]
 * @returns {Obj | undefined}
 */
export function reduceGame(prev, input, options = {}) {
  const maxPlays = options.maxPlays ?? Infinity;
  if (!isObj(input)) return prev;
  if (input.type === 'snapshot' && isObj(input.game)) return applySnapshot(prev, input.game, maxPlays);
  if (Array.isArray(input.recentPlays) && typeof input.gameId === 'string' && input.data === undefined)
    return applySnapshot(prev, input, maxPlays);
  if (typeof input.type === 'string' && input.gameId != null && input.league != null)
    return applyEvent(prev, input, maxPlays);
  return prev;
}

/**
 * The key of an input's game, or undefined for input about no game.
 * @param {Obj} input
 */
function keyOf(input) {
  const game = input.type === 'snapshot' && isObj(input.game) ? input.game : input;
  if (game.league == null || game.gameId == null) return undefined;
  return `${game.league}:${game.gameId}`;
}

/**
 * The games of one or more subscriptions, each a plain object replaced (never mutated) on every
 * change, so a renderer can compare references.
 * @param {ReduceOptions} [options]
 */
export function gameState(options = {}) {
  if (
    options.maxPlays !== undefined &&
    !(Number.isInteger(options.maxPlays) && options.maxPlays >= RECENT_PLAYS)
  )
    throw new TypeError(
      `gameState: maxPlays must be an integer of at least ${RECENT_PLAYS}, got ${String(options.maxPlays)}`,
    );
  /** @type {Map<string, Obj>} */
  const games = new Map();
  return {
    /**
     * Applies a snapshot or event; returns its game's state (undefined for input about no game).
     * @param {Obj} input
     */
    apply(input) {
      if (!isObj(input)) return undefined;
      const key = keyOf(input);
      if (key === undefined) return undefined;
      const next = reduceGame(games.get(key), input, options);
      if (next) games.set(key, next);
      return next;
    },
    /**
     * @param {string} league
     * @param {string} gameId
     */
    get(league, gameId) {
      return games.get(`${league}:${gameId}`);
    },
    list() {
      return [...games.values()];
    },
    /**
     * Forgets a game (a finished one a long-running feed no longer shows).
     * @param {string} league
     * @param {string} gameId
     */
    delete(league, gameId) {
      return games.delete(`${league}:${gameId}`);
    },
  };
}

/**
 * A state without the client's own `plays` list: the shape of `GET /v1/games/<league>/<id>`.
 * @param {Obj} game
 */
export function toSnapshot(game) {
  const { plays: _plays, ...snapshot } = game;
  return snapshot;
}

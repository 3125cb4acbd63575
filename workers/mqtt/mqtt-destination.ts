import { randomBytes } from 'node:crypto';
import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';
import type { League } from '../../src/core/leagues.js';
import type { Logger } from '../../src/core/log.js';
import type { GameEvent } from '../../src/model/events.js';
import type { Alert, GameRuleState, Side } from '../alerts/types.js';
import type { MqttSubscriber } from '../rules-file.js';
import { OFFLINE, ONLINE, discoveryMessages, topicsOf } from './discovery.js';
import { MqttLink } from './link.js';
import { entityEvents, nextView, teamState, type GameView, type TeamState } from './team-state.js';

export interface MqttDestinationOptions {
  commands: Redis;
  /** The bot's key prefix: the views, retained states and sent marks live under it. */
  botPrefix: string;
  /** The rules file's leagues, for a subscriber that names none. */
  leagues: readonly League[];
  /** Moments older than this are not announced (a replay must not flash the lights); states are. */
  staleAfterSeconds: number;
  logger: Logger;
  now?: () => number;
  /** Reconnection backoff: first wait and ceiling (ms). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

// A game's view outlives any replay of it; a sent mark, as a fired alert's, a week.
const VIEW_TTL_SECONDS = 7 * 24 * 3600;
const SENT_TTL_SECONDS = 7 * 24 * 3600;

/**
 * One MQTT subscriber. In `homeassistant` mode, each followed team is a Home Assistant device
 * (discovery configs on every connection), its state a retained JSON topic published on every
 * change, its moments an event entity. In `plain` mode, every event and alert as JSON on topics per
 * game and per team, and each game's state retained. Called by the alert worker in each game's seq
 * order, under the game's lock.
 *
 * What outlives a broker outage or a worker restart is in Redis: each game's view, and every
 * retained topic's newest payload, published again on each connection. A moment is announced once:
 * a mark per subscriber and event (set before publishing) keeps a re-evaluation from repeating it,
 * and the link keeps it until the broker acknowledges it.
 */
export class MqttDestination {
  private readonly link: MqttLink;
  private readonly topics: ReturnType<typeof topicsOf>;
  private readonly keys: { retained: string; view: (league: string, gameId: string) => string; sent: string };
  private readonly now: () => number;

  constructor(
    readonly sub: MqttSubscriber,
    private readonly options: MqttDestinationOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.topics = topicsOf(sub);
    const base = `${options.botPrefix}mqtt:${sub.id}:`;
    this.keys = {
      retained: `${base}retained`,
      view: (league, gameId) => `${base}view:${league}:${gameId}`,
      sent: `${base}sent:`,
    };
    this.link = new MqttLink({
      url: sub.url,
      username: sub.username,
      password: sub.password,
      // Unique per process: two processes of one bot under one id would push each other off.
      clientId: `${sub.clientId ?? `courtside-${sub.id}`}-${randomBytes(3).toString('hex')}`,
      qos: sub.qos,
      will: { topic: this.topics.availability, payload: OFFLINE, retain: sub.retain },
      onConnect: () => void this.announce(),
      subscriptions:
        sub.mode === 'homeassistant'
          ? [{ topic: this.topics.haStatus, onMessage: (p) => p === ONLINE && void this.announce() }]
          : [],
      logger: options.logger,
      name: sub.id,
      minBackoffMs: options.minBackoffMs,
      maxBackoffMs: options.maxBackoffMs,
    });
  }

  start(): void {
    this.link.start();
  }

  close(): Promise<void> {
    return this.link.close({ topic: this.topics.availability, payload: OFFLINE });
  }

  /**
   * Availability, discovery configs and every retained topic's newest payload: on each connection,
   * and when Home Assistant says it (re)started.
   */
  private async announce(): Promise<void> {
    try {
      this.link.publish(this.topics.availability, ONLINE, this.sub.retain);
      if (this.sub.mode === 'homeassistant') {
        for (const team of this.sub.teams ?? []) {
          for (const m of discoveryMessages(this.sub, team)) {
            this.link.publish(m.topic, JSON.stringify(m.config), this.sub.retain);
          }
        }
      }
      const retained = await this.options.commands.hgetall(this.keys.retained);
      for (const [topic, payload] of Object.entries(retained))
        this.link.publish(topic, payload, this.sub.retain);
    } catch (err) {
      this.options.logger.warn(
        { subscriber: this.sub.id, err: (err as Error).message },
        'mqtt announce failed',
      );
    }
  }

  /** Takes one evaluated event: the rule state before and after it, and the alerts it fired. */
  async apply(
    event: GameEvent,
    rulesBefore: GameRuleState | undefined,
    rulesAfter: GameRuleState,
    alerts: readonly Alert[],
  ): Promise<void> {
    if (!(this.sub.leagues ?? this.options.leagues).includes(event.league)) return;
    const sides = this.followedSides(event);
    if (sides.length === 0) return;
    const viewKey = this.keys.view(event.league, event.gameId);
    const stored = await this.options.commands.get(viewKey);
    const before = stored ? (JSON.parse(stored) as GameView) : undefined;
    const view = nextView(before, event, rulesAfter);
    const retained: Record<string, string> = {};
    if (this.sub.mode === 'homeassistant') {
      for (const { side, team } of sides) {
        const state = teamState(view, side);
        // Only a change of what the sensors show: a play that moves nothing publishes nothing.
        if (before && sameState(teamState(before, side), state)) continue;
        retained[this.topics.teamState(team)] = JSON.stringify(state);
      }
    } else {
      retained[this.topics.gameState(event.league, event.gameId)] = JSON.stringify(view);
    }
    for (const [topic, payload] of Object.entries(retained))
      this.link.publish(topic, payload, this.sub.retain);
    const moments = this.moments(event, view, before?.score ?? rulesBefore?.score, alerts, sides);
    const write = this.options.commands.multi().set(viewKey, JSON.stringify(view), 'EX', VIEW_TTL_SECONDS);
    if (Object.keys(retained).length > 0) write.hset(this.keys.retained, retained);
    if (moments.length > 0) write.set(`${this.keys.sent}${event.id}`, '1', 'EX', SENT_TTL_SECONDS, 'NX');
    const results = await write.exec();
    // The NX set answers null when the mark was there: this event's moments went out already.
    const fresh = moments.length > 0 && results?.[results.length - 1]?.[1] === 'OK';
    if (!fresh) return;
    for (const m of moments) this.link.event(m.id, m.topic, m.payload);
  }

  /** The followed teams playing in `event`'s game, with their side (all teams in plain mode without `teams`). */
  private followedSides(event: GameEvent): { side: Side; team: string }[] {
    const out: { side: Side; team: string }[] = [];
    for (const side of ['home', 'away'] as const) {
      const t = event.teams[side];
      const team = this.sub.teams
        ? this.sub.teams.find((x) => x === t.id || x.toUpperCase() === t.abbreviation.toUpperCase())
        : this.sub.mode === 'plain'
          ? t.abbreviation
          : undefined;
      if (team !== undefined) out.push({ side, team });
    }
    return out;
  }

  private wantsAlert(alert: Alert): boolean {
    const wanted = this.sub.alerts;
    return wanted === undefined || wanted.includes('*') || wanted.includes(alert.rule);
  }

  private isFresh(at: string): boolean {
    return this.now() - Date.parse(at) <= this.options.staleAfterSeconds * 1000;
  }

  /** The messages announcing this event's moments, with the ids that make each one once. */
  private moments(
    event: GameEvent,
    view: GameView,
    scoreBefore: GameView['score'] | undefined,
    alerts: readonly Alert[],
    sides: readonly { side: Side; team: string }[],
  ): { id: string; topic: string; payload: string }[] {
    const chosen = alerts.filter((a) => this.wantsAlert(a) && this.isFresh(a.at));
    if (this.sub.mode === 'plain') {
      const topics = [
        this.topics.gameEvents(event.league, event.gameId),
        ...sides.map((s) => this.topics.teamEvents(event.league, s.team)),
      ];
      const messages = [
        { id: event.id, body: { kind: 'event', ...event } },
        ...chosen.map((a) => ({ id: a.id, body: { kind: 'alert', ...a } })),
      ];
      return messages.flatMap((m) =>
        topics.map((topic) => ({ id: `${m.id}@${topic}`, topic, payload: JSON.stringify(m.body) })),
      );
    }
    if (!this.isFresh(event.at)) return [];
    const out: { id: string; topic: string; payload: string }[] = [];
    for (const e of entityEvents(scoreBefore, view, event, chosen)) {
      const followed = sides.find((s) => s.side === e.side);
      if (!followed) continue;
      const state = teamState(view, e.side);
      const payload = {
        event_type: e.type,
        id: e.id,
        team: state.team,
        opponent: state.opponent,
        score: state.score,
        opponent_score: state.opponent_score,
        period_label: state.period_label,
        clock: state.clock,
        ...(e.text ? { text: e.text } : {}),
        league: event.league,
        game_id: event.gameId,
        at: event.at,
      };
      out.push({ id: e.id, topic: this.topics.teamEvent(followed.team), payload: JSON.stringify(payload) });
    }
    return out;
  }
}

function sameState(a: TeamState, b: TeamState): boolean {
  return JSON.stringify({ ...a, updated_at: '' }) === JSON.stringify({ ...b, updated_at: '' });
}

import { PROJECT_URL, VERSION } from '../../src/core/version.js';
import type { MqttSubscriber } from '../rules-file.js';
import { ENTITY_EVENT_TYPES } from './team-state.js';

/** The availability payloads (Home Assistant's defaults, so configs need not name them). */
export const ONLINE = 'online';
export const OFFLINE = 'offline';

/** A followed team as the topics name it: `BOS` → `bos`, an id stays as it is. */
export function teamKey(team: string): string {
  return team.toLowerCase().replace(/[^a-z0-9_-]/g, '_');
}

/** The topics of one subscriber. */
export function topicsOf(sub: Pick<MqttSubscriber, 'topicPrefix' | 'discoveryPrefix'>) {
  const base = sub.topicPrefix;
  return {
    /** `online` / `offline`, retained; `offline` is the connection's last will. */
    availability: `${base}/status`,
    /** A team's state as JSON, retained. */
    teamState: (team: string) => `${base}/team/${teamKey(team)}/state`,
    /** A team's event entity: one JSON message per moment, never retained. */
    teamEvent: (team: string) => `${base}/team/${teamKey(team)}/event`,
    /** Plain mode: every event of a game, and of a team. */
    gameEvents: (league: string, gameId: string) => `${base}/${league}/game/${gameId}/events`,
    teamEvents: (league: string, team: string) => `${base}/${league}/team/${teamKey(team)}/events`,
    /** Plain mode: a game's state, retained. */
    gameState: (league: string, gameId: string) => `${base}/${league}/game/${gameId}/state`,
    /** Home Assistant announces a restart here; configs and states are sent again on `online`. */
    haStatus: `${sub.discoveryPrefix}/status`,
    discovery: (component: string, team: string, object: string) =>
      `${sub.discoveryPrefix}/${component}/courtside_${teamKey(team)}/${object}/config`,
  };
}

export interface DiscoveryMessage {
  topic: string;
  config: Record<string, unknown>;
}

/** One sensor per field of the team's state topic: object id, name, template and extras. */
const SENSORS: readonly [string, string, string, Record<string, unknown>][] = [
  ['score', 'Score', 'score', { state_class: 'measurement', icon: 'mdi:basketball' }],
  ['opponent', 'Opponent', 'opponent', { icon: 'mdi:account-group' }],
  [
    'opponent_score',
    'Opponent score',
    'opponent_score',
    { state_class: 'measurement', icon: 'mdi:basketball' },
  ],
  ['period', 'Period', 'period_label', { icon: 'mdi:timer-sand' }],
  ['clock', 'Clock', 'clock', { icon: 'mdi:clock-outline' }],
  ['game_state', 'Game state', 'state', { device_class: 'enum', options: ['pre', 'in', 'post'] }],
  [
    'win_probability',
    'Win probability',
    'win_probability',
    { unit_of_measurement: '%', state_class: 'measurement', icon: 'mdi:percent' },
  ],
];

/**
 * Home Assistant's MQTT discovery configs for one followed team: a device with the seven
 * sensors, the "playing now" binary sensor and the event entity, all reading the team's state and
 * event topics and unavailable while the daemon's availability topic says `offline`.
 * https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery
 */
export function discoveryMessages(sub: MqttSubscriber, team: string): DiscoveryMessage[] {
  const topics = topicsOf(sub);
  const key = teamKey(team);
  const common = {
    availability_topic: topics.availability,
    payload_available: ONLINE,
    payload_not_available: OFFLINE,
    device: {
      identifiers: [`courtside_${key}`],
      name: `${team.toUpperCase()} (courtside)`,
      manufacturer: 'courtside',
      model: 'Basketball team',
      sw_version: VERSION,
    },
    origin: { name: 'courtside', sw_version: VERSION, support_url: PROJECT_URL },
    ...(sub.qos > 0 ? { qos: sub.qos } : {}),
  };
  const sensors = SENSORS.map(([object, name, field, extra]) => ({
    topic: topics.discovery('sensor', team, object),
    config: {
      name,
      unique_id: `courtside_${key}_${object}`,
      state_topic: topics.teamState(team),
      value_template: `{{ value_json.${field} }}`,
      ...extra,
      ...common,
    },
  }));
  return [
    ...sensors,
    {
      topic: topics.discovery('binary_sensor', team, 'playing'),
      config: {
        name: 'Playing now',
        unique_id: `courtside_${key}_playing`,
        state_topic: topics.teamState(team),
        value_template: "{{ 'ON' if value_json.playing else 'OFF' }}",
        payload_on: 'ON',
        payload_off: 'OFF',
        device_class: 'running',
        ...common,
      },
    },
    {
      topic: topics.discovery('event', team, 'game'),
      config: {
        name: 'Game',
        unique_id: `courtside_${key}_game`,
        state_topic: topics.teamEvent(team),
        event_types: [...ENTITY_EVENT_TYPES],
        icon: 'mdi:basketball-hoop',
        ...common,
      },
    },
  ];
}

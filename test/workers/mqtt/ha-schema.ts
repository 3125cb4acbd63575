/**
 * The parts of Home Assistant's MQTT discovery schema the destination uses, as its integration
 * pages document them (https://www.home-assistant.io/integrations/sensor.mqtt/,
 * binary_sensor.mqtt/, event.mqtt/, and mqtt/#discovery-messages for `device` and `origin`):
 * every key a component accepts, its type, which are required, and the values of the enumerated
 * keys. A config with a key Home Assistant does not know, a missing required key or a value of the
 * wrong type is reported, one line per problem.
 */
type Kind = 'string' | 'number' | 'boolean' | 'list' | 'map';

const ENTITY: Record<string, Kind> = {
  availability: 'list',
  availability_mode: 'string',
  availability_template: 'string',
  availability_topic: 'string',
  device: 'map',
  enabled_by_default: 'boolean',
  encoding: 'string',
  entity_category: 'string',
  entity_picture: 'string',
  icon: 'string',
  json_attributes_template: 'string',
  json_attributes_topic: 'string',
  name: 'string',
  default_entity_id: 'string',
  origin: 'map',
  payload_available: 'string',
  payload_not_available: 'string',
  platform: 'string',
  qos: 'number',
  unique_id: 'string',
};

export const HA_SCHEMA = {
  sensor: {
    keys: {
      ...ENTITY,
      device_class: 'string',
      expire_after: 'number',
      force_update: 'boolean',
      last_reset_value_template: 'string',
      options: 'list',
      suggested_display_precision: 'number',
      state_class: 'string',
      state_topic: 'string',
      unit_of_measurement: 'string',
      value_template: 'string',
    } as Record<string, Kind>,
    required: ['state_topic'],
    enums: { state_class: ['measurement', 'measurement_angle', 'total', 'total_increasing'] },
  },
  binary_sensor: {
    keys: {
      ...ENTITY,
      device_class: 'string',
      expire_after: 'number',
      force_update: 'boolean',
      off_delay: 'number',
      payload_off: 'string',
      payload_on: 'string',
      state_topic: 'string',
      value_template: 'string',
    } as Record<string, Kind>,
    required: ['state_topic'],
    enums: {
      device_class: ['connectivity', 'moving', 'occupancy', 'presence', 'problem', 'running', 'update'],
    },
  },
  event: {
    keys: {
      ...ENTITY,
      device_class: 'string',
      event_types: 'list',
      state_topic: 'string',
      value_template: 'string',
    } as Record<string, Kind>,
    required: ['state_topic', 'event_types'],
    enums: { device_class: ['button', 'doorbell', 'motion'] },
  },
} as const;

const DEVICE: Record<string, Kind> = {
  configuration_url: 'string',
  connections: 'list',
  hw_version: 'string',
  identifiers: 'list',
  manufacturer: 'string',
  model: 'string',
  model_id: 'string',
  name: 'string',
  serial_number: 'string',
  suggested_area: 'string',
  sw_version: 'string',
  via_device: 'string',
};
const ORIGIN: Record<string, Kind> = { name: 'string', sw_version: 'string', support_url: 'string' };

function kindOf(value: unknown): Kind | 'other' {
  if (Array.isArray(value)) return 'list';
  if (value !== null && typeof value === 'object') return 'map';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'other';
}

function checkKeys(where: string, value: Record<string, unknown>, keys: Record<string, Kind>): string[] {
  const problems: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const want = keys[key];
    if (!want) problems.push(`${where}${key}: not a key Home Assistant knows`);
    else if (kindOf(v) !== want)
      problems.push(`${where}${key}: expected a ${want}, got ${JSON.stringify(v)}`);
  }
  return problems;
}

/** Every way `config` departs from Home Assistant's schema for `component` (empty: none). */
export function checkAgainstSchema(
  component: keyof typeof HA_SCHEMA,
  config: Record<string, unknown>,
): string[] {
  const schema = HA_SCHEMA[component];
  const problems = checkKeys('', config, schema.keys);
  for (const key of schema.required) if (!(key in config)) problems.push(`${key}: required`);
  for (const [key, allowed] of Object.entries(schema.enums) as [string, readonly string[]][]) {
    if (key in config && !allowed.includes(config[key] as string)) {
      problems.push(`${key}: expected one of ${allowed.join(', ')}`);
    }
  }
  const device = config.device as Record<string, unknown> | undefined;
  if (device) {
    problems.push(...checkKeys('device.', device, DEVICE));
    if (!Array.isArray(device.identifiers) || device.identifiers.length === 0) {
      problems.push('device.identifiers: a device needs identifiers (or connections)');
    }
  }
  const origin = config.origin as Record<string, unknown> | undefined;
  if (origin) {
    problems.push(...checkKeys('origin.', origin, ORIGIN));
    if (typeof origin.name !== 'string') problems.push('origin.name: required');
  }
  // A device's entities must be told apart: Home Assistant requires unique_id with a device.
  if (device && typeof config.unique_id !== 'string') problems.push('unique_id: required with device');
  if (component === 'sensor' && config.device_class === 'enum') {
    if (!Array.isArray(config.options)) problems.push('options: required with device_class enum');
    if ('state_class' in config || 'unit_of_measurement' in config) {
      problems.push('device_class enum: takes no state_class or unit_of_measurement');
    }
  }
  if (component === 'event' && Array.isArray(config.event_types) && config.event_types.length === 0) {
    problems.push('event_types: at least one');
  }
  return problems;
}

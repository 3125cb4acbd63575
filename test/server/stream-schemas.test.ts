import { describe, expect, it } from 'vitest';
import { eventDataFields } from '../../scripts/event-model.js';
import { EVENT_TYPES } from '../../src/model/events.js';
import { eventDataSchemaName, streamSchemas } from '../../src/server/stream-schemas.js';

/**
 * Each event type's data schema against the model's interface, as the TypeScript compiler reads
 * it. The compiler already refuses a schema without an entry for one of the interface's
 * properties; it does not see a required property left out of `required`, nor a type that got an
 * interface of its own while its schema is still the one it shared with another type.
 */
describe('stream-schemas: event data', () => {
  const fields = eventDataFields();
  const schemas = streamSchemas();

  it('reads a data interface for every event type of the model', () => {
    expect(Object.keys(fields)).toEqual([...EVENT_TYPES]);
  });

  for (const type of EVENT_TYPES) {
    it(`${type}: has exactly the model's fields, the required ones required`, () => {
      const schema = schemas[eventDataSchemaName(type)] as { properties: object; required: string[] };
      const model = fields[type] ?? [];
      expect(Object.keys(schema.properties).sort(), 'properties').toEqual(model.map((f) => f.name).sort());
      expect([...schema.required].sort(), 'required').toEqual(
        model
          .filter((f) => !f.optional)
          .map((f) => f.name)
          .sort(),
      );
    });
  }
});

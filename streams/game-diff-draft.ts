import type { EventDataMap, EventType } from '../src/model/events.js';
import type { DraftEvent } from './poll-order.js';

/** An event of a summary diff before it has its place (`seq`) in the game. */
export function draft<T extends EventType>(type: T, id: string, data: EventDataMap[T]): DraftEvent {
  return { type, id, data } as DraftEvent;
}

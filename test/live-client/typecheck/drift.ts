// Compile-time check that the client library's hand-written types (src/live-client/*.d.ts) say
// exactly what the model (src/model/events.ts) says: `tsc --noEmit` fails on any drift.
import type * as Lib from '../../../src/live-client/courtside.js';
import type * as Model from '../../../src/model/events.js';
import type { League } from '../../../src/core/leagues.js';

/** True only when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;

export type Checks = [
  Assert<Equal<Lib.League, League>>,
  Assert<Equal<Lib.EventType, Model.EventType>>,
  Assert<Equal<Lib.EventDataMap, Model.EventDataMap>>,
  Assert<Equal<Lib.GameEvent, Model.GameEvent>>,
  Assert<Equal<Lib.EventEnvelope, Model.EventEnvelope>>,
  Assert<Equal<Lib.PlayRow, Model.PlayRow>>,
  Assert<Equal<Lib.GameSnapshot, Model.GameSnapshot>>,
  Assert<Equal<Lib.SnapshotTeam, Model.SnapshotTeam>>,
  Assert<Equal<Lib.GameSituation, Model.GameSituation>>,
  // A game state is a snapshot plus its plays: whatever the model adds to a snapshot, it has.
  Assert<Equal<Omit<Lib.LiveGame, 'plays'>, Model.GameSnapshot>>,
  // Every event type has its data, and no other.
  Assert<Equal<keyof Lib.EventDataMap, Model.EventType>>,
];

// Compile-time check that the library's earlier names (`Client`, `CourtsideClientError`,
// `ClientEvents`) are the same types as the current ones, so existing users' code compiles as is.
import type * as Lib from '../../../src/live-client/courtside.js';

/** True only when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;

export type Checks = [
  Assert<Equal<Lib.Client, Lib.LiveClient>>,
  Assert<Equal<typeof Lib.Client, typeof Lib.LiveClient>>,
  Assert<Equal<Lib.CourtsideClientError, Lib.LiveClientError>>,
  Assert<Equal<typeof Lib.CourtsideClientError, typeof Lib.LiveClientError>>,
  Assert<Equal<Lib.ClientEvents, Lib.LiveClientEvents>>,
];

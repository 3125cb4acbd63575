// One subscription to the daemon's stream for a page, through courtside's client library
// (served by the daemon at /client/courtside.js): it reconnects, resumes from the last offset
// and drops duplicates by itself, so the pages only render what it hands them.
import { connect } from '/client/courtside.js';
import { token } from './params.js';

/**
 * `subscribe`: the library's subscribe options (leagues, games, types, snapshot, delay).
 * `onState('open' | 'reconnecting' | 'closed', change)`; `onSnapshot(game)`; `onEvent(event)`.
 */
export function openStream({ subscribe, onSnapshot, onEvent, onState }) {
  const client = connect('/', token ? { token } : {});
  client.on('state', (change) => {
    onState(change.state === 'open' ? 'open' : change.state === 'closed' ? 'closed' : 'reconnecting', change);
  });
  const sub = client.subscribe(subscribe);
  sub.on('snapshot', onSnapshot);
  sub.on('event', onEvent);
  return { client, sub };
}

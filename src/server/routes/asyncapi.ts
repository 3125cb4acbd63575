import { buildAsyncApi, type AsyncApiOptions } from '../asyncapi.js';
import { sendError, type RouteHandler } from '../http-types.js';
import { isRead, JSON_TYPE, sendBody } from './respond.js';

/** `GET /v1/asyncapi.json`: the AsyncAPI 3 document of the WebSocket and SSE streams. */
export function createAsyncApiRoute(options: AsyncApiOptions = {}): RouteHandler {
  let body: string | undefined;
  return (req, res, url) => {
    if (url.pathname !== '/v1/asyncapi.json') return false;
    if (!isRead(req)) {
      sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use GET', { headers: { allow: 'GET, HEAD' } });
      return true;
    }
    // Built once: frames, errors and event types do not change while the process runs.
    body ??= JSON.stringify(buildAsyncApi(options));
    sendBody(req, res, body, { contentType: JSON_TYPE, cacheControl: 'public, max-age=3600' });
    return true;
  };
}

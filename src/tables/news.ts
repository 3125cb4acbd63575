import type { League } from '../core/leagues.js';
import { arr, obj } from './cells.js';
import { byPath, extract, type Extractors } from './extract.js';
import { fixedFrame } from './fixed.js';
import type { Frame, Layout } from './frame.js';

/** Every news column of either league (and the summary's news); each table takes its own subset. */
export const NEWS_EXTRACTORS: Extractors = byPath([
  'id',
  'nowId',
  'contentKey',
  'dataSourceIdentifier',
  'type',
  'headline',
  'description',
  'lastModified',
  'published',
  'images',
  'categories',
  'byline',
  'links.web.href',
  'links.mobile.href',
  'links.api.self.href',
  'links.app.sportscenter.href',
  'premium',
  'links.web.self.href',
  'links.web.self.dsi.href',
  'links.api.artwork.href',
  'links.sportscenter.href',
]);

/** News operations (league, team, athlete): one row per item of `articles`. */
export function newsFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('news', league, extract('news', league, NEWS_EXTRACTORS, arr(obj(raw).articles), layout));
}

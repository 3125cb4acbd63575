import type { League } from '../core/leagues.js';
import { arr, obj } from './cells.js';
import { extract, type Extractors } from './extract.js';
import { fixedFrame } from './fixed.js';
import type { Frame, Layout } from './frame.js';

/** Every news column of either league (and the summary's news); each table takes its own subset. */
export const NEWS_EXTRACTORS: Extractors = {
  id: 'id',
  now_id: 'nowId',
  content_key: 'contentKey',
  data_source_identifier: 'dataSourceIdentifier',
  type: 'type',
  headline: 'headline',
  description: 'description',
  last_modified: 'lastModified',
  published: 'published',
  images: 'images',
  categories: 'categories',
  byline: 'byline',
  links_web_href: 'links.web.href',
  links_mobile_href: 'links.mobile.href',
  links_api_self_href: 'links.api.self.href',
  links_app_sportscenter_href: 'links.app.sportscenter.href',
  premium: 'premium',
  links_web_self_href: 'links.web.self.href',
  links_web_self_dsi_href: 'links.web.self.dsi.href',
  links_api_artwork_href: 'links.api.artwork.href',
  links_sportscenter_href: 'links.sportscenter.href',
};

/** News operations (league, team, athlete): one row per item of `articles`. */
export function newsFrame(raw: unknown, league: League, layout: Layout = 'rows'): Frame {
  return fixedFrame('news', league, extract('news', league, NEWS_EXTRACTORS, arr(obj(raw).articles), layout));
}

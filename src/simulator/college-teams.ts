/**
 * Teams of the main Division I conferences for the simulator's college games, beside the ones the
 * recorded payloads name (team-catalog.ts): ESPN's team ids, abbreviations and colours as a public
 * ESPN-derived team map lists them (SchmidtScoreboard/rust-scoreboard, server/ncaa.py, read through
 * a code search), and each team's conference by the 2024-25 alignment. Conference ids are ESPN's
 * group ids (`/groups`: Division I is 50). ESPN uses the same team ids in both college leagues.
 */

export interface CollegeConference {
  readonly id: string;
  readonly name: string;
  readonly abbreviation: string;
}

export const CONFERENCES = {
  ACC: { id: '2', name: 'Atlantic Coast Conference', abbreviation: 'ACC' },
  A10: { id: '3', name: 'Atlantic 10 Conference', abbreviation: 'A-10' },
  BIG_EAST: { id: '4', name: 'Big East Conference', abbreviation: 'Big East' },
  BIG_TEN: { id: '7', name: 'Big Ten Conference', abbreviation: 'Big Ten' },
  BIG_12: { id: '8', name: 'Big 12 Conference', abbreviation: 'Big 12' },
  MEAC: { id: '16', name: 'Mid-Eastern Athletic Conference', abbreviation: 'MEAC' },
  SEC: { id: '23', name: 'Southeastern Conference', abbreviation: 'SEC' },
  WCC: { id: '29', name: 'West Coast Conference', abbreviation: 'WCC' },
  MWC: { id: '44', name: 'Mountain West Conference', abbreviation: 'MWC' },
  AAC: { id: '62', name: 'American Athletic Conference', abbreviation: 'American' },
} as const satisfies Record<string, CollegeConference>;

type ConferenceKey = keyof typeof CONFERENCES;

/** [ESPN id, abbreviation, location, name, colour, alternate colour, conference]. */
export type CollegeRow = readonly [string, string, string, string, string, string, ConferenceKey];

export const COLLEGE_ROWS: readonly CollegeRow[] = [
  ['153', 'UNC', 'North Carolina', 'Tar Heels', '99bfe5', '13294b', 'ACC'],
  ['152', 'NCST', 'NC State', 'Wolfpack', 'ef1216', '231f20', 'ACC'],
  ['258', 'UVA', 'Virginia', 'Cavaliers', 'f84c1e', '242e4a', 'ACC'],
  ['97', 'LOU', 'Louisville', 'Cardinals', 'ad000a', 'cccccc', 'ACC'],
  ['183', 'SYR', 'Syracuse', 'Orange', 'f37321', '0d1d37', 'ACC'],
  ['228', 'CLEM', 'Clemson', 'Tigers', 'f66733', '000000', 'ACC'],
  ['2390', 'MIA', 'Miami', 'Hurricanes', '004325', 'f0f0f0', 'ACC'],
  ['221', 'PITT', 'Pittsburgh', 'Panthers', '003263', 'ffffff', 'ACC'],
  ['52', 'FSU', 'Florida State', 'Seminoles', '782f40', 'ceb888', 'ACC'],
  ['59', 'GT', 'Georgia Tech', 'Yellow Jackets', '00223e', 'ffffff', 'ACC'],
  ['87', 'ND', 'Notre Dame', 'Fighting Irish', '00122b', 'ae9142', 'ACC'],
  ['103', 'BC', 'Boston College', 'Eagles', '88001a', 'ffffff', 'ACC'],
  ['24', 'STAN', 'Stanford', 'Cardinal', 'a80532', 'ffffff', 'ACC'],
  ['25', 'CAL', 'California', 'Golden Bears', '031522', 'ffc423', 'ACC'],
  ['127', 'MSU', 'Michigan State', 'Spartans', '18453b', 'ffffff', 'BIG_TEN'],
  ['130', 'MICH', 'Michigan', 'Wolverines', '00274c', 'ffcb05', 'BIG_TEN'],
  ['2509', 'PUR', 'Purdue', 'Boilermakers', 'ceb888', '000000', 'BIG_TEN'],
  ['356', 'ILL', 'Illinois', 'Fighting Illini', 'f77329', '000000', 'BIG_TEN'],
  ['84', 'IU', 'Indiana', 'Hoosiers', '7d110c', 'eeedeb', 'BIG_TEN'],
  ['2294', 'IOWA', 'Iowa', 'Hawkeyes', '000000', 'ffe100', 'BIG_TEN'],
  ['194', 'OSU', 'Ohio State', 'Buckeyes', 'bb0000', 'ffffff', 'BIG_TEN'],
  ['275', 'WISC', 'Wisconsin', 'Badgers', 'a00002', 'f7f7f7', 'BIG_TEN'],
  ['120', 'MD', 'Maryland', 'Terrapins', 'd5002b', 'ffcd00', 'BIG_TEN'],
  ['158', 'NEB', 'Nebraska', 'Cornhuskers', 'f20017', 'f5f1e7', 'BIG_TEN'],
  ['77', 'NW', 'Northwestern', 'Wildcats', '372286', 'd6cac1', 'BIG_TEN'],
  ['135', 'MINN', 'Minnesota', 'Golden Gophers', '981a31', 'ffffff', 'BIG_TEN'],
  ['213', 'PSU', 'Penn State', 'Nittany Lions', '00265d', 'ffffff', 'BIG_TEN'],
  ['164', 'RUTG', 'Rutgers', 'Scarlet Knights', 'd21034', 'ffffff', 'BIG_TEN'],
  ['26', 'UCLA', 'UCLA', 'Bruins', '005c8e', 'ffc72c', 'BIG_TEN'],
  ['30', 'USC', 'USC', 'Trojans', 'ae2531', 'ffc72c', 'BIG_TEN'],
  ['264', 'WASH', 'Washington', 'Huskies', '2b2f64', 'e8e3d3', 'BIG_TEN'],
  ['248', 'HOU', 'Houston', 'Cougars', 'c90822', 'ffffff', 'BIG_12'],
  ['239', 'BAY', 'Baylor', 'Bears', '004834', 'ffb81c', 'BIG_12'],
  ['66', 'ISU', 'Iowa State', 'Cyclones', '660015', 'ffffff', 'BIG_12'],
  ['2306', 'KSU', 'Kansas State', 'Wildcats', '633194', 'e7d2ad', 'BIG_12'],
  ['252', 'BYU', 'BYU', 'Cougars', '001e4c', 'ffffff', 'BIG_12'],
  ['2132', 'CIN', 'Cincinnati', 'Bearcats', '000000', '717073', 'BIG_12'],
  ['277', 'WVU', 'West Virginia', 'Mountaineers', 'ffc600', '000000', 'BIG_12'],
  ['197', 'OKST', 'Oklahoma State', 'Cowboys', 'ff6500', '000000', 'BIG_12'],
  ['12', 'ARIZ', 'Arizona', 'Wildcats', '002449', 'ffffff', 'BIG_12'],
  ['9', 'ASU', 'Arizona State', 'Sun Devils', '942139', 'f1f2f3', 'BIG_12'],
  ['38', 'COLO', 'Colorado', 'Buffaloes', 'd1c57e', '000000', 'BIG_12'],
  ['254', 'UTAH', 'Utah', 'Utes', '890012', 'ffffff', 'BIG_12'],
  ['2116', 'UCF', 'UCF', 'Knights', '000000', 'ffffff', 'BIG_12'],
  ['2', 'AUB', 'Auburn', 'Tigers', '03244d', 'f1f2f3', 'SEC'],
  ['333', 'ALA', 'Alabama', 'Crimson Tide', '690014', 'f1f2f3', 'SEC'],
  ['96', 'UK', 'Kentucky', 'Wildcats', '005daa', 'ffffff', 'SEC'],
  ['57', 'FLA', 'Florida', 'Gators', '0021a5', 'ffffff', 'SEC'],
  ['8', 'ARK', 'Arkansas', 'Razorbacks', '9c1831', 'ffffff', 'SEC'],
  ['142', 'MIZ', 'Missouri', 'Tigers', '000000', 'ffffff', 'SEC'],
  ['145', 'MISS', 'Ole Miss', 'Rebels', '001148', 'ffffff', 'SEC'],
  ['344', 'MSST', 'Mississippi State', 'Bulldogs', '762123', 'c8c8c8', 'SEC'],
  ['245', 'TA&M', 'Texas A&M', 'Aggies', '5c0025', 'ffffff', 'SEC'],
  ['251', 'TEX', 'Texas', 'Longhorns', 'ee7524', '000000', 'SEC'],
  ['201', 'OU', 'Oklahoma', 'Sooners', '7b0000', 'cccccc', 'SEC'],
  ['238', 'VAN', 'Vanderbilt', 'Commodores', '000000', 'ffffff', 'SEC'],
  ['41', 'CONN', 'UConn', 'Huskies', '001d40', 'f1f2f3', 'BIG_EAST'],
  ['222', 'VILL', 'Villanova', 'Wildcats', '123d7c', 'f0f0f0', 'BIG_EAST'],
  ['156', 'CREI', 'Creighton', 'Bluejays', '13299e', 'ffffff', 'BIG_EAST'],
  ['269', 'MARQ', 'Marquette', 'Golden Eagles', '083963', 'ffffff', 'BIG_EAST'],
  ['46', 'GTWN', 'Georgetown', 'Hoyas', '110e42', 'ffffff', 'BIG_EAST'],
  ['305', 'DEP', 'DePaul', 'Blue Demons', '2d649c', 'ffffff', 'BIG_EAST'],
  ['2086', 'BUT', 'Butler', 'Bulldogs', '0d1361', '00a3e0', 'BIG_EAST'],
  ['2168', 'DAY', 'Dayton', 'Flyers', '004b8d', 'ffffff', 'A10'],
  ['2250', 'GONZ', 'Gonzaga', 'Bulldogs', '002967', 'cfd4d8', 'WCC'],
  ['21', 'SDSU', 'San Diego State', 'Aztecs', 'bf2c37', 'ffffff', 'MWC'],
  ['235', 'MEM', 'Memphis', 'Tigers', '002447', 'ffffff', 'AAC'],
];

/** The conference of a college team by its ESPN id: the recorded teams' and the rows above. */
export const CONFERENCE_OF_TEAM: Readonly<Record<string, CollegeConference>> = {
  // The teams of the recorded payloads (the recorded scoreboard carries 4 for the Big East and
  // 16 for the MEAC; the summaries 2, 3, 8 and 23).
  '150': CONFERENCES.ACC,
  '154': CONFERENCES.ACC,
  '259': CONFERENCES.ACC,
  '2305': CONFERENCES.BIG_12,
  '2752': CONFERENCES.BIG_EAST,
  '139': CONFERENCES.A10,
  '179': CONFERENCES.A10,
  '2569': CONFERENCES.MEAC,
  '99': CONFERENCES.SEC,
  '61': CONFERENCES.SEC,
  ...Object.fromEntries(COLLEGE_ROWS.map((row) => [row[0], CONFERENCES[row[6]]])),
};

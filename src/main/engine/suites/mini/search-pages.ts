/**
 * The web snapshots of `mini-search`: four small webs about invented places and people (so a
 * judge can only know the answer by searching the snapshot), each with the page that settles
 * the question and distractors that look like it: a stale source, a namesake, a near match.
 */
import type { WebPage } from '../../../../shared/suite-format';

/** When did the Kestrel Valley Railway open to passengers? (1887; a blog says 1889) */
export const railwayPages: WebPage[] = [
  {
    url: 'https://kestrelvalleyrailway.org/history',
    title: 'History of the Kestrel Valley Railway',
    content:
      'Construction of the Kestrel Valley Railway began in 1884 under the engineer Thomas ' +
      'Ashdown. After two wet winters delayed the Harrow cutting, the line opened to ' +
      'passengers on 3 May 1887, running eleven miles from Millbrook to Kestrel Head. Goods ' +
      'traffic had used the lower section since late 1886. Passenger services ended in 1962; ' +
      'the preservation society reopened the Millbrook section in 1994.',
  },
  {
    url: 'https://weekendrails.example.com/kestrel-valley-day-out',
    title: 'A day out on the Kestrel Valley line',
    content:
      'We spent a lovely Saturday on the Kestrel Valley heritage trains. The guide told us the ' +
      'railway opened in 1889 and that the station tea room is original. Tickets are 14 ' +
      'pounds for adults; dogs travel free.',
  },
  {
    url: 'https://birdsofthevalley.example.org/kestrel',
    title: 'The common kestrel in the valley',
    content:
      'Kestrels hover over the railway embankments of the valley, hunting voles in the long ' +
      'grass. Nesting boxes were put up along the old line in 2009.',
  },
  {
    url: 'https://millbrook-archive.example.org/engineers/ashdown',
    title: 'Thomas Ashdown, railway engineer',
    content:
      'Thomas Ashdown (1841-1910) engineered several branch lines, among them the Kestrel ' +
      'Valley Railway, whose construction began in 1884, and the Fenwick tramway of 1892.',
  },
];

/** Which university awarded the chemist Marisol Quintero her doctorate? (Valdera) */
export const chemistPages: WebPage[] = [
  {
    url: 'https://chem.valdera.example.edu/people/quintero',
    title: 'Prof. Marisol Quintero - Department of Chemistry',
    content:
      'Marisol Quintero is a professor of physical chemistry. She received her doctorate from ' +
      'the University of Valdera in 2009 for work on proton transfer in ice, after a master ' +
      'degree at the Torren Institute. She joined the faculty in 2015.',
  },
  {
    url: 'https://icpc-conference.example.org/speakers/quintero',
    title: 'Keynote speaker: Marisol Quintero',
    content:
      'Marisol Quintero studied at the Torren Institute and now leads a group working on ' +
      'ultrafast spectroscopy. Her keynote covers proton transfer in ice.',
  },
  {
    url: 'https://footballnews.example.com/marisol-quintero-signs',
    title: 'Marisol Quintero signs for Real Costera',
    content:
      'Midfielder Marisol Quintero, a graduate of the Real Costera academy, signed her first ' +
      'professional contract with the club on Friday.',
  },
  {
    url: 'https://torren.example.edu/alumni',
    title: 'Torren Institute alumni',
    content:
      'Notable alumni of the Torren Institute include the chemist Marisol Quintero (MSc 2004) ' +
      'and the poet Anders Vale.',
  },
];

/** How deep is Lake Ormond at its deepest? (212 m by the 2021 survey; older sources say 198 m) */
export const lakePages: WebPage[] = [
  {
    url: 'https://ormond-survey.example.gov/reports/2021',
    title: 'Lake Ormond bathymetric survey 2021',
    content:
      'The 2021 multibeam survey measured a maximum depth of 212 m in the northern basin, ' +
      'revising the 198 m figure of the 1958 lead-line survey, which missed the deepest trench. ' +
      'Mean depth is 87 m.',
  },
  {
    url: 'https://openencyclopedia.example.org/wiki/Lake_Ormond',
    title: 'Lake Ormond - Open Encyclopedia',
    content:
      'Lake Ormond is a glacial lake. Maximum depth: 198 m (1958 survey). Surface area: 41 ' +
      'square kilometres. The lake freezes over in most winters.',
  },
  {
    url: 'https://travelnorth.example.com/lake-ormond',
    title: 'Visiting Lake Ormond',
    content:
      'Lake Ormond is about 200 metres deep and very cold even in August. Boat hire is ' +
      'available at the Ormond Lake Resort.',
  },
  {
    url: 'https://ormondlakeresort.example.com',
    title: 'Ormond Lake Resort',
    content:
      'Lakeside rooms, a spa and a 9 m deep diving pool. Book your stay on the shores of Lake ' +
      'Ormond.',
  },
];

/** Which bridge did the architect of Corvale's Old Exchange design? (the Tamsin Footbridge) */
export const architectPages: WebPage[] = [
  {
    url: 'https://corvale-heritage.example.org/old-exchange',
    title: 'The Old Exchange, Corvale',
    content:
      'The Old Exchange on Market Square was designed by the architect Ilse Varga and ' +
      'completed in 1926. Its copper dome was restored in 2011.',
  },
  {
    url: 'https://architects-register.example.org/ilse-varga',
    title: 'Ilse Varga (1889-1958), architect',
    content:
      'Ilse Varga practised in Corvale from 1919. Her works include the Old Exchange (1926) ' +
      'and the Tamsin Footbridge over the river Lune (1931), an early reinforced concrete arch.',
  },
  {
    url: 'https://architects-register.example.org/ilse-varga-lund',
    title: 'Ilse Varga-Lund (1921-2004), engineer',
    content:
      'Ilse Varga-Lund designed the Harlow Bridge (1967) and several motorway viaducts. She is ' +
      'not related to the Corvale architect Ilse Varga.',
  },
  {
    url: 'https://visitcorvale.example.com/bridges',
    title: 'Bridges of Corvale',
    content:
      'Corvale has seven bridges: the Tamsin Footbridge, the Harlow Bridge, the Mill Bridge, ' +
      'the Lune Viaduct and three railway bridges.',
  },
];
